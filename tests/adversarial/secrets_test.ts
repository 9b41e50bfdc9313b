/**
 * Issue 10, holes 4 and 5, as an agent would try them: through the real
 * `pravo mcp` (the SDK's client), with `--read-only` and without, and with
 * an editor in the root. Secrets must not come back in clear through any
 * transformation, any tool, any message or any file pravo writes; providers
 * must not read or write outside the root, nor pravo's own files.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { call, connect, type Session, text, type ToolResult } from "../mcp/_client.ts";
import { initApply, makeRoot, pravo, records, removing, writeFiles } from "../_pravo.ts";

const HEAD = `package adv

import (
	rnd "pravo.dev/providers/hashicorp/random"
	nul "pravo.dev/providers/hashicorp/null"
	loc "pravo.dev/providers/hashicorp/local"
	"strings"
	"encoding/base64"
)

$random: rnd.#Provider
$null:   nul.#Provider
$local:  loc.#Provider

pw: $random.#Resource.random_password & {length: 24, special: false}
_use: [strings.ToUpper("x"), base64.Encode(null, "x"), $null, $local]
`;

/** The forms of a secret that must appear nowhere. */
function forms(secret: string): string[] {
  return [
    secret,
    secret.toUpperCase(),
    secret.toLowerCase(),
    btoa(secret),
    btoa(secret.toUpperCase()),
    secret.slice(0, 8),
    secret.slice(-8),
    // strings.Split of it, as the plan document prints a list.
    JSON.stringify(secret.split("").slice(0, 4)).slice(1, -1),
    secret.split("").slice(0, 4).map((c) => JSON.stringify(c)).join(",\n      "),
  ];
}

function assertNoSecret(where: string, body: string, secret: string): void {
  const flat = body.replace(/\s+/g, "");
  for (const f of forms(secret)) {
    assert.ok(!body.includes(f) && !flat.includes(f.replace(/\s+/g, "")), `${where} holds "${f}"`);
  }
}

/** A root with `body`, initialised and applied by the operator; its password. */
async function appliedRoot(body: string): Promise<{ root: string; secret: string }> {
  const root = await initApply(await makeRoot({ "main.cue": HEAD + body }));
  const secret = String((await records(root)).get("pw")?.attributes.result);
  assert.equal(secret.length, 24);
  return { root, secret };
}

async function withSessions(
  root: string,
  fn: (s: Session, readOnly: boolean) => Promise<void>,
): Promise<void> {
  for (const readOnly of [true, false]) {
    await using s = await connect(root, { args: readOnly ? ["--read-only"] : [] });
    await fn(s, readOnly);
  }
}

/** Forms of the password that both the triggers and the outputs of TRANSFORMED hold. */
const UPPER_B64 = `	upper: strings.ToUpper(pw.result)
	b64:   base64.Encode(null, pw.result)`;
const SLICE = "\tslice: strings.SliceRunes(pw.result, 0, 8)";

const TRANSFORMED = `
n: $null.#Resource.null_resource & {triggers: {
${UPPER_B64}
	split: strings.Join(strings.Split(pw.result, ""), " ")
${SLICE}
	text:  "the password is \\(pw.result)!"
}}
f: $local.#Resource.local_file & {filename: "out/upper.txt", content: strings.ToUpper(pw.result)}
outputs: {
${UPPER_B64}
	split: strings.Split(pw.result, "")
${SLICE}
	length: pw.length
}
`;

