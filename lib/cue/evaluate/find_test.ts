import { BUILTIN_REGISTRY } from "../../providers/registry.ts";
import { strict as assert } from "node:assert";
import { NODE_MARKER, PROVIDER_MARKER } from "../provider_cue.ts";
import { RANDOM, sourcesOf } from "./evaluate_testing.ts";
import { findNodes, kindOf, structsOf } from "./find.ts";

const NODE = {
  [NODE_MARKER]: { mode: "managed", type: "random_pet", provider: "hashicorp/random" },
};

Deno.test("structsOf() finds nodes and provider instances at any depth, and nodes in lists apart", () => {
  const f = structsOf({
    $random: { [PROVIDER_MARKER]: "hashicorp/random" },
    net: { pet: { ...NODE, length: 2 }, n: 1 },
    list: [NODE],
  });
  assert.deepEqual(f.nodes.map((n) => n.path), [["net", "pet"]]);
  assert.deepEqual(f.providers.map((p) => p.path), [["$random"]]);
  assert.deepEqual(f.inLists, [["list", "0"]]);
});

Deno.test("findNodes() refuses a node inside a list, at its declaration", () => {
  const sources = sourcesOf(RANDOM + "pets: [$random.#Resource.random_pet]\n");
  const { found, diagnostics } = findNodes({ pets: [NODE] }, sources.index);
  assert.deepEqual(found.nodes, []);
  assert.deepEqual(diagnostics.map((d) => [d.summary, d.range?.line]), [["Node inside a list", 6]]);
});

Deno.test("kindOf() gives a node's marker, provider and type", () => {
  const k = kindOf(NODE, BUILTIN_REGISTRY);
  assert.equal(k.provider.source, "hashicorp/random");
  assert.equal(k.type.name, "random_pet");
  assert.equal(k.m.mode, "managed");
});
