import { builtinWorkspace } from "../workspace/workspace_testing.ts";
import assert from "node:assert/strict";
import { stats } from "../cue/engine.ts";
import { plannedRoot } from "./_testing.ts";
import { applyPlan } from "./apply.ts";

/** Plans and applies a root of package `pkg` with these nodes on the random provider. */
async function planAndApply(nodes: string, pkg = "chain") {
  const cue = `package ${pkg}

import rnd "pravo.dev/providers/hashicorp/random"

$random: rnd.#Provider

${nodes}`;
  await using r = await plannedRoot(cue, { prefix: "pravo-reevaluate-test-" });
  const { plan, store } = r;
  const before = stats.evaluated + stats.cached;
  const result = await applyPlan(plan, store, {
    workspace: builtinWorkspace(),
    actor: "alice",
    reason: "test",
  });
  const evaluations = stats.evaluated + stats.cached - before;
  assert.ok(result.ok, JSON.stringify(result.outcomes));
  const records = new Map((await store.listRecords()).map((r) => [r.address, r.attributes]));
  return { plan, evaluations, records };
}

Deno.test("a number interpolated into a string is filled in at apply, with no evaluation again", async () => {
  const { plan, evaluations, records } = await planAndApply(
    `n0: $random.#Resource.random_integer & {min: 1, max: 100, seed: "start"}
n1: $random.#Resource.random_integer & {min: 1, max: 100, seed: "\\(n0.result)"}
n2: $random.#Resource.random_integer & {min: 1, max: 100, seed: "s-\\(n1.result)/\\(n0.id)"}
`,
  );
  for (const a of ["n1", "n2"]) {
    const n = plan.nodes.find((x) => x.address === a)!;
    assert.deepEqual(n.needsEvaluation, [], `${a} waits for no evaluation`);
    assert.deepEqual(Object.keys(n.templates), ["seed"]);
  }
  assert.equal(evaluations, 0);
  assert.equal(records.get("n1")!.seed, String(records.get("n0")!.result));
  assert.equal(
    records.get("n2")!.seed,
    `s-${records.get("n1")!.result}/${records.get("n0")!.id}`,
  );
});

Deno.test("arithmetic on an unknown number inside a string is still evaluated again", async () => {
  const { plan, evaluations, records } = await planAndApply(
    `n0: $random.#Resource.random_integer & {min: 1, max: 100, seed: "start"}
n1: $random.#Resource.random_integer & {min: 1, max: 100, seed: "\\(n0.result * 3)"}
n2: $random.#Resource.random_integer & {min: 1, max: 100, seed: "\\(-n0.result)"}
`,
  );
  const n1 = plan.nodes.find((x) => x.address === "n1")!;
  assert.deepEqual(n1.needsEvaluation, ["seed"]);
  assert.ok(evaluations >= 1);
  assert.equal(records.get("n1")!.seed, String((records.get("n0")!.result as number) * 3));
  assert.equal(records.get("n2")!.seed, String(-(records.get("n0")!.result as number)));
});

Deno.test("nodes that wait for the same values share one evaluation again", async () => {
  const { plan, evaluations, records } = await planAndApply(
    `base: $random.#Resource.random_integer & {min: 1, max: 100, seed: "start"}
a: $random.#Resource.random_integer & {min: base.result * 2, max: 1000, seed: "a"}
b: $random.#Resource.random_integer & {min: base.result * 3, max: 1000, seed: "b"}
c: $random.#Resource.random_integer & {min: base.result * 4, max: 1000, seed: "c"}
d: $random.#Resource.random_integer & {min: c.result * 2, max: 3000, seed: "d"}
`,
    "fan",
  );
  for (const a of ["a", "b", "c", "d"]) {
    assert.deepEqual(plan.nodes.find((x) => x.address === a)!.needsEvaluation, ["min"]);
  }
  // One evaluation again for a, b and c (base applied), one more for d (c
  // applied); each may take two CUE evaluations (plain, and with sentinels
  // for what is still unknown). One for each of the four nodes took 8.
  assert.ok(evaluations <= 4, `${evaluations} evaluations`);
  const base = records.get("base")!.result as number;
  assert.equal(records.get("a")!.min, base * 2);
  assert.equal(records.get("b")!.min, base * 3);
  assert.equal(records.get("c")!.min, base * 4);
  assert.equal(records.get("d")!.min, (records.get("c")!.result as number) * 2);
});

Deno.test("a constant added to an unknown number is filled in at apply, with no evaluation again", async () => {
  const { plan, evaluations, records } = await planAndApply(
    `n0: $random.#Resource.random_integer & {min: 1, max: 100, seed: "start"}
n1: $random.#Resource.random_integer & {min: n0.result + 1, max: n0.result + 100, seed: "a"}
n2: $random.#Resource.random_integer & {min: n1.result - 1, max: n1.result + 10, seed: "\\(n1.result + 7)"}
`,
  );
  for (const a of ["n1", "n2"]) {
    assert.deepEqual(plan.nodes.find((x) => x.address === a)!.needsEvaluation, [], a);
  }
  assert.equal(evaluations, 0);
  const r0 = records.get("n0")!.result as number, r1 = records.get("n1")!.result as number;
  assert.equal(records.get("n1")!.min, r0 + 1);
  assert.equal(records.get("n1")!.max, r0 + 100);
  assert.equal(records.get("n2")!.min, r1 - 1);
  assert.equal(records.get("n2")!.seed, String(r1 + 7));
});

Deno.test("a value that reaches a node through another node's input waits for that node, not for the one it came from", async () => {
  const { plan, records } = await planAndApply(
    `size: $random.#Resource.random_integer & {min: 12, max: 20, seed: "size"}
pw: $random.#Resource.random_password & {length: size.result, special: false}
pet: $random.#Resource.random_pet & {length: pw.length - 10, separator: "_"}
`,
  );
  for (const a of ["pet"]) {
    const n = plan.nodes.find((x) => x.address === a)!;
    assert.deepEqual(n.dependencies, ["pw"]);
    assert.deepEqual(n.templates, {}, `${a}: its length comes through pw`);
    assert.deepEqual(n.needsEvaluation, ["length"]);
  }
  const size = records.get("size")!.result as number;
  assert.equal(records.get("pet")!.length, size - 10);
});
