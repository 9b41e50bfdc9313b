/**
 * Issue 10, beyond the list: reading a secret one bit at a time. No value is
 * shown, but an answer that depends on the secret tells part of it, and an
 * agent that may plan at will asks again and again. Tried as an agent would,
 * through the real `pravo mcp` (also `--read-only`) and its editor.
 *
 * The secret here is what a `local_sensitive_file` data source reads, so
 * that the test knows it and can change it; a password in the state takes
 * the same road (a sensitive value unified into the evaluation). Each test
 * runs the agent's configuration with two secrets and asserts that the
 * answers are the same; on main they differed.
 *
 * @module
 */

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { call, connect, exitCode, pravo, text, type ToolResult } from "../mcp/_client.ts";
import { appliedRoot, records } from "../_pravo.ts";

/** A root with a sensitive value read from secret.txt, and `base` applied with seed "base". */
async function secretRoot(secret: string): Promise<string> {
  return await appliedRoot({ "main.cue": body('max: 9, seed: "base"'), "secret.txt": secret });
}

/** The head of the roots below: package demo, strings, random and `other`, the two providers. */
function head(other: "local" | "null"): string {
  const alias = other === "local" ? "loc" : "nul";
  return `package demo

import (
	"strings"
	rnd "pravo.dev/providers/hashicorp/random"
	${alias} "pravo.dev/providers/hashicorp/${other}"
)

$random: rnd.#Provider
${`$${other}:`.padEnd(9)}${alias}.#Provider

`;
}

/** A password of twelve lowercase letters. */
const PW =
  "pw: $random.#Resource.random_password & {length: 12, special: false, upper: false, numeric: false}\n";

function body(baseFields: string, extra = ""): string {
  return `${head("local")}s:    $local.#Data.local_sensitive_file & {filename: "secret.txt"}
base: $random.#Resource.random_integer & {min: 1, ${baseFields}}
_use: strings.ToUpper("a")
${extra}`;
}

/** What an agent sees of a plan: the exit code and each node's action, or the refusal. */
function seen(r: ToolResult): string {
  const t = text(r);
  try {
    const doc = JSON.parse(t);
    if (Array.isArray(doc.nodes)) {
      return `${exitCode(r)} ${
        doc.nodes.map((n: { address: string; action: string }) => `${n.address}:${n.action}`)
          .sort().join(",")
      }`;
    }
    return `${exitCode(r)} ${
      (doc.diagnostics ?? []).map((d: { summary: string }) => d.summary).join(";")
    }`;
  } catch {
    return `${exitCode(r)} ${t}`;
  }
}

/** Plans `main` in a root whose secret is `secret`, through pravo mcp; what the agent sees. */
async function answer(secret: string, main: string, args: string[] = []): Promise<string> {
  const root = await secretRoot(secret);
  await Deno.writeTextFile(join(root, "main.cue"), main);
  await using s = await connect(root, { args });
  const r = await call(s, "pravo_plan", { include_skipped: true });
  return seen(r);
}

Deno.test("whether a node changes does not tell of a secret: an input that becomes computed from one changes, whatever it holds", async () => {
  // seed is "base", as recorded, exactly when the secret starts with 7.
  const main = body('max: 9, seed: [if strings.HasPrefix(s.content, "7") {"base"}, "x"][0]');
  const a = await answer("7-secret", main, ["--read-only"]);
  const b = await answer("8-secret", main, ["--read-only"]);
  assert.equal(a, b);
  assert.match(a, /^2 .*base:replace/);
});

Deno.test("whether a provider's check fails does not tell of a secret: inputs computed from one are checked at apply", async () => {
  // min 1 > max 0 exactly when the secret starts with 7.
  const main = body('max: [if strings.HasPrefix(s.content, "7") {0}, 9][0], seed: "base"');
  const a = await answer("7-secret", main);
  const b = await answer("8-secret", main);
  assert.equal(a, b);
});

Deno.test("whether a data source can be read does not tell of a password: one whose inputs are computed from a secret is read at apply", async () => {
  const main = (extra: string) => `${head("local")}${PW}_use: strings.ToUpper("a")\n${extra}`;
  const root = await appliedRoot({ "main.cue": main("") });
  const first = String((await records(root)).get("pw")!.attributes.result)[0];
  assert.match(first, /^[a-z]$/);
  const other = first === "a" ? "b" : "a";
  // A file named after the password's first letter exists, or not.
  await Deno.writeTextFile(
    join(root, "main.cue"),
    main(
      'd: $local.#Data.local_file & {filename: "f" + strings.SliceRunes(pw.result, 0, 1) + ".txt"}\n',
    ),
  );
  const answers: string[] = [];
  for (const letter of [first, other]) {
    await Deno.writeTextFile(join(root, `f${letter}.txt`), "x");
    const s = await connect(root, { args: ["--read-only"] });
    try {
      answers.push(seen(await call(s, "pravo_plan", {})));
    } finally {
      await s.close();
    }
    await Deno.remove(join(root, `f${letter}.txt`));
  }
  assert.equal(answers[0], answers[1]);
});

