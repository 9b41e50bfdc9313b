/**
 * What a Terraform user reaches for on day one (issue 12), through the real
 * pravo: `destroy`, `--only` with and without its dependencies, provider
 * validation in `validate`, the messages that used to be CUE's words (the
 * scoping trap, wrong types, misspelt types and attributes, an unclosed
 * brace, `--replace` without a suggestion), time_rotating, a replacement
 * driven by a sensitive value, `-t` with a saved plan, `output` and `why`
 * without the tags they do not need, and ignore_changes on an update.
 */

import assert from "node:assert/strict";
import { makeRoot, pravo, records } from "./_pravo.ts";

const HEAD = `package demo

import (
	rnd "pravo.dev/providers/hashicorp/random"
	tm "pravo.dev/providers/hashicorp/time"
	nl "pravo.dev/providers/hashicorp/null"
	lc "pravo.dev/providers/hashicorp/local"
)

$random: rnd.#Provider
$time: tm.#Provider
$null: nl.#Provider
$local: lc.#Provider
`;

/** A root of HEAD and `body` (unused imports are kept used), after init. */
async function root(body: string): Promise<string> {
  const uses = `
_uses: [$random, $time, $null, $local]
`;
  const dir = await makeRoot({ "main.cue": HEAD + uses + body });
  assert.equal((await pravo(dir, ["init"])).code, 0);
  return dir;
}

/** The lines of the main.cue of `root()` where `body` starts. */
const BODY_LINE = HEAD.split("\n").length + 2;

Deno.test("destroy asks on a terminal, refuses without one, and with -auto-approve destroys all", async () => {
  const dir = await root(`
a: $random.#Resource.random_pet & {}
b: $random.#Resource.random_pet & {}
readme: $local.#Data.local_file & {filename: "main.cue"}
`);
  assert.equal((await pravo(dir, ["apply", "-auto-approve"])).code, 0);
  const refused = await pravo(dir, ["destroy"]);
  assert.equal(refused.code, 64);
  assert.match(refused.stderr, /Error: Destroy needs approval/);
  assert.match(refused.stderr, /pravo plan --destroy --out FILE/);
  assert.equal((await records(dir)).size, 3);
  const done = await pravo(dir, ["destroy", "-auto-approve"]);
  assert.equal(done.code, 0, done.stderr);
  // The data source dropped is not a resource destroyed, as the plan counts.
  assert.match(done.stdout, /Destroy complete! Resources: 2 destroyed\./);
  assert.equal((await records(dir)).size, 0);
  const nothing = await pravo(dir, ["destroy", "-auto-approve"]);
  assert.equal(nothing.code, 0);
  assert.match(nothing.stdout, /No changes\. No objects need to be destroyed/);
  const help = await pravo(dir, ["help", "destroy"]);
  assert.match(help.stdout, /Usage: pravo destroy/);
});

Deno.test("--only refuses a node whose inputs wait for a dependency it leaves out; --with-dependencies takes it along", async () => {
  const dir = await root(`
pause: $time.#Resource.time_sleep & {create_duration: "1ms"}
after_pause: $null.#Resource.null_resource & {triggers: {"pause": pause.id}}
other: $random.#Resource.random_pet & {}
`);
  assert.equal((await pravo(dir, ["plan", "--out", "p.plan"])).code, 2);
  const alone = await pravo(dir, ["apply", "p.plan", "--only", "after_pause"]);
  assert.equal(alone.code, 64);
  assert.match(alone.stderr, /after_pause needs nodes that --only leaves out/);
  assert.match(alone.stderr, /Add --with-dependencies/);
  assert.equal((await records(dir)).size, 0, "nothing was applied");
  const flag = await pravo(dir, ["apply", "--with-dependencies"]);
  assert.equal(flag.code, 64);
  assert.match(flag.stderr, /--with-dependencies goes with --only/);
  const along = await pravo(dir, [
    "apply",
    "p.plan",
    "--only",
    "after_pause",
    "--with-dependencies",
  ]);
  assert.equal(along.code, 0, along.stderr);
  assert.match(along.stderr, /--with-dependencies adds the changes they depend on: pause/);
  assert.match(along.stdout, /Apply complete! Resources: 2 added/);
  assert.deepEqual([...(await records(dir)).keys()], ["after_pause", "pause"]);
  // Terraform's -target names the flags to use.
  const target = await pravo(dir, ["plan", "-target=other"]);
  assert.equal(target.code, 64);
  assert.match(target.stderr, /--only other --with-dependencies/);
});

