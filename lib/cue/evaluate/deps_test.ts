import { strict as assert } from "node:assert";
import { Deps } from "./deps.ts";
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
