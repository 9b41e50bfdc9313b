/**
 * A root that is a CUE module (lib/cue/modules.ts), through the real pravo
 * and through pravo mcp: its files import a package of the module by path,
 * a package of two files that itself imports a provider; dependencies
 * cross the package; apply, a no-op plan, an edit in the package planned;
 * an unknown package and dependency modules refused with what to do
 * (issue "Composition that holds", item 7, the root's own module).
 */
import { strict as assert } from "node:assert";
import { makeRoot, pravo } from "./_pravo.ts";
import { call, connect, text } from "./mcp/_client.ts";

const FILES: Record<string, string> = {
  "main.cue": `package demo

import (
	rnd "pravo.dev/providers/hashicorp/random"
	"example.com/infra/lib/pets"
)

$random: rnd.#Provider

base: $random.#Resource.random_integer & {min: 1, max: 9}
web: pets.#Pet & {#provider: $random, #var: prefix: "web-\\(base.result)"}
`,
  "lib/pets/pets.cue": `package pets

import rnd "pravo.dev/providers/hashicorp/random"

// Two pets: the second named after the first.
#Pet: {
	#provider: rnd.#Provider
	#var: {prefix: string}
	pet: #provider.#Resource.random_pet & {prefix: #var.prefix}
	tag: #provider.#Resource.random_pet & {prefix: pet.id, length: #Words}
}
`,
  "lib/pets/words.cue": "package pets\n\n#Words: 2\n",
};

async function moduleRoot(): Promise<string> {
  const root = await makeRoot({});
  await Deno.mkdir(`${root}/cue.mod`);
  await Deno.mkdir(`${root}/lib/pets`, { recursive: true });
  await Deno.writeTextFile(`${root}/cue.mod/module.cue`, 'module: "example.com/infra"\n');
  for (const [name, src] of Object.entries(FILES)) await Deno.writeTextFile(`${root}/${name}`, src);
  assert.equal((await pravo(root, ["init"])).code, 0);
  return root;
}

Deno.test("a root that is a CUE module imports its own package: edges across it, apply, no-op, an edit in the package", async () => {
  const root = await moduleRoot();
  try {
    const graph = await pravo(root, ["graph", "--json"]);
    assert.equal(graph.code, 0, graph.stderr);
    const edges = JSON.parse(graph.stdout).edges
      .filter((e: { kind: string }) => e.kind === "dependency")
      .map((e: { from: string; to: string }) => `${e.from} -> ${e.to}`).sort();
    assert.deepEqual(edges, ["web.pet -> base", "web.tag -> web.pet"]);

    const plan = await pravo(root, ["plan", "--out", "a.plan"]);
    assert.equal(plan.code, 2, plan.stderr);
    // The plan file carries the package's files: apply evaluates them again.
    const apply = await pravo(root, ["apply", "a.plan"]);
    assert.equal(apply.code, 0, apply.stdout + apply.stderr);
    assert.equal((await pravo(root, ["plan"])).code, 0);

    await Deno.writeTextFile(`${root}/lib/pets/words.cue`, "package pets\n\n#Words: 3\n");
    const edited = await pravo(root, ["plan"]);
    assert.equal(edited.code, 2, edited.stderr);
    assert.match(edited.stdout, /# web\.tag must be replaced/);
    assert.match(edited.stdout, /length += 2 -> 3 # forces replacement/);
    assert.doesNotMatch(edited.stdout, /# web\.pet /);

    // Through the MCP server, the same root validates.
    const s = await connect(root);
    try {
      const r = await call(s, "pravo_validate", {});
      assert.equal(r.structuredContent?.exit_code, 0, text(r));
      assert.match(text(r), /"resources": 3/);
    } finally {
      await s.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a CUE module root: an import of a package it does not have, and dependency modules, are refused with what to do", async () => {
  const root = await moduleRoot();
  try {
    await Deno.writeTextFile(
      `${root}/main.cue`,
      FILES["main.cue"].replace("lib/pets", "lib/pet"),
    );
    const bad = await pravo(root, ["validate"]);
    assert.equal(bad.code, 3);
    assert.match(bad.stderr, /Error: Unknown package/);
    assert.match(bad.stderr, /on main\.cue line 5, column 2/);
    assert.match(bad.stderr, /lives in the directory lib\/pet of the root/);

    await Deno.writeTextFile(`${root}/main.cue`, FILES["main.cue"]);
    await Deno.writeTextFile(
      `${root}/cue.mod/module.cue`,
      'module: "example.com/infra"\ndeps: "example.com/other@v0": v: "v0.1.0"\n',
    );
    const deps = await pravo(root, ["validate"]);
    assert.equal(deps.code, 3);
    assert.match(deps.stderr, /Dependency modules are not supported yet/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a CUE module root: a package directory that is a link out of the root is not read", async () => {
  const root = await moduleRoot();
  const outside = await Deno.makeTempDir({ prefix: "pravo-outside-" });
  try {
    await Deno.writeTextFile(`${outside}/secret.cue`, "package pets\n\n#Pet: {}\n");
    await Deno.remove(`${root}/lib/pets`, { recursive: true });
    await Deno.symlink(outside, `${root}/lib/pets`);
    const r = await pravo(root, ["validate"]);
    assert.equal(r.code, 3);
    assert.match(
      r.stderr,
      /Cannot read the package lib\/pets: a symbolic link on the way leads outside the root/,
    );
    assert.doesNotMatch(r.stderr, /secret\.cue/, "nothing of the outside directory is named");
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});
