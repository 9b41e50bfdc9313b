/**
 * Issue 10, hole 11: `lifecycle: {prevent_destroy: true}` must stop a
 * destroy plan, as Terraform's does, not only a replacement. An agent asks
 * `pravo_plan` for a destroy plan; an operator runs `apply --destroy`.
 */

import assert from "node:assert/strict";
import { call, connect, pravo, text } from "../mcp/_client.ts";
import { appliedRoot, records } from "../_pravo.ts";

const ROOT = `package demo

import rnd "pravo.dev/providers/hashicorp/random"

$random: rnd.#Provider

keep: $random.#Resource.random_integer & {
	min: 1, max: 9, seed: "keep"
	lifecycle: {prevent_destroy: true}
}
other: $random.#Resource.random_integer & {min: 1, max: 9, seed: "other"}
`;

Deno.test("pravo_plan with destroy is refused for a node with prevent_destroy: no plan file, nothing to apply", async () => {
  const root = await appliedRoot({ "main.cue": ROOT });
  const s = await connect(root, { script: true });
  try {
    const r = await call(s, "pravo_plan", { destroy: true, out: "d.plan" });
    assert.equal(r.isError, true);
    assert.equal(r.structuredContent?.exit_code, 1, text(r));
    assert.match(text(r), /keep is protected from destruction/);
    assert.match(text(r), /--destroy would destroy it/);
    await assert.rejects(Deno.stat(`${root}/d.plan`));
  } finally {
    await s.close();
  }
  assert.deepEqual([...(await records(root)).keys()], ["keep", "other"]);
});

Deno.test("apply -auto-approve --destroy refuses, names the file and line, and destroys nothing", async () => {
  const root = await appliedRoot({ "main.cue": ROOT });
  const r = await pravo(root, ["apply", "-auto-approve", "--destroy"]);
  assert.equal(r.code, 1, r.stdout);
  assert.match(r.stderr, /Error: keep is protected from destruction/);
  assert.match(r.stderr, /on main\.cue line 7, column 1, in keep/);
  assert.deepEqual([...(await records(root)).keys()], ["keep", "other"]);
  const plan = await pravo(root, ["plan", "--destroy"]);
  assert.equal(plan.code, 1);
});

Deno.test("a node removed from the configuration has no lifecycle left: it is destroyed, as Terraform does", async () => {
  const root = await appliedRoot({ "main.cue": ROOT });
  await Deno.writeTextFile(
    `${root}/main.cue`,
    ROOT.replace(/keep: [\s\S]*?\n}\n/, ""),
  );
  const r = await pravo(root, ["apply", "-auto-approve"]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual([...(await records(root)).keys()], ["other"]);
});
