/**
 * What apply prints when its output is piped (CI), as Terraform does: the
 * plan, one line per node as it starts and ends, `Still creating...` on a
 * long node, the outputs at the end; never a secret. `--json` stays one
 * document.
 */

import assert from "node:assert/strict";
import { makeRoot, pravo } from "./_pravo.ts";

const ROOT = `package demo

import (
	rnd "pravo.dev/providers/hashicorp/random"
	tm "pravo.dev/providers/hashicorp/time"
	lc "pravo.dev/providers/hashicorp/local"
)

$random: rnd.#Provider
$time:   tm.#Provider
$local:  lc.#Provider

base: $random.#Resource.random_integer & {min: 1, max: 9, seed: "base"}
pw:   $random.#Resource.random_password & {length: 16}
// Last, once the others are done: nothing else computes while it waits (a
// bcrypt or an evaluation holds the event loop, and the interval with it).
pause: $time.#Resource.time_sleep & {
	create_duration: "1500ms"
	triggers: {after: note.id, also: secret_file.filename}
}
note: $local.#Resource.local_file & {
	filename: "note.txt"
	content:  "number \\(base.result)\\n"
}
secret_file: $local.#Resource.local_sensitive_file & {filename: "pw.txt", content: pw.result}
outputs: {num: base.result, password: pw.result}
`;

/** Lines of `text` that match `re`, in order. */
const lines = (text: string, re: RegExp) => text.split("\n").filter((l) => re.test(l));

Deno.test("apply -auto-approve piped prints the plan, a line per node, Still creating..., the outputs", async () => {
  const dir = await makeRoot({ "main.cue": ROOT });
  assert.equal((await pravo(dir, ["init"])).code, 0);
  const r = await pravo(dir, ["apply", "-auto-approve"], {
    env: { PRAVO_TEST_PROGRESS_INTERVAL_MS: "200" },
  });
  assert.equal(r.code, 0, r.stderr);
  const out = r.stdout;
  // The plan first, as `plan` prints it.
  assert.ok(out.startsWith("pravo will perform the following actions:\n"), out);
  assert.match(out, /Plan: 5 to add, 0 to change, 0 to replace, 0 to destroy\./);
  assert.ok(out.indexOf("Plan: 5 to add") < out.indexOf("base: Creating..."));
  // One line as each node starts, one as it ends, with the id.
  for (const a of ["base", "pw", "pause", "note", "secret_file"]) {
    assert.equal(lines(out, new RegExp(`^${a}: Creating\\.\\.\\.$`)).length, 1, a);
    assert.equal(lines(out, new RegExp(`^${a}: Creation complete after \\d+s`)).length, 1, a);
  }
  assert.match(out, /^base: Creation complete after \d+s \[id=\d\]$/m);
  // A node that takes long says so, every interval (made short here).
  assert.ok(lines(out, /^pause: Still creating\.\.\. \[\d+s elapsed\]$/).length >= 2, out);
  assert.ok(
    out.indexOf("pause: Still creating") < out.indexOf("pause: Creation complete"),
    out,
  );
  // The summary, then the outputs.
  assert.match(
    out,
    /Apply complete! Resources: 5 added, 0 changed, 0 replaced, 0 destroyed\.\n\nOutputs:\n\nnum {6}= \d\npassword = \(sensitive value\)\n$/,
  );
  // The password is in the state and in pw.txt, and nowhere in what apply printed.
  const password = (await Deno.readTextFile(`${dir}/pw.txt`)).trim();
  assert.equal(password.length, 16);
  assert.ok(!out.includes(password) && !r.stderr.includes(password));
});

Deno.test("apply PLANFILE and destroy print the node lines; --json prints one document and no progress", async () => {
  const dir = await makeRoot({ "main.cue": ROOT.replace('"1500ms"', '"1ms"') });
  assert.equal((await pravo(dir, ["init"])).code, 0);
  assert.equal((await pravo(dir, ["plan", "--out", "x.plan"])).code, 2);
  const saved = await pravo(dir, ["apply", "x.plan"]);
  assert.equal(saved.code, 0, saved.stderr);
  // A saved plan was reviewed already: not printed again (as Terraform).
  assert.match(saved.stdout, /^\w+: Creating\.\.\.\n/);
  assert.ok(!saved.stdout.includes("will perform"));
  assert.match(saved.stdout, /^note: Creation complete after \d+s \[id=[0-9a-f]{40}\]$/m);
  assert.match(saved.stdout, /\n\nOutputs:\n\nnum {6}= \d\n/);

  await Deno.writeTextFile(`${dir}/main.cue`, ROOT.replace("max: 9", "max: 5"));
  const json = await pravo(dir, ["--json", "apply", "-auto-approve"]);
  assert.equal(json.code, 0, json.stderr);
  const doc = JSON.parse(json.stdout);
  assert.equal(doc.ok, true);
  assert.equal(json.stderr, "");

  const gone = await pravo(dir, ["destroy", "-auto-approve"]);
  assert.equal(gone.code, 0, gone.stderr);
  assert.match(gone.stdout, /^base: Destroying\.\.\. \[id=\d\]$/m);
  assert.match(gone.stdout, /^base: Destruction complete after \d+s$/m);
  // The password's id is "none"; the secret file's id is a digest of the secret, not the secret.
  assert.match(gone.stdout, /^pw: Destroying\.\.\. \[id=none\]$/m);
  assert.match(gone.stdout, /Destroy complete! Resources: 5 destroyed\.\n$/);
  // The plan says the outputs go; no list of outputs follows a destroy.
  assert.match(
    gone.stdout,
    /\nChanges to Outputs:\n {2}- num += \d -> null\n {2}- password = \(sensitive value\) -> null\n/,
  );
  assert.ok(!/^Outputs:/m.test(gone.stdout), gone.stdout);
});

Deno.test("a node that fails says so on its line, with the error's summary", async () => {
  const dir = await makeRoot({
    "main.cue": ROOT + `
blocked: $local.#Resource.local_file & {filename: "main.cue/x", content: "x"}
`,
  });
  assert.equal((await pravo(dir, ["init"])).code, 0);
  const r = await pravo(dir, ["apply", "-auto-approve"]);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /^blocked: Creating\.\.\.$/m);
  assert.match(r.stdout, /^blocked: Creation failed after \d+s: .+$/m);
  // No outputs after a failure: the summary ends the output.
  assert.match(r.stdout, /\nApply failed\. [^\n]*\n$/);
});
