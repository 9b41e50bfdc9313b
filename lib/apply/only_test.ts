import { strict as assert } from "node:assert";
import { DiagnosticsError } from "../diag/diag.ts";
import type { Action, Plan, PlannedNode } from "../plan/types.ts";
import { resolveOnly } from "./only.ts";

function node(
  address: string,
  action: Action,
  dependencies: string[] = [],
  waits = false,
): PlannedNode {
  return {
    address,
    mode: "managed",
    type: "null_resource",
    name: address,
    provider: "hashicorp/null",
    action,
    before: null,
    after: null,
    afterUnknown: [],
    changed: [],
    replaceBecause: [],
    dependencies,
    sensitive: [],
    config: {},
    templates: waits ? { triggers: { p: "⟦pravo:0⟧" } } : {},
    needsEvaluation: [],
    configDigest: "",
    refreshAge: null,
    lifecycle: {},
    providerConfig: {},
  };
}

function plan(nodes: PlannedNode[]): Plan {
  return { nodes } as unknown as Plan;
}

Deno.test("resolveOnly() without --with-dependencies is exact, and refuses a node waiting for one left out", () => {
  const p = plan([
    node("pause", "create"),
    node("after_pause", "create", ["pause"], true),
    node("other", "create"),
  ]);
  assert.deepEqual(resolveOnly(p, ["other"], false), ["other"]);
  assert.deepEqual(resolveOnly(p, ["after_pause", "pause"], false), ["after_pause", "pause"]);
  assert.throws(() => resolveOnly(p, ["after_pause"], false), (e: DiagnosticsError) => {
    assert.equal(e.kind, "usage");
    assert.equal(e.diagnostics[0].summary, "after_pause needs nodes that --only leaves out");
    assert.match(e.diagnostics[0].detail, /depends on pause \(the plan creates it\)/);
    assert.match(e.diagnostics[0].detail, /Add --with-dependencies/);
    assert.match(e.diagnostics[0].detail, /--only after_pause,pause\./);
    return true;
  });
  // Inputs known now need nothing applied first.
  const known = plan([node("pause", "create"), node("after", "create", ["pause"])]);
  assert.deepEqual(resolveOnly(known, ["after"], false), ["after"]);
});

Deno.test("resolveOnly() with --with-dependencies adds the changes the nodes depend on, transitively", () => {
  const p = plan([
    node("a", "create"),
    node("b", "no-op", ["a"]),
    node("c", "update", ["b"], true),
    node("d", "create", ["c"], true),
    node("lone", "create"),
  ]);
  assert.deepEqual(resolveOnly(p, ["d"], true).sort(), ["a", "c", "d"]);
  assert.deepEqual(resolveOnly(p, ["lone"], true), ["lone"]);
  // An address the plan does not hold is left for apply to refuse.
  assert.deepEqual(resolveOnly(p, ["nope"], true), ["nope"]);
});

Deno.test("resolveOnly() with --with-dependencies takes the dependents of a destroyed node along", () => {
  const p = plan([
    node("base", "delete"),
    node("uses_base", "delete", ["base"]),
    node("kept", "no-op", ["base"]),
  ]);
  assert.deepEqual(resolveOnly(p, ["base"], true).sort(), ["base", "uses_base"]);
});