Deno.test("adversarial: ToUpper, base64, Split and SliceRunes of a password come back redacted from every tool, also with --read-only", async () => {
  const { root, secret } = await appliedRoot(TRANSFORMED);
  // Drift: the file that holds the upper-cased password, edited on disk.
  await Deno.writeTextFile(join(root, "out", "upper.txt"), "changed by hand");
  await withSessions(root, async (s, readOnly) => {
    const plan = await call(s, "pravo_plan", { refresh: "false" });
    assert.equal(plan.structuredContent?.exit_code, 0, text(plan));
    const doc = JSON.parse(text(plan));
    for (const k of ["upper", "b64", "split", "slice"]) assert.equal(doc.outputs[k], "(sensitive)");
    assert.equal(doc.outputs.length, 24, "what does not depend on the secret is shown");
    const results: [string, ToolResult][] = [
      ["pravo_plan", plan],
      ["pravo_plan full", await call(s, "pravo_plan", { full: true, refresh: "false" })],
      ["pravo_why", await call(s, "pravo_why", { addrs: ["n", "f", "pw"] })],
      ["pravo_state_query", await call(s, "pravo_state_query", { expression: "nodes" })],
      ["pravo_state_show n", await call(s, "pravo_state_show", { addr: "n" })],
      ["pravo_state_show f", await call(s, "pravo_state_show", { addr: "f" })],
      ["pravo_state_log", await call(s, "pravo_state_log", {})],
      ["pravo_drift", await call(s, "pravo_drift", {})],
    ];
    for (const [what, r] of results) {
      assertNoSecret(`${what}${readOnly ? " (read-only)" : ""}`, JSON.stringify(r), secret);
    }
    const drift = JSON.parse(text(results[7][1]));
    assert.equal(drift.drift[0].address, "f", "the drift is seen, its values redacted");
  });
  // A change of what is computed from the secret: why says which, not what.
  await writeFiles(root, {
    "main.cue": HEAD + TRANSFORMED.replace("upper: strings.ToUpper", "upper: strings.ToLower"),
  });
  await withSessions(root, async (s) => {
    const why = await call(s, "pravo_why", { addrs: ["n"] });
    assert.match(text(why), /triggers changed in the configuration/);
    assertNoSecret("pravo_why after an edit", JSON.stringify(why), secret);
    assertNoSecret(
      "pravo_plan after an edit",
      JSON.stringify(await call(s, "pravo_plan", {})),
      secret,
    );
  });
});

Deno.test("adversarial: an error message, a provider's configuration and a field's name never quote a password", async () => {
  const { root, secret } = await appliedRoot("");
  // Each fails for the real password only: an evaluation without it passes.
  const attempts = [
    `x: strings.ToUpper(pw.result) & =~"^⟦"`,
    `n: $null.#Resource.null_resource & {triggers: {a: "\\(pw.result)" & =~"^⟦"}}`,
    `$random: {if !strings.HasPrefix(pw.result, "⟦") {"\\(pw.result)": 1}}`,
    `outputs: {b64: base64.Encode(null, pw.result) & =~"^⟦"}`,
    // A provider's message quotes the file name it was given.
    `d: $local.#Data.local_file & {filename: "missing-\\(strings.ToUpper(pw.result)).txt"}`,
  ];
  await withSessions(root, async (s) => {
    for (const body of attempts) {
      await writeFiles(root, { "main.cue": HEAD + body + "\n" });
      for (const tool of ["pravo_plan", "pravo_validate", "pravo_why"]) {
        const r = await call(s, tool, tool === "pravo_why" ? { addrs: ["pw"] } : {});
        assertNoSecret(`${tool} on ${body}`, JSON.stringify(r), secret);
      }
      const plan = await call(s, "pravo_plan", {});
      if (body.startsWith("d:")) {
        // Its inputs are computed from a secret: unknown at plan time, the
        // file is read at apply (and its name is not shown).
        assert.equal(plan.structuredContent?.exit_code, 0, `${body}: ${text(plan)}`);
        assert.match(text(plan), /"action": "read"/);
      } else {
        assert.equal(plan.isError, true, body);
      }
    }
  });
  // A failure at apply: the provider's message would name the file.
  await Deno.writeTextFile(join(root, "blocked"), "");
  await writeFiles(root, {
    "main.cue": HEAD +
      `f: $local.#Resource.local_file & {filename: "blocked/\\(pw.result).txt", content: "x"}\n`,
  });
  await using s = await connect(root);
  const plan = await call(s, "pravo_plan", { out: "f.plan" });
  assert.equal(plan.structuredContent?.exit_code, 2, text(plan));
  const applied = await call(s, "pravo_apply_plan", { planfile: "f.plan" });
  assert.equal(applied.isError, true, text(applied));
  assert.match(text(applied), /Cannot write file/);
  assertNoSecret("a failed apply", JSON.stringify(applied), secret);
  assertNoSecret("its log entry", JSON.stringify(await call(s, "pravo_state_log", {})), secret);
});

