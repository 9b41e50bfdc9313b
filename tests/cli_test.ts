/**
 * The command-line surface a Terraform user reaches for on day one, through
 * the real pravo: graph, version, help, completion, and Terraform's
 * single-dash flags.
 */

import { strict as assert } from "node:assert";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { byAddress, makeRoot, pravo, SEED } from "./_pravo.ts";
import { VERSION } from "../lib/version.ts";

const CHAIN = `package demo

import rnd "pravo.dev/providers/hashicorp/random"

$random: rnd.#Provider

base: $random.#Resource.random_integer & {min: 1, max: 9, seed: "base"}
size: $random.#Resource.random_integer & {min: base.result + 10, max: 20, seed: "size"}
`;

async function hasDot(): Promise<boolean> {
  try {
    return (await new Deno.Command("dot", { args: ["-V"], stderr: "null" }).output()).success;
  } catch {
    return false;
  }
}

Deno.test("pravo graph prints the nodes, their provider instances and dependencies in DOT", async () => {
  const root = await makeRoot({ "main.cue": CHAIN });
  const r = await pravo(root, ["graph"]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    r.stdout,
    `digraph pravo {
  compound = "true"
  newrank = "true"
  rankdir = "RL"
  node [shape = "box", fontname = "sans-serif"]
  "$random" [label = "provider hashicorp/random\\n$random", shape = "diamond"]
  "base" [label = "base\\nrandom_integer"]
  "size" [label = "size\\nrandom_integer"]
  "base" -> "$random" [style = "dashed"]
  "size" -> "$random" [style = "dashed"]
  "size" -> "base"
}
`,
  );
  if (await hasDot()) {
    const dot = new Deno.Command("dot", { args: ["-Tsvg"], stdin: "piped", stdout: "piped" })
      .spawn();
    const w = dot.stdin.getWriter();
    await w.write(new TextEncoder().encode(r.stdout));
    await w.close();
    const out = await dot.output();
    assert.ok(out.success, "Graphviz reads the graph");
    assert.match(new TextDecoder().decode(out.stdout), /<svg/);
  }
});

