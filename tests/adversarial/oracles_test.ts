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
import { call, connect, makeRoot, pravo, text, type ToolResult, waitFor } from "../mcp/_client.ts";
import { records } from "../_pravo.ts";

const exitCode = (r: ToolResult) => r.structuredContent?.exit_code;

/** A root with a sensitive value read from secret.txt, and `base` applied with seed "base". */
async function secretRoot(secret: string): Promise<string> {
  const root = await makeRoot({
    "main.cue": body('max: 9, seed: "base"'),
    "secret.txt": secret,
  });
  assert.equal((await pravo(root, ["init"])).code, 0);
  const applied = await pravo(root, ["apply", "-auto-approve"]);
  assert.equal(applied.code, 0, applied.stderr);
  return root;
}

function body(baseFields: string, extra = ""): string {
  return `package demo

import (
	"strings"
	rnd "pravo.dev/providers/hashicorp/random"
	loc "pravo.dev/providers/hashicorp/local"
)

$random: rnd.#Provider
$local:  loc.#Provider

s:    $local.#Data.local_sensitive_file & {filename: "secret.txt"}
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
  const s = await connect(root, { args });
  try {
    const r = await call(s, "pravo_plan", { include_skipped: true });
    return seen(r);
  } finally {
    await s.close();
  }
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
  const main = (extra: string) =>
    `package demo

import (
	"strings"
	rnd "pravo.dev/providers/hashicorp/random"
	loc "pravo.dev/providers/hashicorp/local"
)

$random: rnd.#Provider
$local:  loc.#Provider

pw: $random.#Resource.random_password & {length: 12, special: false, upper: false, numeric: false}
_use: strings.ToUpper("a")
${extra}`;
  const root = await makeRoot({ "main.cue": main("") });
  assert.equal((await pravo(root, ["init"])).code, 0);
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
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

Deno.test("a configuration that evaluates for some values of a password only closes planning for the session: the next answers cannot be read either way", async () => {
  // A password in the state: what the evaluation unifies in, sealed at rest.
  const main = (check: string) =>
    `package demo

import (
	"strings"
	rnd "pravo.dev/providers/hashicorp/random"
)

$random: rnd.#Provider

pw: $random.#Resource.random_password & {length: 12, special: false, upper: false, numeric: false}
check: ${check}
`;
  const root = await makeRoot({ "main.cue": main('strings.ToUpper("") == ""') });
  assert.equal((await pravo(root, ["init"])).code, 0);
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
  // The operator (the test) knows the password; the agent does not.
  const first = String((await records(root)).get("pw")!.attributes.result)[0];
  const other = first === "a" ? "b" : "a";
  assert.match(first, /^[a-z]$/);
  // True for a neutral value in its place, and for the password unless it starts with c.
  const holds = main(`!strings.HasPrefix(pw.result, "${other}") & true`);
  const fails = main(`!strings.HasPrefix(pw.result, "${first}") & true`);
  // Two sessions ask the same questions in another order.
  const answers: string[][] = [];
  for (const order of [[holds, fails, holds], [fails, holds, fails]]) {
    const s = await connect(root, { args: ["--read-only"] });
    try {
      const got: string[] = [];
      for (const m of order) {
        await Deno.writeTextFile(join(root, "main.cue"), m);
        got.push(seen(await call(s, "pravo_plan", {})));
      }
      answers.push(got);
      await waitFor(
        () =>
          /Warning: a call of pravo_plan found that the configuration does not evaluate/.test(
            s.stderr(),
          ),
        5_000,
        "the server's warning",
      );
    } finally {
      await s.close();
    }
  }
  // The first answer that depends on the password is the last one a
  // session gets: from then on planning is closed, whatever is asked.
  assert.match(answers[0][0], /^0 /);
  assert.match(answers[0][1], /The configuration does not evaluate for some values of a secret/);
  assert.match(answers[1][0], /The configuration does not evaluate for some values of a secret/);
  for (const a of [answers[0][2], answers[1][1], answers[1][2]]) {
    assert.match(a, /pravo_plan is closed for the rest of this session/);
  }
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