Deno.test("validate runs the providers' checks (exit 3), and plan reports each diagnostic once", async () => {
  const body = `
pw: $random.#Resource.random_password & {length: 0}
f: $local.#Resource.local_file & {filename: "x.txt", content: "x", file_permission: "rw-------"}
g: $local.#Resource.local_file & {filename: "y.txt"}
rd: $local.#Data.local_file & {filename: "main.cue"}
n: $random.#Resource.random_integer & {min: 1, max: 9}
uses: $null.#Resource.null_resource & {triggers: {a: "\\(n.result)", b: rd.content}}
`;
  const dir = await root(body);
  const v = await pravo(dir, ["validate"]);
  assert.equal(v.code, 3, v.stdout);
  const summaries = (text: string) => [...text.matchAll(/^Error: (.*)$/gm)].map((m) => m[1]);
  const want = [
    "No content for local_file",
    'Invalid file_permission "rw-------"',
    "Invalid length 0",
  ];
  assert.deepEqual(summaries(v.stderr).sort(), [...want].sort());
  // The diagnostic points at the attribute it is about.
  const line = BODY_LINE + body.split("\n").findIndex((l) => l.startsWith("f:"));
  assert.match(v.stderr, new RegExp(`on main\\.cue line ${line}, column 68, in f:`));
  const json = JSON.parse((await pravo(dir, ["validate", "--json"])).stdout);
  assert.equal(json.valid, false);
  assert.equal(json.diagnostics.length, 3);
  const p = await pravo(dir, ["plan"]);
  assert.equal(p.code, 3);
  assert.deepEqual(summaries(p.stderr).sort(), [...want].sort());
});

Deno.test("CUE's scoping trap is named at the reference, with the ways to reach the outer field", async () => {
  const cases: [string, RegExp][] = [
    [
      'pause: $time.#Resource.time_sleep & {create_duration: "1s"}\nafter: $null.#Resource.null_resource & {triggers: {pause: pause.id}}',
      /`pause\.id` refers to the field after\.triggers\.pause itself, not to pause declared at main\.cue:\d+:1/,
    ],
    [
      'replicas: 3\nx: $null.#Resource.null_resource & {triggers: {replicas: "\\(replicas)"}}',
      /"replicas" here is the field being defined/,
    ],
    [
      'team: "core"\nx: $null.#Resource.null_resource & {triggers: {team: team}}',
      /write the label in quotes, `"team": team`/,
    ],
  ];
  for (const [body, want] of cases) {
    const dir = await root(body + "\n");
    const r = await pravo(dir, ["validate"]);
    assert.equal(r.code, 3, body);
    assert.match(r.stderr, want);
    assert.match(r.stderr, /here is the field being defined/);
  }
  // Quoted, the label binds no name: the reference reaches the node.
  const dir = await root(
    'pause: $time.#Resource.time_sleep & {create_duration: "1s"}\nafter: $null.#Resource.null_resource & {triggers: {"pause": pause.id}}\n',
  );
  assert.equal((await pravo(dir, ["validate"])).code, 0);
  const graph = JSON.parse((await pravo(dir, ["graph", "--json"])).stdout);
  assert.ok(
    JSON.stringify(graph.edges).includes('"after"') &&
      JSON.stringify(graph.edges).includes('"pause"'),
    JSON.stringify(graph.edges),
  );
});

