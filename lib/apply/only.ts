/**
 * `apply --only A,B` (pravo's `-target`), with or without the nodes they
 * depend on.
 *
 * `--only` applies exactly the nodes named: a reviewed plan is applied in
 * part only as far as the operator (or the agent, through
 * `pravo_apply_plan`'s `only`) names it. `--with-dependencies` adds what
 * Terraform's `-target` adds by default: the changes of the plan that those
 * nodes depend on, transitively (and for a node destroyed, the nodes
 * destroyed with it that depend on it, which must go first).
 *
 * Without it, a node whose inputs are known only once a dependency the plan
 * changes is applied is refused before anything is applied, with the flag
 * to add, instead of failing halfway through.
 *
 * @module
 */

import { DiagnosticsError, error } from "../diag/diag.ts";
import type { Plan, PlannedNode } from "../plan/types.ts";

const ACTING = new Set(["create", "update", "replace", "delete", "read", "open"]);
const VERB: Record<string, string> = {
  create: "creates",
  update: "updates",
  replace: "replaces",
  delete: "destroys",
  read: "reads",
  open: "opens",
};

/**
 * The addresses `--only` applies: those named, with the changes they depend
 * on when `withDependencies`. Addresses the plan does not hold are left for
 * apply to refuse.
 */
export function resolveOnly(plan: Plan, only: string[], withDependencies: boolean): string[] {
  const byAddr = new Map(plan.nodes.map((n) => [n.address, n]));
  const dependents = new Map<string, PlannedNode[]>();
  for (const n of plan.nodes) {
    for (const d of n.dependencies) dependents.set(d, [...(dependents.get(d) ?? []), n]);
  }
  if (!withDependencies) {
    refuseMissingInputs(only, byAddr);
    return only;
  }
  const out = new Set(only);
  const stack = only.filter((a) => byAddr.has(a));
  const seen = new Set(stack);
  while (stack.length) {
    const n = byAddr.get(stack.pop()!)!;
    // A node destroyed goes after those that depend on it: they go with it.
    const next = n.action === "delete"
      ? (dependents.get(n.address) ?? []).filter((d) => d.action === "delete")
      : n.dependencies.map((d) => byAddr.get(d)).filter((d): d is PlannedNode =>
        d !== undefined && d.action !== "delete"
      );
    for (const d of next) {
      if (seen.has(d.address)) continue;
      seen.add(d.address);
      stack.push(d.address);
      if (ACTING.has(d.action)) out.add(d.address);
    }
  }
  return [...out];
}

/**
 * Refuses, before anything is applied, a node named by `--only` whose inputs
 * wait for a dependency that the plan changes and `--only` leaves out.
 */
function refuseMissingInputs(only: string[], byAddr: Map<string, PlannedNode>): void {
  const chosen = new Set(only);
  const problems = [];
  for (const a of only) {
    const n = byAddr.get(a);
    if (!n || n.action === "delete" || n.action === "no-op") continue;
    if (Object.keys(n.templates).length === 0 && n.needsEvaluation.length === 0) continue;
    const waiting = n.dependencies.filter((d) => {
      const dep = byAddr.get(d);
      return dep !== undefined && !chosen.has(d) &&
        ["create", "replace", "update"].includes(dep.action);
    });
    if (waiting.length === 0) continue;
    const what = waiting.map((d) => `${d} (the plan ${VERB[byAddr.get(d)!.action]} it)`);
    problems.push(error(
      `${a} needs nodes that --only leaves out`,
      `${a} depends on ${what.join(", ")}, and some of its inputs are known only once ` +
        `${waiting.length === 1 ? "that node is" : "those nodes are"} applied. Nothing was ` +
        "applied. Add --with-dependencies to apply them with it (as Terraform's -target " +
        `does), or name them too: --only ${[a, ...waiting].join(",")}.`,
      { address: a },
    ));
  }
  if (problems.length) throw new DiagnosticsError(problems, "usage");
}
