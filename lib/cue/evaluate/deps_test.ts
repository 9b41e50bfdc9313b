import { BUILTIN_REGISTRY } from "../../providers/registry.ts";
import { strict as assert } from "node:assert";
import { declaredType, Deps } from "./deps.ts";
import { RANDOM, sourcesOf } from "./evaluate_testing.ts";

const SOURCES = sourcesOf(
  RANDOM + "base: $random.#Resource.random_integer & {min: 1, max: 9}\n" +
    '#M: {#in: n: int, pet: $random.#Resource.random_pet & {prefix: "p\\(#in.n)"}}\n' +
    "m: #M & {#in: n: base.result}\n",
);
const NODES = [
  { address: "base", path: ["base"] },
  { address: "m.pet", path: ["m", "pet"] },
];

Deno.test("Deps.aliases() reads a field of an instance at the definition it embeds too", () => {
  const deps = new Deps(SOURCES, NODES);
  const aliases = deps.aliases(["m", "pet", "prefix"]).map((a) => a.path);
  // And what that field's value refers to in the definition, read for the instance.
  assert.deepEqual(aliases, [["m", "pet", "prefix"], ["#M", "pet", "prefix"], ["#M", "#in", "n"]]);
});

Deno.test("Deps.ofNode() follows a definition's input to the node given at the instance", () => {
  const deps = new Deps(SOURCES, NODES);
  assert.deepEqual([...deps.ofNode(["m", "pet"])], ["base"]);
  assert.deepEqual([...deps.ofNode(["base"])], []);
});

Deno.test("Deps.typeOf() gives the type a node is declared with, through its aliases", () => {
  const deps = new Deps(SOURCES, []);
  assert.equal(deps.typeOf(["m", "pet"])?.name, "random_pet");
  assert.equal(deps.typeOf(["base"])?.name, "random_integer");
  assert.equal(deps.pluginTypeOf(["base"]), undefined);
  assert.equal(deps.typeOf(["nothing"]), undefined);
});

Deno.test("Deps.patternOf() gives a field's path, with null where a comprehension computes a label", () => {
  const sources = sourcesOf(
    RANDOM + 'pets: {for k in ["a"] {(k): $random.#Resource.random_pet & {}}}\n',
  );
  const deps = new Deps(sources, []);
  const sites = sources.files[0].parsed.sites;
  assert.deepEqual(deps.patternOf(sites.find((s) => s.label === "pets")!), ["pets"]);
  assert.deepEqual(deps.patternOf(sites.find((s) => s.kind === "dynamic")!), ["pets", null]);
});

Deno.test("Deps.embeddings() gives what fields embed that declares fields, not provider types nor what an index reads", () => {
  const deps = new Deps(SOURCES, []);
  assert.deepEqual(deps.embeddings(), [
    { at: ["#M", "pet", "prefix"], value: ["#M", "#in", "n"] },
    { at: ["m"], value: ["#M"] },
  ]);
  const indexed = sourcesOf(
    RANDOM + 'b: {for k in ["a"] {(k): $random.#Resource.random_pet}}\nu: {x: b["a"].id, y: b}\n',
  );
  assert.deepEqual(new Deps(indexed, []).embeddings(), [{ at: ["u", "y"], value: ["b"] }]);
});

Deno.test("declaredType() gives the provider type a field's value refers to", () => {
  const sites = SOURCES.files[0].parsed.sites;
  assert.equal(
    declaredType(sites.find((s) => s.label === "base")!, BUILTIN_REGISTRY)?.name,
    "random_integer",
  );
  assert.equal(declaredType(sites.find((s) => s.label === "m")!, BUILTIN_REGISTRY), undefined);
});