Deno.test("pravo graph --json prints nodes with mode and type, providers and edges", async () => {
  const root = await makeRoot({ "main.cue": CHAIN });
  const r = await pravo(root, ["graph", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  assert.equal(doc.format_version, "1.0");
  assert.deepEqual(doc.nodes.map((n: { address: string }) => n.address), ["base", "size"]);
  assert.deepEqual(doc.nodes[1], {
    address: "size",
    mode: "managed",
    name: "size",
    provider: "hashicorp/random",
    provider_instance: "$random",
    type: "random_integer",
  });
  assert.deepEqual(doc.providers, [{ address: "$random", source: "hashicorp/random" }]);
  assert.deepEqual(doc.edges, [
    { from: "base", kind: "provider", to: "$random" },
    { from: "size", kind: "provider", to: "$random" },
    { from: "size", kind: "dependency", to: "base" },
  ]);
});

Deno.test("pravo graph --plan colours the nodes by their planned action, deletes included", async () => {
  const root = await makeRoot({ "main.cue": CHAIN });
  assert.equal((await pravo(root, ["init"])).code, 0);
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
  // Drop `size`, change `base`: the plan replaces base and deletes size.
  await Deno.writeTextFile(join(root, "main.cue"), SEED.replace('seed: "base"', 'seed: "b2"'));
  assert.equal((await pravo(root, ["plan", "--out", "x.plan"])).code, 2);
  const r = await pravo(root, ["graph", "--plan", "x.plan", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(byAddress(JSON.parse(r.stdout).nodes, "action"), {
    base: "replace",
    size: "delete",
  });
  const dot = await pravo(root, ["graph", "--plan", "x.plan"]);
  assert.match(
    dot.stdout,
    /"size" \[label = "size\\nrandom_integer", tooltip = "delete", color = "red"/,
  );
});

Deno.test("pravo graph of an invalid root is the validate diagnostics, exit 3", async () => {
  const root = await makeRoot({ "main.cue": "package demo\n\na: {\n" });
  const r = await pravo(root, ["graph"]);
  assert.equal(r.code, 3);
  assert.match(r.stderr, /Syntax error/);
});

Deno.test("pravo version prints the version, the platform and the providers' versions", async () => {
  const root = await makeRoot({});
  const r = await pravo(root, ["version"]);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split("\n");
  assert.equal(lines[0], `pravo ${VERSION}`);
  assert.match(lines[1], /^on (linux|darwin|windows)_\w+ \(Deno \d+\.\d+\.\d+\)$/);
  assert.ok(lines.includes("+ provider hashicorp/random 0.1.0 (built in)"));
  const j = JSON.parse((await pravo(root, ["version", "--json"])).stdout);
  assert.equal(j.version, VERSION);
  assert.equal(j.format_version, "1.0");
  assert.ok(j.providers.some((p: { source: string }) => p.source === "hashicorp/time"));
  // --version is the first line of it.
  assert.equal((await pravo(root, ["--version"])).stdout, `pravo ${VERSION}\n`);
});

Deno.test("pravo help COMMAND is COMMAND --help; pravo help is --help; an unknown one is exit 64", async () => {
  const root = await makeRoot({});
  assert.equal((await pravo(root, ["help"])).stdout, (await pravo(root, ["--help"])).stdout);
  const plan = await pravo(root, ["help", "plan"]);
  assert.equal(plan.code, 0);
  assert.equal(plan.stdout, (await pravo(root, ["plan", "--help"])).stdout);
  assert.equal(
    (await pravo(root, ["help", "state", "show"])).stdout,
    (await pravo(root, ["state", "show", "--help"])).stdout,
  );
  const state = await pravo(root, ["help", "state"]);
  assert.equal(state.code, 0);
  assert.match(state.stdout, /state show +Show one record of the state/);
  const bad = await pravo(root, ["help", "pln"]);
  assert.equal(bad.code, 64);
  assert.match(bad.stderr, /unknown command "pln" \(did you mean "plan"\?\)/);
});

Deno.test("pravo completion prints a script for each shell and refuses another", async () => {
  const root = await makeRoot({});
  for (const shell of ["bash", "zsh", "fish"]) {
    const r = await pravo(root, ["completion", shell]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`${shell} completion for pravo`));
  }
  const bad = await pravo(root, ["completion", "tcsh"]);
  assert.equal(bad.code, 64);
  assert.match(bad.stderr, /bash, zsh or fish/);
});

Deno.test("Terraform's -out=FILE, -auto-approve=true and -no-color work as pravo's flags", async () => {
  const root = await makeRoot({ "main.cue": SEED });
  assert.equal((await pravo(root, ["init"])).code, 0);
  const plan = await pravo(root, ["plan", "-out=seed.plan", "-no-color"]);
  assert.equal(plan.code, 2, plan.stderr);
  assert.ok(existsSync(join(root, "seed.plan")));
  assert.equal((await pravo(root, ["apply", "-auto-approve=true"])).code, 0);
  assert.equal((await pravo(root, ["plan", "-refresh=false", "-detailed-exitcode"])).code, 0);
});

Deno.test("Terraform's -target, -var and -chdir are refused with the pravo flag to use (exit 64)", async () => {
  const root = await makeRoot({ "main.cue": SEED });
  const target = await pravo(root, ["apply", "-target=base"]);
  assert.equal(target.code, 64);
  assert.match(target.stderr, /--only base/);
  const v = await pravo(root, ["plan", "-var", "x=1"]);
  assert.equal(v.code, 64);
  assert.match(v.stderr, /-t x=1/);
  const chdir = await pravo(root, ["-chdir=/tmp", "plan"]);
  assert.equal(chdir.code, 64);
  assert.match(chdir.stderr, /write -C \/tmp/);
});

Deno.test("the README's command table and docs/reference name every command of the registry", async () => {
  const { COMMANDS } = await import("../lib/cli/commands.ts");
  const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
  const table = readme.slice(readme.indexOf("## Commands"));
  const exitCodes = await Deno.readTextFile(
    new URL("../docs/reference/exit-codes.md", import.meta.url),
  );
  for (const c of COMMANDS) {
    const word = c.name.split(" ").pop()!;
    assert.match(table, new RegExp("`(state )?[^`]*\\b" + word + "\\b"), `README: ${c.name}`);
    assert.ok(exitCodes.includes("`" + c.name), `exit-codes.md: ${c.name}`);
  }
  for (const page of ["fmt", "graph", "version", "help", "completion"]) {
    assert.ok(existsSync(new URL(`../docs/reference/${page}.md`, import.meta.url)), page);
  }
});