Deno.test("messages in pravo's words: wrong types, misspelt types and attributes, an unclosed brace, --replace", async () => {
  const check = async (body: string, summary: string, detail: RegExp) => {
    const dir = await root(body + "\n");
    const r = await pravo(dir, ["validate"]);
    assert.equal(r.code, 3, body);
    assert.match(
      r.stderr,
      new RegExp(`Error: ${summary.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\n`),
    );
    assert.match(r.stderr, detail);
    assert.doesNotMatch(r.stderr, /alternatives of its disjunction|undefined field/);
  };
  await check(
    's: $random.#Resource.random_string & {length: 5, upper: "yes"}',
    "Wrong type for upper",
    /random_string\.upper is a bool \(default true\), and s\.upper is "yes" \(a string\)\. Give true or false\./,
  );
  await check(
    "s: $random.#Resource.random_string & {length: 5, keepers: {a: 1}}",
    "Wrong type for keepers.a",
    /keepers is a map\(string\), so each of its values is a string, and s\.keepers\.a is 1 \(an int\)\. Write it as a string: "1"\./,
  );
  await check(
    "s: $random.#Resource.random_pett & {}",
    'Unknown type "random_pett"',
    /\$random\.#Resource has no type "random_pett"; did you mean "random_pet"\?/,
  );
  await check(
    "app_name: $random.#Resource.random_pet & {}\nx: $null.#Resource.null_resource & {triggers: {n: app_name.name}}",
    'random_pet has no attribute "name"',
    /its attributes are length, prefix, separator, keepers, id\./,
  );
  // A syntax error at the brace that is not closed, not at the end of the file.
  const dir = await root('x: $null.#Resource.null_resource & {triggers: {n: "a"}\ny: 1\n');
  const syntax = await pravo(dir, ["validate"]);
  assert.equal(syntax.code, 3);
  assert.match(syntax.stderr, new RegExp(`on main\\.cue line ${BODY_LINE}, column 36:`));
  assert.match(syntax.stderr, /a \{ has no closing \}: the file ends before it is closed/);

  const named = await root("app_name: $random.#Resource.random_pet & {}\n");
  assert.equal((await pravo(named, ["apply", "-auto-approve"])).code, 0);
  const replace = await pravo(named, ["plan", "--replace", "app_nam"]);
  assert.equal(replace.code, 1);
  assert.match(
    replace.stderr,
    /--replace names "app_nam", which is not a managed node of this root \(did you mean "app_name"\?\)/,
  );
});

Deno.test("time_rotating: a negative rotation is refused; rfc3339 can be referenced; its parts are the rotation time's", async () => {
  const neg = await root("rot: $time.#Resource.time_rotating & {rotation_days: -1}\n");
  const r = await pravo(neg, ["validate"]);
  assert.equal(r.code, 3);
  assert.match(r.stderr, /Error: Invalid rotation_days -1/);
  const dir = await root(`
rot: $time.#Resource.time_rotating & {rotation_days: 30}
st: $time.#Resource.time_static & {}
off: $time.#Resource.time_offset & {offset_days: 1}
x: $null.#Resource.null_resource & {triggers: {base: rot.rfc3339, next: rot.rotation_rfc3339, s: st.rfc3339, o: off.base_rfc3339}}
`);
  assert.equal((await pravo(dir, ["validate"])).code, 0);
  const plan = await pravo(dir, ["plan"]);
  assert.equal(plan.code, 2, plan.stderr);
  assert.match(plan.stdout, /\+ rfc3339\s+= \(known after apply\)/);
  const apply = await pravo(dir, ["apply", "-auto-approve"]);
  assert.equal(apply.code, 0, apply.stderr);
  const state = await records(dir);
  const rot = state.get("rot")!.attributes;
  const triggers = state.get("x")!.attributes.triggers as Record<string, string>;
  assert.equal(triggers.base, rot.rfc3339);
  assert.equal(triggers.next, rot.rotation_rfc3339);
  assert.equal(triggers.s, state.get("st")!.attributes.rfc3339);
  assert.equal(triggers.o, state.get("off")!.attributes.base_rfc3339);
  const next = new Date(String(rot.rotation_rfc3339));
  assert.equal(rot.day, next.getUTCDate());
  assert.equal(rot.unix, next.getTime() / 1000);
  const again = await pravo(dir, ["plan"]);
  assert.equal(again.code, 0, again.stdout);
  const schema = await pravo(dir, ["schema", "time_rotating"]);
  assert.match(schema.stdout, /The day of the month of the rotation time/);
});

