import { strict as assert } from "node:assert";
import { BUILTIN_REGISTRY } from "../../providers/registry.ts";
const { findType } = BUILTIN_REGISTRY;
import { Deps } from "./deps.ts";
import { evaluatorOf, RANDOM, sourcesOf, TIME } from "./evaluate_testing.ts";
import { defaultPins, optionalReads, pinDefault, unsetDefault } from "./pins.ts";

const ROT = TIME + "rot: $time.#Resource.time_rotating & {rotation_days: 1}\nuse: rot.rfc3339\n";

Deno.test("pinDefault() writes the 'unknown' default of an attribute at the node", () => {
  const t = findType("hashicorp/time", "managed", "time_rotating")!;
  assert.equal(pinDefault(["rot", "rfc3339"], t), '"rot": "rfc3339": "⟦pravo:?⟧"');
});

Deno.test("defaultPins() pins the optional and computed attributes a node leaves unset", async () => {
  const ev = await evaluatorOf(sourcesOf(ROT));
  assert.deepEqual(defaultPins(ev.known, { index: ev.index, deps: () => ev.aliasing() }), [
    '"rot": "rfc3339": "⟦pravo:?⟧"',
    '"rot": "rotation_rfc3339": "⟦pravo:?⟧"',
  ]);
});

Deno.test("unsetDefault() reads a reference to an attribute left to the provider's default", () => {
  const sources = sourcesOf(
    RANDOM + "pet: $random.#Resource.random_pet & {}\ntwo: {n: pet.length}\n",
  );
  const got = unsetDefault(
    "cue: marshal error: pravo_package.two.n: cannot reference optional field: length",
    sources.index,
  );
  assert.equal(got?.pin, '"pet": "length": 2');
  assert.equal(got?.diagnostic.summary, "pet.length is not set");
  assert.deepEqual(got?.diagnostic.range, { file: "main.cue", line: 7, column: 10 });
  assert.equal(
    unsetDefault("cue: marshal error: pravo_package.two.n: conflicting values", sources.index),
    undefined,
  );
});

Deno.test("optionalReads() finds the node whose optional and computed attribute a field read", () => {
  const sources = sourcesOf(ROT);
  const reads = optionalReads(
    "cue: marshal error: pravo_package.use: cannot reference optional field: rfc3339",
    new Deps(sources, []),
  );
  assert.deepEqual(reads.map((r) => [r.node, r.name, r.type.name]), [[
    ["rot"],
    "rfc3339",
    "time_rotating",
  ]]);
});