Deno.test("adversarial: a node or field that exists for some values of a password is refused, not planned", async () => {
  const { root, secret } = await appliedRoot("");
  const attempts = [
    `for i, c in strings.Split(pw.result, "") {"n\\(i)": $null.#Resource.null_resource}`,
    `if strings.HasPrefix(pw.result, "${secret[0]}") {leak: $null.#Resource.null_resource}`,
    `if !strings.HasPrefix(pw.result, "${secret[0]}") {leak: $null.#Resource.null_resource}`,
    `n: $null.#Resource.null_resource & {if strings.Contains(pw.result, "A") {triggers: {a: "b"}}}`,
  ];
  await withSessions(root, async (s) => {
    for (const body of attempts) {
      await writeFiles(root, { "main.cue": HEAD + body + "\n" });
      const plan = await call(s, "pravo_plan", {});
      assert.equal(plan.structuredContent?.exit_code, 3, `${body}: ${text(plan)}`);
      assert.match(text(plan), /depends on a sensitive value/);
      assert.ok(!/"address": "(n\d+|leak)"/.test(text(plan)), body);
      assertNoSecret(body, JSON.stringify(plan), secret);
    }
  });
});

Deno.test("adversarial: which fields are marked sensitive tells nothing of the password", async () => {
  const { root, secret } = await appliedRoot("");
  // One output per guess of each of the first characters: were the fields
  // marked by comparing with the password, those left in clear would spell it.
  const alphabet = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"];
  const guesses: string[] = [];
  for (let j = 0; j < 3; j++) {
    for (const c of alphabet) {
      guesses.push(
        `g${j}_${c.charCodeAt(0)}: strings.SliceRunes(pw.result, ${j}, ${j + 1}) == "${c}"`,
      );
    }
  }
  await writeFiles(root, { "main.cue": HEAD + `outputs: {\n${guesses.join("\n")}\n}\n` });
  await withSessions(root, async (s) => {
    const plan = await call(s, "pravo_plan", { refresh: "false" });
    const outputs = JSON.parse(text(plan)).outputs as Record<string, unknown>;
    assert.equal(Object.keys(outputs).length, guesses.length);
    for (const [k, v] of Object.entries(outputs)) assert.equal(v, "(sensitive)", k);
    assertNoSecret("guesses", JSON.stringify(plan), secret);
  });
});

