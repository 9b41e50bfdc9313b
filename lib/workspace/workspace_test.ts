import assert from "node:assert/strict";
import { join } from "node:path";
import { catalogOf, openWorkspace } from "./workspace.ts";
import type { Pinned } from "./pinned.ts";

const signal = new AbortController().signal;

Deno.test("openWorkspace() reads pravo.jsonc and pravo.lock.json when first asked, then keeps them", async () => {
  const root = Deno.makeTempDirSync();
  const ws = await openWorkspace(root, { signal });
  assert.ok(Object.isFrozen(ws));
  assert.equal(ws.root, root);
  assert.deepEqual(ws.config, { config: {} });
  assert.equal(ws.lock, undefined);
  assert.ok(ws.catalog, "a root without a lock has a catalog with no plugin providers");
  assert.deepEqual(ws.catalog.sources(), []);
  assert.equal(ws.registry.findProvider("hashicorp/random")?.source, "hashicorp/random");
  assert.equal(ws.registry, ws.registry, "the registry is built once");
  assert.equal(ws.signal, signal);
  assert.equal(ws.pinned, undefined);
});

Deno.test("openWorkspace() takes the pinned configuration and lock of the root it serves, and no file", async () => {
  const root = Deno.makeTempDirSync();
  Deno.writeTextFileSync(join(root, "pravo.jsonc"), "{ not json");
  Deno.writeTextFileSync(join(root, "pravo.lock.json"), "{ not json");
  const pinned: Pinned = {
    pinned: 1,
    root,
    state: { backend: "sqlite", path: join(root, "s.db"), isDefault: false },
    config: { state: { root: "web" } },
    policies: [],
    tags: {},
    actor: "a",
    reason: "",
  };
  const ws = await openWorkspace(root, { pinned, signal });
  assert.equal(ws.pinned, pinned);
  assert.deepEqual(ws.config.config, { state: { root: "web" } });
  assert.equal(ws.lock, undefined, "the server's root had no lock at start");
  const other = await openWorkspace(Deno.makeTempDirSync(), { pinned, signal });
  assert.equal(other.pinned, undefined, "a document pinned for another root is not this one's");
});

Deno.test("openWorkspace() refuses a malformed lock when it is read, and catalogOf() throws its diagnostics", async () => {
  const root = Deno.makeTempDirSync();
  Deno.writeTextFileSync(join(root, "pravo.lock.json"), "{ not json");
  const ws = await openWorkspace(root, { signal });
  assert.throws(() => ws.lock, /pravo.lock.json/);
  assert.equal(ws.catalog, undefined);
  assert.ok(ws.catalogDiagnostics.length > 0);
  assert.throws(() => catalogOf(ws), /pravo.lock.json/);
});
