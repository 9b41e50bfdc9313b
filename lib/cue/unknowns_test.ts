import assert from "node:assert/strict";
import { UNKNOWN } from "./program.ts";
import {
  explains,
  hasSentinel,
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

Deno.test("a number sentinel interpolated into a string is a template, filled with the whole number", () => {
  const plainOf = (s: string) => s.replaceAll(String(sentinelNumber(0)), "7000000000000000");
  const t = `seed-${sentinelNumber(0)}`;
  assert.ok(hasSentinel(t, TABLE));
  assert.ok(explains(UNKNOWN, t, TABLE, plainOf(t)));
  assert.ok(explains({ s: UNKNOWN }, { s: t }, TABLE, { s: plainOf(t) }));
  assert.deepEqual(substitute(t, TABLE, () => 42), { value: "seed-42", complete: true });
  assert.deepEqual(substitute(String(sentinelNumber(0)), TABLE, () => 7), {
    value: "7",
    complete: true,
  });
  // With both kinds in one string, each is filled once.
  const both = `${sentinelString(1)}/${sentinelNumber(0)}`;
  const values: Record<string, unknown> = { a: 5, b: String(sentinelNumber(0)) };
  assert.deepEqual(substitute(both, TABLE, (r) => values[r.address]), {
    value: `${sentinelNumber(0)}/5`,
    complete: true,
  });
  // Not a whole number: apply evaluates again.
  assert.equal(substitute(t, TABLE, () => 1.5).complete, false);
  assert.deepEqual(sentinelRefs(t, TABLE), [TABLE[0]]);
});

Deno.test("a string whose digits are not the number itself is not a template", () => {
  // Arithmetic that lands on another sentinel: the defaults do not give the plain string back.
  const shifted = String(sentinelNumber(1)); // x + 1,000,003 where x is sentinel 0
  assert.ok(!explains(UNKNOWN, shifted, TABLE, String(7_000_000_000_000_000 + 1_000_003)));
  // Without the plain value, a decimal sentinel is never trusted.
  assert.ok(!explains(UNKNOWN, `s${sentinelNumber(0)}`, TABLE));
  // Digits that are part of a longer number or a fraction are not sentinels.
  assert.ok(!hasSentinel(`1${sentinelNumber(0)}`, TABLE));
  assert.ok(!hasSentinel(`${sentinelNumber(0)}.5`, TABLE));
  assert.ok(!hasSentinel(`0.${sentinelNumber(0)}`, TABLE));
});

Deno.test("a constant added to an unknown number is a template; other arithmetic is not", () => {
  const D = 7_000_000_000_000_000;
  // x + 5 and x - 3: the plain evaluation is the same constant off the default.
  assert.ok(explains(UNKNOWN, sentinelNumber(0) + 5, TABLE, D + 5));
  assert.ok(explains(UNKNOWN, sentinelNumber(1) - 3, TABLE, D - 3));
  assert.ok(explains(UNKNOWN, `n-${sentinelNumber(0) + 1}`, TABLE, `n-${D + 1}`));
  assert.deepEqual(substitute(sentinelNumber(0) + 5, TABLE, () => 10), {
    value: 15,
    complete: true,
  });
  assert.deepEqual(substitute(`n-${sentinelNumber(1) - 3}`, TABLE, () => 10), {
    value: "n-7",
    complete: true,
  });
  // Not a whole number to add to: evaluated again.
  assert.equal(substitute(sentinelNumber(0) + 5, TABLE, () => "x").complete, false);
  // x * 2, and a sum that lands on another sentinel: the plain value tells.
  assert.ok(!explains(UNKNOWN, sentinelNumber(0) * 2, TABLE, D * 2));
  assert.ok(!explains(UNKNOWN, sentinelNumber(1), TABLE, D + 1_000_003));
  assert.ok(!explains(UNKNOWN, sentinelNumber(0) + 5, TABLE, D + 6));
});
