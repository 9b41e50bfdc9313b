import assert from "node:assert/strict";
import { BUILTIN_REGISTRY } from "../providers/registry.ts";
import { evaluateRoot } from "../cue/loader.ts";
import { declaredOnly, evaluateWithState, knownValuesOf } from "./known.ts";
import { record, sourcesOf } from "./steps/_testing.ts";

/** A count that shrank from 2 to 1, read through a splat: the state still has n."1". */
const SHRUNK = sourcesOf(
  `n: {for i in [0] {"\\(i)": $random.#Resource.random_integer & {min: 1, max: 9}}}
outputs: maxes: [for x in n {x.max}]`,
);
const RECORDS = [record('n."0"'), record('n."1"')];
const KNOWN = new Map(RECORDS.map((r) => [r.address, knownValuesOf(r, BUILTIN_REGISTRY)]));

Deno.test("declaredOnly() keeps the known values of the nodes the root still declares", async () => {
  const whole = await evaluateRoot(SHRUNK, { tags: {}, known: KNOWN, trace: false });
  assert.ok(!whole.ok, 'n."1" without its configuration has no max');
  const declared = await declaredOnly(SHRUNK, {}, KNOWN);
  assert.ok(declared.ok);
  assert.deepEqual([...declared.value.keys()], ['n."0"']);
});

Deno.test("evaluateWithState() evaluates a root whose count shrank, without the instance gone", async () => {
  const res = await evaluateWithState(SHRUNK, RECORDS, {});
  assert.ok(res.ok, JSON.stringify(res.diagnostics));
  assert.deepEqual(res.value.nodes.map((n) => n.address), ['n."0"']);
});
