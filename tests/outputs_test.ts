/**
 * Outputs in plans, as Terraform's "Changes to Outputs": a whole apply
 * records the outputs in the state, and the next plan shows only those that
 * are added, changed or removed, on the human view and in the document
 * (`output_changes`). A plan whose only changes are outputs says so and
 * exits 0; applying it records them. A sensitive output shows only when it
 * appears or goes. `apply --only` records nothing; a destroy removes them.
 * Through the MCP server too.
 */

import assert from "node:assert/strict";
import { appliedRoot, makeRoot, pravo, removing, writeFiles } from "./_pravo.ts";
import { call, connect, text } from "./mcp/_client.ts";

const ROOT = (outputs: string) =>
  `package demo

import rnd "pravo.dev/providers/hashicorp/random"

$random: rnd.#Provider

base: $random.#Resource.random_integer & {min: 1, max: 9, seed: "base"}
pw:   $random.#Resource.random_password & {length: 12}
other: $random.#Resource.random_integer & {min: 1, max: 5, seed: "other"}
outputs: {
${outputs}
}
`;

const FIRST = `	n:      base.result
	label:  "v1"
	secret: pw.result`;

/** The outputs after the first change: n kept, label changed, extra added. */
const SECOND = `	n:      base.result
	label:  "v2"
	extra:  [1, 2]`;

/** The "Changes to Outputs" block of a plan's human view, or "" when it has none. */
function changesBlock(out: string): string {
  const at = out.indexOf("Changes to Outputs:\n");
  if (at < 0) return "";
  return out.slice(at).split("\n\n")[0].trimEnd();
}

/** The lines of the "Changes to Outputs" block below its title; null when there is no block. */
function outputChanges(out: string): string[] | null {
  const [title, ...lines] = changesBlock(out).split("\n");
  return title === "Changes to Outputs:" ? lines : null;
}

/** `pravo plan --no-color` in `root`, asserted to exit `code`: what it printed. */
async function planned(root: string, code: number): Promise<string> {
  const r = await pravo(root, ["plan", "--no-color"]);
  assert.equal(r.code, code, r.stderr);
  return r.stdout;
}

