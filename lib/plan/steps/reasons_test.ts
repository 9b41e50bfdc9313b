import assert from "node:assert/strict";
import { sentinelString } from "../../cue/unknowns.ts";
import type { PlannedNode } from "../types.ts";
import { reasonsFor } from "./reasons.ts";
import { planned, record } from "./_testing.ts";

function reasons(p: PlannedNode, seen: Partial<Parameters<typeof reasonsFor>[1]> = {}) {
  return reasonsFor(p, {
    rec: undefined,
    due: undefined,
    sentinels: [],
    byAddr: new Map(),
    ...seen,
  }).map((r) => `${r.kind}: ${r.detail}`);
}

Deno.test("reasonsFor() tells of a new, a gone, a removed and an unchanged node", () => {
  assert.deepEqual(reasons(planned("a", { action: "create", before: null })), [
    "new: it is not in the state",
  ]);
  assert.deepEqual(reasons(planned("a", { action: "create", replaceBecause: ["gone"] })), [
    "gone: the object was deleted outside pravo (seen on refresh)",
  ]);
  assert.deepEqual(reasons(planned("a", { action: "delete", deleteBecause: "destroy" })), [
    "destroy: --destroy plans to destroy every node",
  ]);
  assert.deepEqual(reasons(planned("a", { action: "delete" })), [
    "removed: it is no longer in the configuration",
  ]);
  assert.deepEqual(reasons(planned("a")), ["unchanged: its configuration matches the state"]);
  assert.deepEqual(reasons(planned("a", { action: "read", mode: "data" })), [
    "data: a data source is read on every plan",
  ]);
});

Deno.test("reasonsFor() tells what a refresh found, and each input that changes and why", () => {
  const rec = record("a", { attributes: { min: 1, max: 9, result: 4 } });
  const p = planned("a", {
    action: "replace",
    before: { min: 1, max: 9, result: 5 },
    config: { min: 2, max: 9 },
    changed: ["min", "max", "seed"],
    replaceBecause: ["min", "requested"],
    templates: { max: `${sentinelString(0)}` },
    sensitive: ["seed"],
    dependencies: ["b"],
  });
  const byAddr = new Map([["b", planned("b", { action: "update" })]]);
  assert.deepEqual(
    reasons(p, {
      rec,
      due: "--refresh all reads every node",
      sentinels: [{ address: "b", attr: "result" }],
      byAddr,
    }),
    [
      "refresh: read from the real world: --refresh all reads every node",
      "drift: the real world differs from the state in result",
      "requested: --replace asks for it",
      "config: min changed: 1 -> 2 (forces replacement)",
      "dependency: max depends on b (update), whose new values are known only after apply",
      "config: seed changed in the configuration",
    ],
  );
});

Deno.test("reasonsFor() does not compare an input computed from a secret", () => {
  const p = planned("a", {
    action: "update",
    changed: ["seed"],
    secretForms: { seed: ["x", "y"] },
    needsEvaluation: ["seed"],
    dependencies: ["pw", "db"],
  });
  const byAddr = new Map([["pw", planned("pw")], ["db", planned("db", { action: "replace" })]]);
  assert.deepEqual(reasons(p, { byAddr }), [
    "dependency: seed depends on db (replace), whose new values are known only after apply",
  ]);
  assert.match(
    reasons(p)[0],
    /^config: seed changed in the configuration, or a secret it is computed from did/,
  );
});
