import { strict as assert } from "node:assert";
import { attr, block } from "../../plugin/_testing.ts";
import { Typed, UNKNOWN } from "../../plugin/value.ts";
import { UNKNOWN_INPUT } from "../resource_provider.ts";
import { fromState, plannedView, sameValue, toProviderValue, toState } from "./values.ts";

Deno.test("plannedView(): whole unknowns by name, unknowns inside a value by path", () => {
  const v = plannedView({
    id: UNKNOWN,
    name: "n",
    versioning: [{ enabled: true, mfa_delete: UNKNOWN }],
    tags: { a: "b" },
  });
  assert.deepEqual(v.afterUnknown, ["id", "versioning[0].mfa_delete"]);
  assert.deepEqual(v.after, {
    name: "n",
    versioning: [{ enabled: true, mfa_delete: null }],
    tags: { a: "b" },
  });
});

Deno.test("toProviderValue(): the loader's unknown becomes the provider's", () => {
  assert.deepEqual(toProviderValue({ a: [UNKNOWN_INPUT, 1], b: undefined }), {
    a: [UNKNOWN, 1],
    b: null,
  });
});

Deno.test("a dynamic value goes to the state in Terraform's form and comes back typed", () => {
  const schema = block({ payload: attr("dynamic") });
  const state = toState({ payload: new Typed("number", 5) });
  assert.deepEqual(state, { payload: { value: 5, type: "number" } });
  const back = fromState(state, schema) as { payload: Typed };
  assert.ok(back.payload instanceof Typed);
  assert.ok(sameValue(back, { payload: new Typed("number", 5) }));
  assert.ok(!sameValue(UNKNOWN, UNKNOWN), "an unknown equals nothing");
});
