/**
 * End-to-end: `plan --policy` and `apply --policy` run as real processes in
 * a root with one applied random_integer.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { initApply, makeRoot, pravo, SEED } from "../tests/_pravo.ts";

const KEEP = "summary: destroy: 0\n";

async function appliedRoot(policies: Record<string, string> = {}): Promise<string> {
  const root = await makeRoot({ "main.cue": SEED });
  await Deno.mkdir(join(root, "policy"));
  for (const [name, text] of Object.entries(policies)) {
    await Deno.writeTextFile(join(root, "policy", name), text);
  }
  return await initApply(root);
}

/** `pravo plan --destroy --out OUT --policy POLICY` in `root`. */
function planDestroy(root: string, opts: { out: string; policy: string }) {
  return pravo(root, ["plan", "--destroy", "--out", opts.out, "--policy", opts.policy]);
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("plan --destroy --out x.plan --policy keep.cue exits 5 and writes no plan file", async () => {
  const root = await appliedRoot({ "keep.cue": KEEP });
  const keep = join(root, "policy", "keep.cue");
  const r = await planDestroy(root, { out: "x.plan", policy: keep });
  assert.equal(r.code, 5, r.stderr);
  assert.equal(await exists(join(root, "x.plan")), false);
  assert.match(r.stderr, /Error: Policy "keep.cue" refuses the plan/);
  assert.match(r.stderr, new RegExp(`on ${keep} line 1, column 1`));
  assert.match(r.stderr, /Rule "summary.destroy" failed: .*Nodes: base\./);
  assert.match(r.stdout, /base will be destroyed/);
});

Deno.test("plan --json with a refusing policy prints the judged document, then the error object", async () => {
  const root = await appliedRoot({ "keep.cue": KEEP });
  const r = await pravo(root, ["plan", "--destroy", "--json", "--policy", "policy/keep.cue"]);
  assert.equal(r.code, 5);
  const doc = JSON.parse(r.stdout);
  assert.equal(doc.policies.length, 1);
  assert.equal(doc.policies[0].file, join(root, "policy", "keep.cue"));
  assert.match(doc.policies[0].digest, /^[0-9a-f]{64}$/);
  assert.deepEqual(doc.policies[0].results[0].nodes, ["base"]);
  const err = JSON.parse(r.stderr);
  assert.equal(err.exit_code, 5);
  assert.equal(err.diagnostics[0].range.file, "policy/keep.cue");
});

Deno.test("plan with two policies each violated reports both, with file and line", async () => {
  const root = await appliedRoot({
    "keep.cue": KEEP,
    "two.cue": `// no deletes, and no plan without a reason
rules: no_delete: {
  message: "nothing may be deleted"
  deny: len(nodes) > 0
  nodes: [for n in plan.nodes if n.action == "delete" {n.address}]
}
rules: reason: {
  message: "give a reason"
  deny: plan.reason == ""
}
`,
  });
  const r = await pravo(root, [
    "plan",
    "--destroy",
    "--policy",
    "policy/keep.cue",
    "--policy",
    "policy/two.cue",
  ]);
  assert.equal(r.code, 5);
  assert.match(r.stderr, /Policy "keep.cue" refuses the plan\n\n {2}on policy\/keep.cue line 1/);
  assert.match(
    r.stderr,
    /on policy\/two.cue line 2, column 8:\n\nRule "no_delete" failed: nothing may be deleted\. Nodes: base\./,
  );
  assert.match(
    r.stderr,
    /on policy\/two.cue line 7, column 8:\n\nRule "reason" failed: give a reason\./,
  );
  assert.equal(r.stderr.match(/refuses the plan/g)?.length, 3);
});

Deno.test("plan with an advisory rule warns and goes on; a mandatory one refuses", async () => {
  const root = await appliedRoot({
    "heads_up.cue": `rules: heads_up: {
  level: "advisory"
  message: "this plan destroys something"
  deny: plan.summary.destroy > 0
}
`,
    "must.cue": `rules: heads_up: {
  level: "mandatory"
  message: "this plan destroys something"
  deny: plan.summary.destroy > 0
}
`,
  });
  let r = await planDestroy(root, { out: "x.plan", policy: "policy/heads_up.cue" });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /Warning: Policy "heads_up.cue" warns about the plan/);
  assert.equal(await exists(join(root, "x.plan")), true);
  r = await planDestroy(root, { out: "y.plan", policy: "policy/must.cue" });
  assert.equal(r.code, 5);
  assert.match(r.stderr, /Error: Policy "must.cue" refuses the plan/);
  assert.equal(await exists(join(root, "y.plan")), false);
});

Deno.test("apply PLANFILE --policy refuses a saved plan whole: nothing applied", async () => {
  const root = await appliedRoot({ "keep.cue": KEEP });
  let r = await pravo(root, ["plan", "--destroy", "--out", "x.plan"]);
  assert.equal(r.code, 2, r.stderr);
  r = await pravo(root, ["apply", "x.plan", "--policy", "policy/keep.cue"]);
  assert.equal(r.code, 5);
  assert.match(r.stderr, /Policy "keep.cue" refuses the plan/);
  // base is still in the state: a plan without --destroy has nothing to do
  r = await pravo(root, ["plan"]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  // and the saved plan was not stale: nothing was written
  r = await pravo(root, ["apply", "x.plan"]);
  assert.equal(r.code, 0, r.stderr);
});

Deno.test("apply without a plan file judges the plan it makes", async () => {
  const root = await appliedRoot({ "keep.cue": KEEP });
  const r = await pravo(root, [
    "apply",
    "--destroy",
    "-auto-approve",
    "--policy",
    "policy/keep.cue",
  ]);
  assert.equal(r.code, 5);
  const plan = await pravo(root, ["plan"]);
  assert.equal(plan.code, 0, plan.stdout + plan.stderr);
});

Deno.test("a missing or unparsable policy is refused before anything runs, naming the file", async () => {
  const root = await appliedRoot({ "bad.cue": "summary: {destroy: 0\n" });
  let r = await planDestroy(root, { out: "x.plan", policy: "policy/nope.cue" });
  assert.equal(r.code, 5);
  assert.match(r.stderr, /Error: --policy "policy\/nope.cue": the file does not exist/);
  r = await pravo(root, ["plan", "--out", "x.plan", "--policy", "policy/bad.cue"]);
  assert.equal(r.code, 5);
  assert.match(
    r.stderr,
    /Error: --policy "policy\/bad.cue": it does not compile\n\n {2}on policy\/bad.cue line/,
  );
  r = await pravo(root, ["apply", "--destroy", "-auto-approve", "--policy", "policy/nope.cue"]);
  assert.equal(r.code, 5);
  assert.equal(await exists(join(root, "x.plan")), false);
  assert.equal((await pravo(root, ["plan"])).code, 0);
});
