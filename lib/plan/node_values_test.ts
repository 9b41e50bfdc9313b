import assert from "node:assert/strict";
import type { Spec } from "../cue/loader.ts";
import { UNKNOWN, type Value } from "../cue/program.ts";
import { BUILTIN_REGISTRY } from "../providers/registry.ts";
const { findType } = BUILTIN_REGISTRY;
import * as values from "./node_values.ts";

const INTEGER = findType("hashicorp/random", "managed", "random_integer")!;
const PASSWORD = findType("hashicorp/random", "managed", "random_password")!;

Deno.test("hasUnknown() finds a value known only after apply at any depth", () => {
  assert.equal(values.hasUnknown(UNKNOWN), true);
  assert.equal(values.hasUnknown({ a: [1, { b: UNKNOWN }] }), true);
  assert.equal(values.hasUnknown({ a: [1, { b: null }] }), false);
  assert.equal(values.hasUnknown(undefined), false);
});

Deno.test("withoutUnknown() keeps the entries known now", () => {
  assert.deepEqual(values.withoutUnknown({ a: 1, b: UNKNOWN, c: [UNKNOWN], d: null }), {
    a: 1,
    d: null,
  });
});

Deno.test("inputsOf() gives the inputs the configuration sets, not the computed values", () => {
  const config: Record<string, Value> = { min: 1, max: UNKNOWN, result: 7 };
  assert.deepEqual(values.inputsOf({ schema: INTEGER, config }), { min: 1, max: UNKNOWN });
});

Deno.test("providerConfigOf() gives the known values of the node's provider instance", () => {
  const spec: Pick<Spec, "providers"> = {
    providers: [
      { address: "$a", source: "x/a", config: { region: "eu", token: UNKNOWN }, sensitive: [] },
      { address: "$b", source: "x/b", config: { region: "us" }, sensitive: [] },
    ],
  };
  assert.deepEqual(values.providerConfigOf(spec, { providerInstance: "$a" }), { region: "eu" });
  assert.deepEqual(values.providerConfigOf(spec, {}), {});
});

Deno.test("sensitiveOf() lists the attributes the schema marks sensitive, sorted", () => {
  assert.deepEqual(values.sensitiveOf(INTEGER), []);
  assert.ok(values.sensitiveOf(PASSWORD).includes("result"));
  assert.deepEqual(values.sensitiveOf(PASSWORD), [...values.sensitiveOf(PASSWORD)].sort());
});

Deno.test("dataSensitive() makes every attribute sensitive when an input is computed from a secret", () => {
  assert.deepEqual(
    values.dataSensitive({ schema: INTEGER, sensitiveInputs: [] }, { extra: 1 }),
    [],
  );
  assert.deepEqual(
    values.dataSensitive({ schema: INTEGER, sensitiveInputs: ["seed"] }, { extra: 1 }),
    [...Object.keys(INTEGER.attributes), "extra"].sort(),
  );
});

Deno.test("changedKeys() lists the attributes that differ, absent counting as null", () => {
  assert.deepEqual(values.changedKeys({ a: 1, b: null, c: [1] }, { a: 2, c: [1], d: 3 }), [
    "a",
    "d",
  ]);
});
