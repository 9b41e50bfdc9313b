/**
 * Incremental plans never differ from full plans in what they change: 50
 * random edits of a generated root, each planned both ways, some applied.
 */

import { builtinWorkspace } from "../workspace/workspace_testing.ts";
import { BUILTIN_ONLY } from "../workspace/workspace_testing.ts";
import assert from "node:assert/strict";
import { readRoot } from "../cue/loader.ts";
import { openStore } from "../state/open.ts";
import { makePlan } from "./planner.ts";
import { applyPlan } from "../apply/apply.ts";
import type { Plan } from "./types.ts";

/** A small deterministic PRNG, so that a failure can be replayed. */
function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

interface Shape {
  ints: { min: number; max: number; from?: number }[];
  files: { content: string; from?: number }[];
}

function render(shape: Shape): string {
  const lines = [
    "package inc",
    "",
    'import rnd "pravo.dev/providers/hashicorp/random"',
    'import loc "pravo.dev/providers/hashicorp/local"',
    "",
    "$random: rnd.#Provider",
    "$local: loc.#Provider",
    "",
  ];
  shape.ints.forEach((n, i) => {
    const max = n.from !== undefined && n.from < i ? `i${n.from}.result + ${n.max}` : String(n.max);
    lines.push(`i${i}: $random.#Resource.random_integer & {min: ${n.min}, max: ${max}}`);
  });
  shape.files.forEach((f, i) => {
    const content = f.from !== undefined && f.from < shape.ints.length
      ? `"${f.content}-\\(i${f.from}.result)"`
      : `"${f.content}"`;
    lines.push(
      `f${i}: $local.#Resource.local_file & {filename: "out/f${i}.txt", content: ${content}}`,
    );
  });
  return lines.join("\n") + "\n";
}

function changes(plan: Plan) {
  return plan.nodes.filter((n) => n.action !== "no-op").map((n) => ({
    address: n.address,
    action: n.action,
    changed: n.changed,
    after: n.after,
    afterUnknown: n.afterUnknown,
  })).sort((a, b) => (a.address < b.address ? -1 : 1));
}

Deno.test("incremental and full plans agree on 50 random edits of a generated root", async () => {
  const root = await Deno.makeTempDir({ prefix: "pravo-inc-" });
  const random = prng(20261129);
  const pick = (n: number) => Math.floor(random() * n);
  const shape: Shape = {
    ints: Array.from(
      { length: 12 },
      (_, i) => ({ min: 1, max: 50 + i, from: i > 0 ? pick(i) : undefined }),
    ),
    files: Array.from({ length: 8 }, (_, i) => ({ content: `c${i}`, from: pick(14) })),
  };
  const ctx = { root, state: undefined };
  const store = await openStore(ctx, { create: true });
  const opts = { root, tags: {}, actor: "test", reason: "incremental" };
  try {
    let skippedSeen = 0;
    for (let round = 0; round < 50; round++) {
      await Deno.writeTextFile(`${root}/main.cue`, render(shape));
      const sources = readRoot(root, BUILTIN_ONLY);
      assert.ok(sources.ok, JSON.stringify(sources.diagnostics));
      const inc = await makePlan(sources.value, store, opts);
      const full = await makePlan(sources.value, store, { ...opts, full: true });
      assert.deepEqual(changes(inc.plan), changes(full.plan), `round ${round}: the plans differ`);
      assert.equal(full.plan.skipped.length, 0);
      skippedSeen += inc.plan.skipped.length;
      for (const s of inc.plan.skipped) {
        assert.ok(full.plan.nodes.some((n) => n.address === s.address && n.action === "no-op"));
      }
      if (round % 3 !== 2) {
        const r = await applyPlan(inc.plan, store, {
          workspace: builtinWorkspace(),
          actor: "test",
          reason: "incremental",
        });
        assert.ok(r.ok, JSON.stringify(r.outcomes.filter((o) => o.status !== "applied")));
      }
      // One random edit.
      const kind = pick(6);
      if (kind === 0) shape.ints[pick(shape.ints.length)].max += 1 + pick(5);
      else if (kind === 1) shape.ints[pick(shape.ints.length)].min = pick(3);
      else if (kind === 2) shape.files[pick(shape.files.length)].content = `e${round}`;
      else if (kind === 3) shape.files[pick(shape.files.length)].from = pick(shape.ints.length + 2);
      else if (kind === 4 && shape.files.length > 2) shape.files.pop();
      else shape.files.push({ content: `n${round}`, from: pick(shape.ints.length) });
    }
    assert.ok(skippedSeen > 0, "some plans skipped nodes");
  } finally {
    await store.close();
    await Deno.remove(root, { recursive: true });
  }
});
