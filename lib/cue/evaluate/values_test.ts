import { strict as assert } from "node:assert";
import { UNKNOWN, type Value } from "../program.ts";
import { cueView, hasUnknown, isObject, nested, packageOf, valueAt } from "./values.ts";

Deno.test("nested() writes a value at a path as CUE, each label quoted", () => {
  assert.equal(nested(["a", "b c"], "1"), '"a": "b c": 1');
  assert.equal(nested(["a"], ""), '"a": ');
});

Deno.test("valueAt() reads a path of a value; hasUnknown() finds UNKNOWN at any depth", () => {
  const v: Value = { a: { b: [1, { c: UNKNOWN }] } };
  assert.deepEqual(valueAt(v, ["a"]), { b: [1, { c: UNKNOWN }] });
  assert.equal(valueAt(v, ["a", "x", "y"]), undefined);
  assert.ok(hasUnknown(v));
  assert.ok(!hasUnknown({ a: [1, "x", null] }));
  assert.ok(isObject({}) && !isObject([]) && !isObject(null));
});

Deno.test("packageOf() reads the wrapped package of an evaluation's JSON", () => {
  assert.deepEqual(packageOf('{"pravo_package": {"x": 1}}'), { x: 1 });
  assert.equal(packageOf("{}"), undefined);
});

Deno.test("cueView() gives a dynamic attribute's own value, and any other as it is", () => {
  const dynamic = { type: { cty: "dynamic" as const } };
  const v = { value: { a: 1 }, type: "object" };
  assert.deepEqual(cueView(v, dynamic as never), { a: 1 });
  assert.deepEqual(cueView(v, { type: "string" } as never), v);
  assert.deepEqual(cueView(v, undefined), v);
});
