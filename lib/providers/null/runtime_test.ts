import { strict as assert } from "node:assert";
import { BUILTIN_REGISTRY } from "../registry.ts";
const { findTypes } = BUILTIN_REGISTRY;
import { NULL_RUNTIME } from "./runtime.ts";

const type = findTypes("null_resource")[0].type;
const h = NULL_RUNTIME.handlers.managed!.null_resource;
const base = { type, address: "n", root: "/", providerConfig: {} };

Deno.test("null_resource create gives a random decimal id and keeps the triggers", async () => {
  const a = await h.create!({ ...base, config: { triggers: { k: "v" } } });
  const b = await h.create!({ ...base, config: {} });
  assert.deepEqual(a.diagnostics, []);
  assert.match(a.value!.id as string, /^\d+$/);
  assert.ok(BigInt(a.value!.id as string) < 2n ** 63n);
  assert.notEqual(a.value!.id, b.value!.id);
  assert.deepEqual(a.value!.triggers, { k: "v" });
});

Deno.test("null_resource delete does nothing and succeeds", async () => {
  const res = await h.delete!({ ...base, prior: { id: "1" } });
  assert.deepEqual(res.diagnostics, []);
});
