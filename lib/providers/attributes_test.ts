import assert from "node:assert/strict";
import { computed, optional, required } from "./attributes.ts";

Deno.test("required(), optional() and computed() say who sets the attribute, then the options in order", () => {
  assert.deepEqual(required("int", "n"), { type: "int", description: "n", required: true });
  const o = optional("string", "s", { computed: true, forceNew: true });
  assert.deepEqual(o, {
    type: "string",
    description: "s",
    optional: true,
    computed: true,
    forceNew: true,
  });
  assert.deepEqual(Object.keys(o), ["type", "description", "optional", "computed", "forceNew"]);
  assert.deepEqual(computed({ list: "string" }, "l", { sensitive: true }), {
    type: { list: "string" },
    description: "l",
    computed: true,
    sensitive: true,
  });
});
