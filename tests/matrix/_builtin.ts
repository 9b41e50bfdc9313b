/**
 * The feature matrix's root on the built-in providers, for the worlds of
 * builtin_test.ts and bundle_test.ts.
 *
 * @module
 */

import { join } from "node:path";
import type { WorldSpec } from "./_world.ts";

/** `a` is a file; `b` a number seeded with its id; the output `first` is its id. */
export const BUILTIN_MAIN = `package matrix

import (
	lc "pravo.dev/providers/hashicorp/local"
	rd "pravo.dev/providers/hashicorp/random"
)

protect: *false | bool @tag(protect,type=bool)

$random: rd.#Provider
$local:  lc.#Provider

a: $local.#Resource.local_file & {
	filename: "a.txt"
	content:  "hello\\n"
	lifecycle: prevent_destroy: protect
}
b: $random.#Resource.random_integer & {min: 1, max: 1000, seed: a.id}

outputs: first: a.id
`;

export const BUILTIN: Omit<WorldSpec, "worldId"> = {
  files: { "main.cue": BUILTIN_MAIN },
  typeA: "local_file",
  providerA: "hashicorp/local",
  attrA: "id",
  importId: (attrs) => `${attrs.result},${attrs.min},${attrs.max},${attrs.seed}`,
  async driftA(root) {
    await Deno.writeTextFile(join(root, "a.txt"), "changed behind pravo's back\n");
  },
};
