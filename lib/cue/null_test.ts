/**
 * `null` means unset, as in Terraform (issue "Composition that holds",
 * item 6): an optional attribute set to null takes its default, or no value.
 */
import { BUILTIN_ONLY } from "../workspace/workspace_testing.ts";
import { strict as assert } from "node:assert";
import type { Value } from "./program.ts";
import { loadRoot } from "./loader.ts";
import { withRoot } from "./root_testing.ts";

/** The configuration of each node of a root whose main.cue is `src`, which must load. */
async function configs(src: string): Promise<(address: string) => Record<string, Value>> {
  const res = await withRoot({ "main.cue": src }, (root) => loadRoot(root, BUILTIN_ONLY));
  assert.ok(res.ok, JSON.stringify(!res.ok && res.diagnostics));
  return (a) => res.value.nodes.find((n) => n.address === a)!.config;
}

Deno.test("null on an optional attribute is unset: its default, or no value; a module's null input too", async () => {
  const config = await configs(`package demo

import rnd "pravo.dev/providers/hashicorp/random"

$random: rnd.#Provider

base: $random.#Resource.random_integer & {min: 1, max: 9, seed: null}
pet: $random.#Resource.random_pet & {length: null, prefix: null}
#M: {
	#var: {prefix: *null | string}
	pet: $random.#Resource.random_pet & {prefix: #var.prefix}
}
m: #M
n: #M & {#var: prefix: "x"}
`);
  assert.ok(!("seed" in config("base")));
  assert.equal(config("pet").length, 2, "the default");
  assert.ok(!("prefix" in config("pet")));
  assert.ok(!("prefix" in config("m.pet")), "a module's input left null");
  assert.equal(config("n.pet").prefix, "x");
});

Deno.test("a module's own default on an attribute that has a provider default, and a reference to an unset default", async () => {
  const config = await configs(`package demo

import rnd "pravo.dev/providers/hashicorp/random"

$random: rnd.#Provider

#M: {
	#var: {words: *null | int, sep: *"_" | string}
	pet: $random.#Resource.random_pet & {length: #var.words, separator: #var.sep}
}
m: #M
n: #M & {#var: {words: 3, sep: "."}}
pet: $random.#Resource.random_pet & {prefix: "a"}
two: $random.#Resource.random_pet & {length: pet.length, separator: n.pet.separator}
`);
  assert.deepEqual([config("m.pet").length, config("m.pet").separator], [2, "_"]);
  assert.deepEqual([config("n.pet").length, config("n.pet").separator], [3, "."]);
  assert.deepEqual([config("two").length, config("two").separator], [2, "."]);
});