Deno.test("adversarial: a local_file data source reads neither pravo's state nor a file outside through a link", async () => {
  const { root, secret } = await appliedRoot("");
  const outside = await Deno.makeTempDir({ prefix: "pravo-outside-" });
  const outsideSecret = "outside-" + crypto.randomUUID();
  await Deno.writeTextFile(join(outside, "shadow"), outsideSecret);
  // The agent's links: to a file outside, to the folder outside, to pravo's folder.
  const links = { "shadow.txt": join(outside, "shadow"), elsewhere: outside, dotpravo: ".pravo" };
  for (const [link, to] of Object.entries(links)) await Deno.symlink(to, join(root, link));
  const reads = [
    ".pravo/state.db",
    "shadow.txt",
    "elsewhere/shadow",
    "dotpravo/state.db",
    join(outside, "shadow"),
  ];
  await using _outside = removing(outside);
  await withSessions(root, async (s) => {
    for (const filename of reads) {
      await writeFiles(root, {
        "main.cue": HEAD +
          `d: $local.#Data.local_file & {filename: ${JSON.stringify(filename)}}\n`,
      });
      const plan = await call(s, "pravo_plan", {});
      assert.equal(plan.isError, true, `${filename}: ${text(plan)}`);
      assert.match(text(plan), /Cannot read/);
      assert.match(text(plan), /outside the root|pravo's own files/);
      assertNoSecret(filename, JSON.stringify(plan), secret);
      assert.ok(!text(plan).includes(outsideSecret), `${filename}: the outside file was read`);
      if (!filename.includes(outside)) {
        assert.ok(!text(plan).includes(outside), "the message does not say where a link leads");
      }
    }
  });
});

Deno.test("adversarial: a local_file resource writes nothing through a link to a directory outside the root", async () => {
  const root = await makeRoot({ "main.cue": HEAD });
  assert.equal((await pravo(root, ["init"])).code, 0);
  const outside = await Deno.makeTempDir({ prefix: "pravo-outside-" });
  await using _outside = removing(outside);
  await Deno.symlink(outside, join(root, "out"));
  await writeFiles(root, {
    "main.cue": HEAD +
      `w: $local.#Resource.local_file & {filename: "out/planted.txt", content: "x"}\n` +
      `st: $local.#Resource.local_file & {filename: ".pravo/state.db", content: "x"}\n`,
  });
  const s = await connect(root);
  try {
    const plan = await call(s, "pravo_plan", { out: "w.plan" });
    assert.equal(plan.isError, true, text(plan));
    const summaries = (JSON.parse(text(plan)).diagnostics as { summary: string }[]).map((d) =>
      d.summary
    );
    assert.ok(summaries.some((m) => m.startsWith('Cannot write "out/planted.txt"')), text(plan));
    assert.ok(summaries.some((m) => m.startsWith('Cannot write ".pravo/state.db"')), text(plan));
    await assert.rejects(Deno.stat(join(root, "w.plan")));
    // A plan made while the directory was real, applied after it became a link.
    await Deno.remove(join(root, "out"));
    await Deno.mkdir(join(root, "out"));
    await writeFiles(root, {
      "main.cue": HEAD +
        `w: $local.#Resource.local_file & {filename: "out/planted.txt", content: "x"}\n`,
    });
    const ok = await call(s, "pravo_plan", { out: "w.plan" });
    assert.equal(ok.structuredContent?.exit_code, 2, text(ok));
    await Deno.remove(join(root, "out"));
    await Deno.symlink(outside, join(root, "out"));
    const applied = await call(s, "pravo_apply_plan", { planfile: "w.plan" });
    assert.equal(applied.isError, true, text(applied));
    assert.match(text(applied), /symbolic link on the way leads outside the root/);
  } finally {
    await s.close();
  }
  assert.deepEqual([...Deno.readDirSync(outside)], [], "nothing was written outside the root");
  assert.equal(Deno.readFileSync(join(root, ".pravo", "state.db")).length > 1, true);
});

/** Every file under `dir`, recursively, with its path relative to `dir`. */
function* filesUnder(dir: string, rel = ""): Generator<string> {
  for (const e of Deno.readDirSync(join(dir, rel))) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory) yield* filesUnder(dir, p);
    else if (e.isFile) yield p;
  }
}

Deno.test("adversarial: after an apply through pravo mcp, no file pravo wrote in the root holds the password, nor its upper-case or base64 forms", async () => {
  const root = await makeRoot({
    "main.cue": HEAD + TRANSFORMED +
      `keep: $local.#Resource.local_sensitive_file & {filename: "secret.txt", content: pw.result}\n`,
  });
  assert.equal((await pravo(root, ["init"])).code, 0);
  const s = await connect(root);
  let secret = "";
  try {
    const plan = await call(s, "pravo_plan", { out: "first.plan" });
    assert.equal(plan.structuredContent?.exit_code, 2, text(plan));
    const applied = await call(s, "pravo_apply_plan", { planfile: "first.plan" });
    assert.equal(applied.structuredContent?.exit_code, 0, text(applied));
    secret = String((await records(root)).get("pw")?.attributes.result);
    assert.equal(secret.length, 24);
    // Reads after the apply go through the cache and the state too.
    for (const tool of ["pravo_plan", "pravo_state_log", "pravo_drift"]) {
      assertNoSecret(tool, JSON.stringify(await call(s, tool, {})), secret);
    }
  } finally {
    await s.close();
  }
  // What the configuration asked for holds it, by design.
  assert.equal(await Deno.readTextFile(join(root, "secret.txt")), secret);
  const mine = new Set(["secret.txt", "out/upper.txt", "main.cue"]);
  const seen: string[] = [];
  for (const rel of filesUnder(root)) {
    if (mine.has(rel)) continue;
    seen.push(rel);
    // Bytes as an editor reads them: Latin-1 keeps every byte.
    const body = new TextDecoder("latin1").decode(Deno.readFileSync(join(root, rel)));
    assertNoSecret(rel, body, secret);
  }
  assert.ok(seen.includes(".pravo/state.db"), seen.join(" "));
  assert.ok(seen.some((p) => p.startsWith(".pravo/cache/")), "the evaluation cache was written");
  assert.ok(seen.includes("first.plan"));
});