Deno.test("a check of a password answers the same for every password at plan time: nothing is evaluated with it before apply, and planning stays open", async () => {
  // A password in the state: what the evaluation would unify in, sealed at rest.
  const main = (check: string) =>
    `${head("null")}${PW}n: $null.#Resource.null_resource & {triggers: {p: pw.result}}
check: ${check}
`;
  const answersFor = async (root: string, password: string) => {
    // The agent's probes: the first letter, one guess a plan, as an agent
    // recovering a password one bit at a time would ask (the issue's 110
    // calls); and a constraint that holds for some passwords only.
    const probes = [
      ..."abcdefghijklmnopqrstuvwxyz".split("").map((c) =>
        `!strings.HasPrefix(pw.result, "${c}") & true`
      ),
      `strings.HasPrefix(pw.result, "${password[0]}") & true`,
      `len(pw.result) == 12 & true`,
      `strings.ContainsAny(pw.result, "aeiou") & true`,
    ];
    await using s = await connect(root, { args: ["--read-only"] });
    const got: string[] = [];
    for (const m of probes) {
      await Deno.writeTextFile(join(root, "main.cue"), main(m));
      got.push(seen(await call(s, "pravo_plan", {})));
    }
    return { got, stderr: s.stderr() };
  };
  const roots: { root: string; password: string }[] = [];
  for (let i = 0; i < 2; i++) {
    const root = await appliedRoot({ "main.cue": main('strings.ToUpper("") == ""') });
    roots.push({ root, password: String((await records(root)).get("pw")!.attributes.result) });
  }
  // Two roots whose passwords differ in their first letter (re-applied until they do).
  while (roots[0].password[0] === roots[1].password[0]) {
    assert.equal(
      (await pravo(roots[1].root, ["apply", "-auto-approve", "--replace", "pw"])).code,
      0,
    );
    roots[1].password = String((await records(roots[1].root)).get("pw")!.attributes.result);
  }
  const a = await answersFor(roots[0].root, roots[0].password);
  const b = await answersFor(roots[1].root, roots[1].password);
  // The same answers for both passwords, probe by probe: no bit of either.
  assert.deepEqual(a.got, b.got);
  // The guesses of a letter are plans with nothing to do; a check that no
  // stand-in meets fails alike for both (it says nothing of either); and
  // nothing closes the session.
  for (const x of a.got.slice(0, 26)) assert.match(x, /^0 (n:no-op,pw:no-op)?$/);
  assert.doesNotMatch(a.stderr + b.stderr, /closed|Warning: a call/);
  // Apply has the password: a check it fails stops the apply there, and
  // the operators see it in the log.
  const { root, password } = roots[0];
  await Deno.writeTextFile(
    join(root, "main.cue"),
    main('strings.ToUpper("") == ""').replace(
      "triggers: {p: pw.result}",
      `triggers: {p: pw.result, q: "\\(!strings.HasPrefix(pw.result, "${password[0]}") & true)"}`,
    ),
  );
  const planned = await pravo(root, ["plan", "--out", "c.plan"]);
  assert.equal(planned.code, 2, planned.stdout + planned.stderr);
  const applied = await pravo(root, ["apply", "c.plan"]);
  assert.notEqual(applied.code, 0, applied.stdout);
  assert.match(applied.stderr, /The configuration does not evaluate for some values of a secret/);
  assert.ok(!applied.stdout.includes(password) && !applied.stderr.includes(password));
  const log = await pravo(root, ["state", "log", "--json"]);
  assert.match(log.stdout, /"action": "failed"/);
  for (const r of roots) await Deno.remove(r.root, { recursive: true });
});

Deno.test("the digest a record shows is no offline oracle: a value computed from a secret enters it under pravo's key", async () => {
  const root = await secretRoot("7-secret");
  await Deno.writeTextFile(
    join(root, "main.cue"),
    body('max: 9, seed: [if strings.HasPrefix(s.content, "7") {"a"}, "b"][0]'),
  );
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
  const s = await connect(root, { args: ["--read-only"] });
  let shown: string;
  try {
    const r = await call(s, "pravo_state_show", { addr: "base" });
    shown = JSON.parse(text(r)).record.config_digest;
  } finally {
    await s.close();
  }
  // What an agent would compute for each guess, as main made the digest.
  const guess = (seed: string) =>
    createHash("sha256").update(
      JSON.stringify({ inputs: { max: 9, min: 1, seed }, lifecycle: {} }),
    ).digest("hex");
  assert.match(shown, /^[0-9a-f]{64}$/);
  assert.notEqual(shown, guess("a"));
  assert.notEqual(shown, guess("b"));
});
