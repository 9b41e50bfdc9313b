/**
 * A root that is a CUE module (lib/cue/modules.ts), through the real pravo
 * and through pravo mcp: its files import a package of the module by path,
 * a package of two files that itself imports a provider; dependencies
 * cross the package; apply, a no-op plan, an edit in the package planned;
 * an unknown package refused with what to do; a dependency module vendored
 * in cue.mod/pkg; a mistake in a package's file placed in that file
 * (issue "Composition that holds", item 7).
 */
import { strict as assert } from "node:assert";
import { byAddress, inFolder, makeRoot, PETS_PACKAGE, pravo, removing } from "./_pravo.ts";
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
  ...inFolder("lib/pets", PETS_PACKAGE),
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

/** The dependency edges of `pravo graph --json` in `root`, as "from -> to", sorted. */
async function dependencies(root: string): Promise<string[]> {
  const graph = await pravo(root, ["graph", "--json"]);
  assert.equal(graph.code, 0, graph.stderr);
  return JSON.parse(graph.stdout).edges
    .filter((e: { kind: string }) => e.kind === "dependency")
    .map((e: { from: string; to: string }) => `${e.from} -> ${e.to}`).sort();
}

/** Writes `mainCue` as the root's main.cue; what validate says of it, refused (exit 3). */
async function refused(root: string, mainCue: string): Promise<string> {
  await Deno.writeTextFile(`${root}/main.cue`, mainCue);
  const r = await pravo(root, ["validate"]);
  assert.equal(r.code, 3);
  return r.stderr;
}

Deno.test("a root that is a CUE module imports its own package: edges across it, apply, no-op, an edit in the package", async () => {
  const root = await moduleRoot();
  await using _root = removing(root);
  assert.deepEqual(await dependencies(root), ["web.pet -> base", "web.tag -> web.pet"]);

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
  await using s = await connect(root);
  const r = await call(s, "pravo_validate", {});
  assert.equal(r.structuredContent?.exit_code, 0, text(r));
  assert.match(text(r), /"resources": 3/);
});

Deno.test("a CUE module root: an import of a package it does not have, and dependency modules, are refused with what to do", async () => {
  const root = await moduleRoot();
  await using _root = removing(root);
  const bad = await refused(root, FILES["main.cue"].replace("lib/pets", "lib/pet"));
  assert.match(bad, /Error: Unknown package/);
  assert.match(bad, /on main\.cue line 5, column 2/);
  assert.match(bad, /lives in the directory lib\/pet of the root/);

  // A package of a dependency module that is not vendored in cue.mod/pkg.
  await Deno.writeTextFile(
    `${root}/cue.mod/module.cue`,
    'module: "example.com/infra@v0"\ndeps: "example.com/other@v0": v: "v0.1.0"\n',
  );
  const deps = await refused(
    root,
    FILES["main.cue"].replace("example.com/infra/lib/pets", "example.com/other/pets"),
  );
  assert.match(deps, /Error: Unknown package/);
  assert.match(
    deps,
    /a package of the module example\.com\/other, which cue\.mod\/module\.cue's deps list but pravo\.lock\.json does not pin[\s\S]*Run `pravo init` to fetch it/,
  );
  // Not listed in deps either: the message says how to add it.
  await Deno.writeTextFile(`${root}/cue.mod/module.cue`, 'module: "example.com/infra@v0"\n');
  const unlisted = await pravo(root, ["validate"]);
  assert.equal(unlisted.code, 3);
  assert.match(
    unlisted.stderr,
    /lives in the directory cue\.mod\/pkg\/example\.com\/other\/pets[\s\S]*List its module in cue\.mod\/module\.cue's deps and run `pravo init`/,
  );
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

Deno.test("a CUE module root uses a dependency module vendored in cue.mod/pkg: edges across it, a saved plan applied, a mistake placed in its file", async () => {
  const root = await makeRoot({});
  await using _root = removing(root);
  const pkg = `${root}/cue.mod/pkg/example.com/pets/pets`;
  await Deno.mkdir(pkg, { recursive: true });
  await Deno.writeTextFile(
    `${root}/cue.mod/module.cue`,
    'module: "example.com/infra@v0"\nlanguage: version: "v0.9.0"\ndeps: {\n\t"example.com/pets@v0": {v: "v0.1.0"}\n}\n',
  );
  await Deno.writeTextFile(`${pkg}/pets.cue`, FILES["lib/pets/pets.cue"]);
  await Deno.writeTextFile(`${pkg}/words.cue`, FILES["lib/pets/words.cue"]);
  await Deno.writeTextFile(
    `${root}/main.cue`,
    FILES["main.cue"].replace("example.com/infra/lib/pets", "example.com/pets/pets"),
  );
  assert.equal((await pravo(root, ["init"])).code, 0);
  assert.deepEqual(await dependencies(root), ["web.pet -> base", "web.tag -> web.pet"]);
  const plan = await pravo(root, ["plan", "--out", "a.plan", "--json"]);
  assert.equal(plan.code, 2, plan.stderr);
  // Each node says where its configuration is written, for policies.
  const origins = byAddress(JSON.parse(plan.stdout).nodes, "origin");
  assert.deepEqual(origins, {
    base: { package: "example.com/infra", module: "example.com/infra" },
    "web.pet": {
      package: "example.com/pets/pets",
      module: "example.com/pets",
      version: "v0.1.0",
    },
    "web.tag": {
      package: "example.com/pets/pets",
      module: "example.com/pets",
      version: "v0.1.0",
    },
  });
  // A policy that allows modules of the root's own origin alone refuses it.
  const policyDir = await Deno.makeTempDir({ prefix: "pravo-policy-" });
  const policy = `${policyDir}/own-only.cue`;
  await Deno.writeTextFile(policy, 'nodes: [...{origin: module: =~"^example.com/infra"}]\n');
  const refused = await pravo(root, ["plan", "--policy", policy]);
  await Deno.remove(policyDir, { recursive: true });
  assert.equal(refused.code, 5, refused.stdout + refused.stderr);
  assert.match(refused.stderr, /web\.pet/);
  const apply = await pravo(root, ["apply", "a.plan"]);
  assert.equal(apply.code, 0, apply.stdout + apply.stderr);
  assert.equal((await pravo(root, ["plan"])).code, 0);

  // A mistake in the vendored package: said at its line and column, in
  // its file, by the package's name (not pravo's name for it).
  await Deno.writeTextFile(`${pkg}/words.cue`, 'package pets\n\n#Words: "two"\n');
  const bad = await pravo(root, ["validate"]);
  assert.equal(bad.code, 3);
  assert.match(
    bad.stderr,
    /on cue\.mod\/pkg\/example\.com\/pets\/pets\/pets\.cue line 10, column 57, in pets\.#Pet\.tag\.length/,
  );
  assert.doesNotMatch(bad.stderr, /_mod_|\\u0001/);
});
