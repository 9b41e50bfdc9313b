import assert from "node:assert/strict";
import { join } from "node:path";
import { DiagnosticsError } from "../lib/diag/diag.ts";
import { checkAbsolutePolicyPath, loadPolicy } from "./mod.ts";

async function refusal(text: string | null, name = "p.cue"): Promise<DiagnosticsError> {
  const dir = await Deno.makeTempDir({ prefix: "pravo-policy-" });
  if (text !== null) await Deno.writeTextFile(join(dir, name), text);
  try {
    await loadPolicy(name, { cwd: dir });
  } catch (e) {
    if (e instanceof DiagnosticsError) return e;
    throw e;
  }
  throw new Error("the policy was not refused");
}

Deno.test("loadPolicy() reads, digests and lists the rules with their lines", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pravo-policy-" });
  await Deno.writeTextFile(
    join(dir, "keep.cue"),
    `package keep

import "strings"

summary: destroy: 0
_prefix: "prod"
rules: named: {
  deny: len([for n in plan.nodes if strings.HasPrefix(n.address, _prefix) {n}]) > 0
}
rules: {
  other: deny: false
}
`,
  );
  const p = await loadPolicy("keep.cue", { cwd: dir });
  assert.equal(p.file, join(dir, "keep.cue"));
  assert.equal(p.name, "keep.cue");
  assert.match(p.digest, /^[0-9a-f]{64}$/);
  assert.deepEqual(p.rules.map((r) => [r.rule, r.kind, r.line]), [
    ["summary.destroy", "constraint", 5],
    ["named", "rule", 7],
    ["other", "rule", 11],
  ]);
});

Deno.test("loadPolicy() refuses a missing file, naming it", async () => {
  const e = await refusal(null, "nope.cue");
  assert.equal(e.kind, "policy");
  assert.equal(e.diagnostics[0].summary, '--policy "nope.cue": the file does not exist');
});

Deno.test("loadPolicy() refuses a syntax error with its line", async () => {
  const e = await refusal("summary: {\n  destroy: 0\n");
  assert.equal(e.kind, "policy");
  assert.equal(e.diagnostics[0].summary, '--policy "p.cue": it does not compile');
  assert.equal(e.diagnostics[0].range?.file, "p.cue");
});

Deno.test("loadPolicy() refuses an unknown top-level field with a suggestion", async () => {
  const e = await refusal("\nsumary: destroy: 0\n");
  assert.equal(e.diagnostics[0].range?.line, 2);
  assert.match(
    e.diagnostics[0].detail,
    /"sumary" is not a field of the plan document.*Did you mean "summary"\?/,
  );
});

Deno.test("loadPolicy() refuses a reference that does not resolve", async () => {
  const e = await refusal("summary: destroy: 0\nrules: r: deny: plann.summary.add > 0\n");
  assert.match(e.diagnostics[0].detail, /reference "plann" not found/);
  assert.equal(e.diagnostics[0].range?.line, 2);
});

Deno.test("loadPolicy() refuses a rule without deny, and a wrong level", async () => {
  let e = await refusal('rules: r: message: "x"\n');
  assert.match(e.diagnostics[0].detail, /rules.r.deny: cannot convert incomplete value "bool"/);
  e = await refusal('rules: r: {level: "mandatry", deny: true}\n');
  assert.match(e.diagnostics[0].detail, /rules.r.level: must be "mandatory" or "advisory"/);
});

Deno.test("loadPolicy() refuses a non-builtin import and a declared plan", async () => {
  let e = await refusal('import "example.com/x"\n\nsummary: destroy: 0\n');
  assert.match(e.diagnostics[0].detail, /not a CUE builtin package/);
  e = await refusal("plan: {}\n");
  assert.match(e.diagnostics[0].detail, /"plan" stands for the plan document/);
});

Deno.test("checkAbsolutePolicyPath() refuses a relative path with the server's message", () => {
  assert.equal(checkAbsolutePolicyPath("/srv/keep.cue"), undefined);
  assert.equal(
    checkAbsolutePolicyPath("policy/keep.cue")?.summary,
    '--policy "policy/keep.cue": the server needs an absolute path',
  );
});
