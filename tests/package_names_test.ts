/**
 * A package of the root's CUE module that refers to a name only the root
 * declares: the message says that a package cannot see the root's fields,
 * and does not suggest the very name that failed (lib/cue/errors.ts).
 */
import { strict as assert } from "node:assert";
import { makeRoot, pravo } from "./_pravo.ts";

Deno.test("a package referring to a field of the root is told to take it as an input, not 'did you mean' the same name", async () => {
  const root = await makeRoot({
    "main.cue": `package demo

import (
	rnd "pravo.dev/providers/hashicorp/random"
	"example.com/infra/lib/pets"
)

$random: rnd.#Provider

base: $random.#Resource.random_pet & {}
web:  pets.#Pet & {#provider: $random}
`,
  });
  await Deno.mkdir(`${root}/cue.mod`);
  await Deno.mkdir(`${root}/lib/pets`, { recursive: true });
  await Deno.writeTextFile(`${root}/cue.mod/module.cue`, 'module: "example.com/infra"\n');
  await Deno.writeTextFile(
    `${root}/lib/pets/pets.cue`,
    `package pets

import rnd "pravo.dev/providers/hashicorp/random"

#Pet: {
	#provider: rnd.#Provider
	pet: #provider.#Resource.random_pet & {prefix: base.id}
}
`,
  );
  assert.equal((await pravo(root, ["init"])).code, 0);
  const r = await pravo(root, ["validate"]);
  assert.equal(r.code, 3, r.stdout + r.stderr);
  const out = r.stdout + r.stderr;
  assert.match(out, /Reference to an undeclared name/);
  assert.match(out, /on lib\/pets\/pets\.cue line 7/);
  assert.doesNotMatch(out, /did you mean "base"/);
  assert.match(out, /another package of the root declares it/);
  assert.match(out, /as an input \(a field such as #var\)/);
});
