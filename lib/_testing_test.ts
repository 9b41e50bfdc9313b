import assert from "node:assert/strict";
import { loadedModules, reachable } from "./_testing.ts";

const INFO = {
  roots: ["a"],
  modules: [
    { specifier: "a", dependencies: [{ code: { specifier: "b" } }, { type: { specifier: "t" } }] },
    { specifier: "b", dependencies: [{ code: { specifier: "d" }, isDynamic: true }] },
    { specifier: "d", dependencies: [{ code: { specifier: "a" } }] },
    { specifier: "t" },
  ],
};

Deno.test("reachable() follows code imports, dynamic ones unless told not to, type-only ones when told", () => {
  assert.deepEqual(reachable(INFO).sort(), ["a", "b", "d"]);
  assert.deepEqual(reachable(INFO, { dynamic: false }).sort(), ["a", "b"]);
  assert.deepEqual(reachable(INFO, { types: true }).sort(), ["a", "b", "d", "t"]);
});

Deno.test("loadedModules() reads deno info of a file: this helper loads node:assert and itself", async () => {
  const seen = await loadedModules(new URL("./_testing.ts", import.meta.url));
  assert.ok(seen.includes(new URL("./_testing.ts", import.meta.url).href), seen.join("\n"));
  assert.ok(seen.includes("node:assert/strict"), seen.join("\n"));
});
