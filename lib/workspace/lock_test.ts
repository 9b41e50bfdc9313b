import assert from "node:assert/strict";
import type { Pinned } from "./pinned.ts";
import { pluginInputs } from "./lock.ts";
import { openWorkspace } from "./workspace.ts";

Deno.test("pluginInputs(): in a child of pravo mcp that verified no plugin provider, none may run", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir());
  const signal = new AbortController().signal;
  assert.equal(
    pluginInputs(root, signal, undefined).pinned,
    undefined,
    "not pinned: the lock decides",
  );
  const pinned: Pinned = {
    pinned: 1,
    root,
    state: { backend: "sqlite", path: `${root}/s.db`, isDefault: true },
    config: {},
    policies: [],
    tags: {},
    actor: "a",
    reason: "",
  };
  assert.deepEqual(
    pluginInputs(root, signal, pinned).pinned,
    [],
    "pinned with no plugins: an empty list, not none",
  );
  assert.deepEqual((await openWorkspace(root, { pinned, signal })).inputs.pinned, []);
  const other = await Deno.realPath(await Deno.makeTempDir());
  assert.equal(
    (await openWorkspace(other, { pinned, signal })).inputs.pinned,
    undefined,
    "another root is not pinned",
  );
});
