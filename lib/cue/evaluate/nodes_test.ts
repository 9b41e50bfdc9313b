import { strict as assert } from "node:assert";
import { UNKNOWN } from "../program.ts";
import { evaluatorOf, firstTree, sourcesOf } from "./evaluate_testing.ts";
import { buildNodes, instanceOf } from "./nodes.ts";
import { traceUnknowns } from "./trace.ts";

const SOURCES = sourcesOf(`package demo

import rnd "pravo.dev/providers/hashicorp/random"

$random: rnd.#Provider
$other: rnd.#Provider
base: $random.#Resource.random_integer & {min: 1, max: 9}
pet: $other.#Resource.random_pet & {prefix: "p\\(base.result)", keepers: null}
`);

async function built(opts = {}) {
  const ev = await evaluatorOf(SOURCES, opts);
  const { tree, found } = await firstTree(ev);
  const traced = await traceUnknowns(ev, { found, tree });
  return buildNodes(SOURCES, { found, known: ev.known, traced });
}

Deno.test("buildNodes() makes each node's configuration, unknown where it waits for apply", async () => {
  const { nodes, diagnostics } = await built();
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(nodes.map((n) => [n.address, n.type, n.providerInstance]), [
    ["base", "random_integer", "$random"],
    ["pet", "random_pet", "$other"],
  ]);
  const pet = nodes[1];
  // null is unset: the attribute's default.
  assert.deepEqual(pet.config, { prefix: UNKNOWN, id: UNKNOWN, length: 2, separator: "-" });
  assert.deepEqual(Object.keys(pet.templates), ["prefix"]);
  assert.deepEqual(pet.needsEvaluation, []);
  assert.deepEqual(pet.attributeRanges.prefix, { file: "main.cue", line: 8, column: 37 });
  assert.equal(pet.origin, undefined);
  assert.deepEqual(pet.dependencies, []);
});

Deno.test("buildNodes() without tracing keeps the stand-in values", async () => {
  const { nodes } = await built({ trace: false });
  assert.equal(nodes[1].config.prefix, "p7000000000000000");
  assert.deepEqual(nodes[1].templates, {});
});

Deno.test("instanceOf() gives the provider instance a node's type comes from", () => {
  assert.deepEqual(instanceOf(SOURCES, ["pet"]), ["$other"]);
  assert.equal(instanceOf(SOURCES, ["nothing"]), undefined);
});

Deno.test("instanceOf() gives the instance of a node a comprehension makes, by key or by index", () => {
  const sources = sourcesOf(`package demo

import (
	"list"
	rnd "pravo.dev/providers/hashicorp/random"
)

$random: rnd.#Provider
$other: rnd.#Provider
pets: {for k in ["a", "b"] {(k): $other.#Resource.random_pet & {prefix: k}}}
ints: {for i in list.Range(0, 2, 1) {"\\(i)": $other.#Resource.random_integer & {min: i, max: 9}}}
first: {for k in ["a"] {(k): $random.#Resource.random_pet & {}}}
`);
  assert.deepEqual(instanceOf(sources, ["pets", "b"]), ["$other"]);
  assert.deepEqual(instanceOf(sources, ["ints", "1"]), ["$other"]);
  assert.deepEqual(instanceOf(sources, ["first", "a"]), ["$random"]);
  assert.equal(instanceOf(sources, ["pets"]), undefined);
});