Deno.test("a plan shows only the outputs that change since the last apply", async () => {
  const root = await makeRoot({ "main.cue": ROOT(FIRST) });
  await using _root = removing(root);
  assert.equal((await pravo(root, ["init"])).code, 0);
  // Nothing recorded yet: every output is new.
  const first = await planned(root, 2);
  assert.deepEqual(outputChanges(first), [
    '  + label  = "v1"',
    "  + n      = (known after apply)",
    "  + secret = (known after apply)",
  ]);
  assert.ok(!first.includes("\nOutputs:"), first);
  const applied = await pravo(root, ["apply", "-auto-approve"]);
  assert.equal(applied.code, 0, applied.stderr);

  // Applied: nothing changes, and no output is listed.
  assert.equal(await planned(root, 0), "No changes. The state matches the configuration.\n");
  const doc = JSON.parse((await pravo(root, ["plan", "--json"])).stdout);
  assert.deepEqual(doc.output_changes, {});

  // One output changed, one added, one removed; the sensitive one, kept, is not listed.
  await writeFiles(root, { "main.cue": ROOT(`${SECOND}\n\tsecret: pw.result`) });
  const changed = await planned(root, 0); // outputs alone are no change to objects
  assert.match(changed, /^No changes to objects\. Only outputs change: /);
  assert.deepEqual(outputChanges(changed), ["  + extra = [1,2]", '  ~ label = "v1" -> "v2"']);
  const changedDoc = JSON.parse((await pravo(root, ["plan", "--json"])).stdout);
  assert.deepEqual(changedDoc.output_changes, {
    extra: { action: "create", before: null, after: [1, 2], after_unknown: false },
    label: { action: "update", before: "v1", after: "v2", after_unknown: false },
  });

  // Applying a plan of outputs alone records them, and changes no object.
  const plan = await pravo(root, ["plan", "--out", "o.plan"]);
  assert.equal(plan.code, 0, plan.stderr);
  const serial = JSON.parse((await pravo(root, ["plan", "--json"])).stdout).state.serial;
  const outApply = await pravo(root, ["apply", "o.plan"]);
  assert.equal(outApply.code, 0, outApply.stderr);
  assert.match(outApply.stdout, /Resources: 0 added, 0 changed, 0 replaced, 0 destroyed/);
  const after = JSON.parse((await pravo(root, ["plan", "--json"])).stdout);
  assert.equal(
    after.state.serial,
    serial,
    "recording outputs is no change to the state's objects",
  );
  assert.deepEqual(after.output_changes, {});

  // A removed sensitive output shows as removed, without its value; an
  // output that becomes unknown shows as known after apply.
  await writeFiles(root, {
    "main.cue": ROOT(`${SECOND}\n\to:      other.result`).replace("max: 5", "max: 6"),
  });
  assert.deepEqual(outputChanges(await planned(root, 2)), [
    "  + o      = (known after apply)",
    "  - secret = (sensitive value) -> null",
  ]);

  // apply --only records no outputs: the next plan still lists `o`.
  const only = await pravo(root, ["apply", "-auto-approve", "--only", "other"]);
  assert.equal(only.code, 0, only.stderr);
  const still = await pravo(root, ["plan", "--no-color"]);
  assert.match(changesBlock(still.stdout), /\+ o += \d/);
  assert.match(changesBlock(still.stdout), /- secret = \(sensitive value\) -> null/);

  // A destroy removes every output.
  const destroy = await pravo(root, ["plan", "--destroy", "--no-color"]);
  assert.deepEqual(outputChanges(destroy.stdout), [
    "  - extra  = [1,2] -> null",
    `  - label  = "v2" -> null`,
    `  - n      = ${after.outputs.n} -> null`,
    "  - secret = (sensitive value) -> null",
  ]);
  assert.equal((await pravo(root, ["destroy", "-auto-approve"])).code, 0);
  const empty = JSON.parse((await pravo(root, ["plan", "--destroy", "--json"])).stdout);
  assert.deepEqual(empty.output_changes, {});
});

Deno.test("a sensitive output is not compared: one that changes is not listed, one replaced is unknown", async () => {
  const root = await appliedRoot({
    "main.cue": ROOT(FIRST.replace("pw.result", 'pw.result + "-a"')),
  });
  await using _root = removing(root);
  // Another value computed from the same secret: "(sensitive)" both times.
  await writeFiles(root, { "main.cue": ROOT(FIRST.replace("pw.result", 'pw.result + "-b"')) });
  const same = await pravo(root, ["plan", "--json"]);
  assert.equal(same.code, 0, same.stderr);
  assert.deepEqual(JSON.parse(same.stdout).output_changes, {});
  // A new password: known only after apply, and so listed as changing.
  await writeFiles(root, {
    "main.cue": ROOT(FIRST.replace("pw.result", 'pw.result + "-b"')).replace(
      "length: 12",
      "length: 14",
    ),
  });
  const r = await pravo(root, ["plan", "--json"]);
  assert.equal(r.code, 2, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout).output_changes, {
    secret: { action: "update", before: "(sensitive)", after: null, after_unknown: true },
  });
});

Deno.test("pravo_plan and pravo_show_plan carry the output changes", async () => {
  const root = await appliedRoot({ "main.cue": ROOT(FIRST) });
  await using _root = removing(root);
  await writeFiles(root, { "main.cue": ROOT(FIRST.replace('"v1"', '"v3"')) });
  await using s = await connect(root);
  const planned = await call(s, "pravo_plan", { out: "m.plan" });
  const doc = JSON.parse(text(planned));
  assert.deepEqual(doc.output_changes, {
    label: { action: "update", before: "v1", after: "v3", after_unknown: false },
  });
  const shown = JSON.parse(text(await call(s, "pravo_show_plan", { planfile: "m.plan" })));
  assert.deepEqual(shown.output_changes, doc.output_changes);
});
