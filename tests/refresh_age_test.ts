/**
 * A `refresh_age` set, changed or removed on a node that is already
 * applied takes effect at the next apply, which has nothing else to do:
 * it is kept in the node's record (pravo's bookkeeping, no provider call),
 * where `drift --due` and the next plan read it. Found by the feature
 * matrix: the record kept the age the node was created with.
 */
import { strict as assert } from "node:assert";
import { makeRoot, pravo } from "./_pravo.ts";

const main = (lifecycle: string) =>
  `package demo

import rnd "pravo.dev/providers/hashicorp/random"

$random: rnd.#Provider

n: $random.#Resource.random_integer & {min: 1, max: 9${lifecycle}}
`;

async function ageOf(root: string): Promise<unknown> {
  const r = await pravo(root, ["state", "show", "n", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout).record.refresh_age;
}

Deno.test("a refresh_age changed on an applied node is recorded by the next apply, with nothing else to do", async () => {
  const root = await makeRoot({ "main.cue": main("") });
  try {
    assert.equal((await pravo(root, ["init"])).code, 0);
    assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
    assert.equal(await ageOf(root), null);
    const result = async () =>
      JSON.parse((await pravo(root, ["state", "show", "n", "--json"])).stdout).record.attributes
        .result;
    const before = await result();

    await Deno.writeTextFile(`${root}/main.cue`, main(', lifecycle: refresh_age: "1s"'));
    const plan = await pravo(root, ["plan"]);
    assert.equal(plan.code, 0, "no change to the object");
    const apply = await pravo(root, ["apply", "-auto-approve"]);
    assert.equal(apply.code, 0, apply.stderr);
    assert.equal(await ageOf(root), "1s");
    assert.equal(await result(), before, "the object is as it was");
    await new Promise((r) => setTimeout(r, 1200));
    const due = JSON.parse((await pravo(root, ["--json", "drift", "--due"])).stdout);
    assert.deepEqual(due.due.map((d: { address: string }) => d.address), ["n"]);

    // Through a saved plan too, and back to none.
    await Deno.writeTextFile(`${root}/main.cue`, main(""));
    assert.equal((await pravo(root, ["plan", "--out", "x.plan"])).code, 0);
    const saved = await pravo(root, ["apply", "x.plan"]);
    assert.equal(saved.code, 0, saved.stderr);
    assert.equal(await ageOf(root), null);
    const none = JSON.parse((await pravo(root, ["--json", "drift", "--due"])).stdout);
    assert.equal(none.total_due, 0);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
