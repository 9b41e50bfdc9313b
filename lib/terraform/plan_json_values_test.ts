import assert from "node:assert/strict";
import {
  parsePath,
  secretPaths,
  sensitiveAsBool,
  unknownAsBool,
  without,
  withUnset,
} from "./plan_json_values.ts";
import { blockType, schemaSensitivePaths } from "./plan_json_types.ts";
import { THING } from "./plan_json_testing.ts";

Deno.test("parsePath() reads the paths pravo's plan writes", () => {
  assert.deepEqual(parsePath("arn"), ["arn"]);
  assert.deepEqual(parsePath("versioning[0].mfa_delete"), ["versioning", 0, "mfa_delete"]);
  assert.deepEqual(parsePath('tags["a.b"]'), ["tags", "a.b"]);
});

Deno.test("unknownAsBool() is {} when all is known, else the value's shape with true where unknown", () => {
  assert.deepEqual(unknownAsBool({ a: 1, tags: { x: "y" } }, []), {});
  assert.deepEqual(
    unknownAsBool({ a: 1, tags: { x: "y" }, l: ["p", "q"], b: [{ c: null }] }, [["arn"], [
      "b",
      0,
      "c",
    ]]),
    { arn: true, tags: {}, l: [false, false], b: [{ c: true }] },
  );
});

Deno.test("sensitiveAsBool() marks sensitive places, nulls too, and gives unknown ones their type's shape", () => {
  const type = blockType(THING);
  assert.deepEqual(
    sensitiveAsBool({ name: "n", value: null, tags: { a: "b" }, rule: [{ port: 1 }] }, {
      sensitive: [["value"], ["rule", 0, "secret"]],
      unknown: [["list"], ["arn"]],
      type,
    }),
    { value: true, tags: {}, rule: [{ secret: true }], list: [] },
  );
});

Deno.test("without() leaves out attributes and nulls elements, and keeps a null: it reveals nothing", () => {
  assert.deepEqual(
    without({ a: "s", b: null, l: ["x", "y"] }, [["a"], ["b"], ["l", 1]]),
    { b: null, l: ["x", null] },
  );
  assert.deepEqual(without({ a: null }, [["a"]], true), {}, "places known only after apply go");
  assert.equal(without({ a: 1 }, [[]]), undefined);
});

Deno.test("schemaSensitivePaths() finds sensitive attributes inside every block element", () => {
  assert.deepEqual(
    schemaSensitivePaths(blockType(THING), { rule: [{ port: 1 }, { port: 2 }] }),
    [["value"], ["rule", 0, "secret"], ["rule", 1, "secret"]],
  );
});

Deno.test("secretPaths() finds every string that holds a secret", () => {
  assert.deepEqual(
    secretPaths({ a: "x-pw1-y", b: ["pw1"], c: "other" }, new Set(["pw1"])),
    [["a"], ["b", 0]],
  );
});

Deno.test("withUnset() writes the type's attributes that a value lacks as null, but not unknown ones", () => {
  assert.deepEqual(withUnset({ name: "n" }, blockType(THING), ["arn"]), {
    name: "n",
    value: null,
    tags: null,
    list: null,
    rule: null,
  });
});
