import assert from "node:assert/strict";
import { pin } from "./pinned.ts";
import { pluginInputs } from "./lock.ts";

Deno.test("pluginInputs(): in a child of pravo mcp that verified no plugin provider, none may run", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir());
  assert.equal(pluginInputs(root).pinned, undefined, "not pinned: the lock decides");
  pin({
    pinned: 1,
    root,
    state: { backend: "sqlite", path: `${root}/s.db`, isDefault: true },
    config: {},
    policies: [],
    tags: {},
    actor: "a",
    reason: "",
  });
  try {
    assert.deepEqual(
      pluginInputs(root).pinned,
      [],
      "pinned with no plugins: an empty list, not none",
    );
    const other = await Deno.realPath(await Deno.makeTempDir());
    assert.equal(pluginInputs(other).pinned, undefined, "another root is not pinned");
  } finally {
    pin(undefined);
  }
});
