import assert from "node:assert/strict";
import { UNKNOWN } from "./program.ts";
import {
  explains,
  hasUnknownDefault,
  isUnknownDefault,
  markUnknown,
  sentinelFor,
  sentinelNumber,
  type SentinelRef,
  sentinelRefs,
  sentinelString,
  substitute,
  unknownDefault,
} from "./unknowns.ts";

const TABLE: SentinelRef[] = [{ address: "a", attr: "result" }, { address: "b", attr: "id" }];

Deno.test("markUnknown() marks what differs between the two evaluations", () => {
  const d = {
    x: 1,
    y: JSON.parse(unknownDefault("int")),
    z: { s: `pre-${JSON.parse(unknownDefault("string"))}` },
  };
  const u = { x: 1, y: sentinelNumber(0), z: { s: `pre-${sentinelString(1)}` } };
  assert.deepEqual(markUnknown(d, u), { x: 1, y: UNKNOWN, z: { s: UNKNOWN } });
  // Without a second evaluation, the defaults show where the unknowns are, leaf by leaf.
  assert.deepEqual(markUnknown(d, undefined), { x: 1, y: UNKNOWN, z: { s: UNKNOWN } });
  assert.deepEqual(markUnknown([1, 2], [1]), UNKNOWN);
});

Deno.test("explains() accepts a template only where every unknown holds a sentinel", () => {
  assert.ok(explains(UNKNOWN, sentinelNumber(0), TABLE));
  assert.ok(explains({ s: UNKNOWN, k: 1 }, { s: `x${sentinelString(1)}y`, k: 1 }, TABLE));
  // Arithmetic on a sentinel makes a number that is not one.
  assert.ok(!explains(UNKNOWN, sentinelNumber(0) + 1, TABLE));
  assert.ok(!explains(UNKNOWN, sentinelNumber(1) + 1, TABLE));
});

Deno.test("substitute() fills sentinels with values, whole or inside strings", () => {
  const values: Record<string, unknown> = { "a.result": 7, "b.id": "abc" };
  const lookup = (r: SentinelRef) => values[`${r.address}.${r.attr}`];
  assert.deepEqual(
    substitute(
      { n: sentinelNumber(0), s: `id=${sentinelString(1)}!`, w: sentinelString(0) },
      TABLE,
      lookup,
    ),
    { value: { n: 7, s: "id=abc!", w: 7 }, complete: true },
  );
  assert.equal(substitute(sentinelString(1), TABLE, () => undefined).complete, false);
  assert.deepEqual(sentinelRefs([sentinelNumber(1), "x"], TABLE), [TABLE[1]]);
});

Deno.test("defaults and sentinels of every type are told apart", () => {
  for (
    const t of ["string", "int", "number", "bool", { list: "string" }, { map: "int" }] as const
  ) {
    const d = JSON.parse(unknownDefault(t));
    assert.ok(isUnknownDefault(d, t));
    assert.notDeepEqual(
      JSON.parse(sentinelFor(t, 3)),
      d,
      `${JSON.stringify(t)}: the sentinel differs from the default`,
    );
  }
  assert.ok(hasUnknownDefault({ a: [JSON.parse(unknownDefault("string"))] }));
  assert.ok(!hasUnknownDefault({ a: [1, "x"] }));
});