Deno.test("a replacement driven by a sensitive value shows the line, its value hidden", async () => {
  const dir = await root(
    'f: $local.#Resource.local_sensitive_file & {filename: "s.txt", content: "one"}\n',
  );
  assert.equal((await pravo(dir, ["apply", "-auto-approve"])).code, 0);
  const text = await Deno.readTextFile(`${dir}/main.cue`);
  await Deno.writeTextFile(`${dir}/main.cue`, text.replace('"one"', '"two"'));
  const plan = await pravo(dir, ["plan"]);
  assert.equal(plan.code, 2);
  assert.match(plan.stdout, /~ content\s+= \(sensitive value\) # forces replacement/);
  assert.doesNotMatch(plan.stdout, /"one"|"two"/);
});

Deno.test("-t with a saved plan is refused; output and why ask for a tag only where it is needed", async () => {
  const dir = await root(`
env: string @tag(env)
base: $random.#Resource.random_integer & {min: 1, max: 9, seed: "base"}
named: $random.#Resource.random_pet & {prefix: env}
outputs: {number: base.result, where: "at-\\(env)"}
`);
  assert.equal((await pravo(dir, ["plan", "-t", "env=dev", "--out", "p.plan"])).code, 2);
  for (const cmd of [["apply", "p.plan"], ["show", "p.plan"], ["approve", "p.plan"]]) {
    const r = await pravo(dir, [...cmd, "-t", "env=prod"]);
    assert.equal(r.code, 64, cmd.join(" "));
    assert.match(r.stderr, /-t cannot go with the saved plan "p\.plan": the plan holds the tags/);
  }
  assert.equal((await pravo(dir, ["apply", "p.plan"])).code, 0);

  const out = await pravo(dir, ["output"]);
  assert.equal(out.code, 0, out.stderr);
  assert.match(out.stdout, /^number = \d\n/m);
  assert.match(out.stdout, /^where {2}= \(needs -t env=VALUE\)$/m);
  assert.equal((await pravo(dir, ["output", "number"])).code, 0);
  const where = await pravo(dir, ["output", "where"]);
  assert.equal(where.code, 3);
  assert.match(where.stderr, /Output "where" needs a tag/);
  const json = JSON.parse((await pravo(dir, ["output", "--json"])).stdout);
  assert.deepEqual(json.needs_tags, { outputs: ["where"], tags: ["env"] });

  const why = await pravo(dir, ["why", "base"]);
  assert.equal(why.code, 0, why.stderr);
  assert.match(why.stdout, /base \(random_integer\): skipped/);
  const needs = await pravo(dir, ["why", "named"]);
  assert.equal(needs.code, 3);
  assert.match(needs.stderr, /Tag "env" has no value/);
  assert.equal((await pravo(dir, ["why", "named", "-t", "env=dev"])).code, 0);
});

Deno.test("an attribute in ignore_changes keeps its prior value on an update, as Terraform", async () => {
  const body = (create: string, destroy: string) =>
    `s: $time.#Resource.time_sleep & {create_duration: "${create}", destroy_duration: "${destroy}", lifecycle: ignore_changes: ["create_duration"]}\n`;
  const dir = await root(body("1ms", "1ms"));
  assert.equal((await pravo(dir, ["apply", "-auto-approve"])).code, 0);
  const text = await Deno.readTextFile(`${dir}/main.cue`);
  await Deno.writeTextFile(`${dir}/main.cue`, text.replace(body("1ms", "1ms"), body("5ms", "2ms")));
  const plan = await pravo(dir, ["plan"]);
  assert.equal(plan.code, 2);
  assert.doesNotMatch(plan.stdout, /create_duration/);
  assert.equal((await pravo(dir, ["apply", "-auto-approve"])).code, 0);
  const s = (await records(dir)).get("s")!.attributes;
  assert.equal(s.create_duration, "1ms");
  assert.equal(s.destroy_duration, "2ms");
  assert.equal((await pravo(dir, ["plan"])).code, 0);
});

Deno.test("a plan that evaluates again (a replacement reaching dependents) reports a provider's diagnostic once", async () => {
  const body = (length: number, max: number) => `
pw: $random.#Resource.random_password & {length: ${length}}
rd: $local.#Data.local_file & {filename: "main.cue"}
n: $random.#Resource.random_integer & {min: 1, max: ${max}}
m: $random.#Resource.random_integer & {min: 1, max: n.result + 10}
o: $random.#Resource.random_integer & {min: 1, max: m.result + 10}
uses: $null.#Resource.null_resource & {triggers: {a: "\\(o.result)", b: rd.content}}
`;
  const dir = await root(body(4, 9));
  assert.equal((await pravo(dir, ["apply", "-auto-approve"])).code, 0);
  const text = await Deno.readTextFile(`${dir}/main.cue`);
  await Deno.writeTextFile(`${dir}/main.cue`, text.replace(body(4, 9), body(0, 8)));
  const plan = await pravo(dir, ["plan"]);
  assert.equal(plan.code, 3);
  assert.equal([...plan.stderr.matchAll(/Error: Invalid length 0/g)].length, 1, plan.stderr);
});
