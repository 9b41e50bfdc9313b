/**
 * `pravo show --format terraform` on a root of the built-in providers: what
 * it refuses (an approver's key, a stale plan whose skipped nodes changed
 * since) and what it still shows (a stale plan whose records did not), run
 * through the real program. The comparison with Terraform's own output is
 * tests/show_terraform_test.ts.
 *
 * @module
 */

import assert from "node:assert/strict";
import { makeRoot, pravo } from "./_pravo.ts";

const ROOT = (max: number) =>
  `package demo

import rnd "pravo.dev/providers/hashicorp/random"

$random: rnd.#Provider

base: $random.#Resource.random_integer & {min: 1, max: 9, seed: "base"}
other: $random.#Resource.random_integer & {min: 1, max: ${max}, seed: "other"}
`;

async function applied(): Promise<string> {
  const root = await makeRoot({ "main.cue": ROOT(9) });
  assert.equal((await pravo(root, ["init"])).code, 0);
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
  return root;
}

Deno.test("show --format terraform refuses --approver: Terraform's format has no place for an approval", async () => {
  const root = await applied();
  await pravo(root, ["plan", "--out", "a.plan"]);
  const r = await pravo(root, ["show", "a.plan", "--format", "terraform", "--approver", "/x.pub"]);
  assert.equal(r.code, 64, r.stderr);
  assert.match(r.stderr, /Terraform's format has no place for it/);
  assert.equal((await pravo(root, ["show", "a.plan", "--format", "yaml"])).code, 64);
});

Deno.test("show --format terraform shows the nodes a plan skipped from the state, and refuses once they changed", async () => {
  const root = await applied();
  assert.equal((await pravo(root, ["plan", "--out", "a.plan"])).code, 0);
  const fresh = await pravo(root, ["show", "a.plan", "--format", "terraform"]);
  assert.equal(fresh.code, 0, fresh.stderr);
  const doc = JSON.parse(fresh.stdout);
  assert.deepEqual(
    doc.resource_changes.map((r: { address: string; change: { actions: string[] } }) => [
      r.address,
      r.change.actions.join(),
    ]),
    [["random_integer.base", "no-op"], ["random_integer.other", "no-op"]],
  );
  assert.equal(doc.applyable, false);
  // Another change applied since: the plan is stale, and a node it skipped changed.
  await Deno.writeTextFile(`${root}/main.cue`, ROOT(7));
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
  const stale = await pravo(root, ["show", "a.plan", "--format", "terraform"]);
  assert.equal(stale.code, 6, stale.stdout);
  assert.match(stale.stderr, /the records of other, which Terraform's format shows/);
});
