import { strict as assert } from "node:assert";
import { Deps } from "./deps.ts";
import { RANDOM, sourcesOf, TIME } from "./evaluate_testing.ts";
import { nodePatterns } from "./node_patterns.ts";

/** The patterns of a root's sources, with the provider heads given. */
function patternsOf(src: string) {
  const sources = sourcesOf(src);
  return nodePatterns(sources, new Deps(sources, []));
}

/** Nodes declared, made by comprehensions, and by a pattern constraint. */
const MADE = TIME + "rot: $time.#Resource.time_rotating & {rotation_days: 1}\n" +
  'b: {for i in ["x"] {"\\(i)": $time.#Resource.time_static & {}}}\n' +
  "p: [string]: $time.#Resource.time_static\np: a: {}\n";

/** A definition's node, instantiated by a comprehension, at a field, and inside another definition. */
const INSTANCES = TIME + "#M: {t: $time.#Resource.time_static & {}}\n#Outer: {inner: #M}\n" +
  'mods: {for k in ["x"] {(k): #M & {}}}\none: #M\ndeep: #Outer & {}\n';

/** A node's attribute that reads b through a computed key is no instance of b. */
const READS = TIME + 'b: {for k in ["x"] {(k): $time.#Resource.time_static & {}}}\n' +
  'u: {for k in ["x"] {(k): $time.#Resource.time_static & {triggers: b[k]}}}\n';

Deno.test("nodePatterns() gives the paths of the nodes declared and of those comprehensions make", () => {
  assert.deepEqual(patternsOf(MADE), [["b", null], ["p", null], ["rot"]]);
});

Deno.test("nodePatterns() follows definitions to their instances, made by comprehensions or not", () => {
  const got = patternsOf(INSTANCES);
  assert.deepEqual(got, [["deep", "inner", "t"], ["mods", null, "t"], ["one", "t"]]);
});

Deno.test("nodePatterns() leaves out nodes whose setness is not asked, and reads in attributes", () => {
  assert.deepEqual(patternsOf(READS), [["b", null], ["u", null]]);
  assert.deepEqual(patternsOf(RANDOM + "pet: $random.#Resource.random_pet & {}\n"), []);
});
