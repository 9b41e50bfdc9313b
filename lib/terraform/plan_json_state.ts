/**
 * The state's records as a saved plan saw them, for Terraform's JSON plan:
 * the values of the nodes the plan skipped, and what each record depends
 * on. A plan file does not hold them, so they are read from the state; when
 * the state moved on since the plan was made, the records the JSON plan
 * needs must not have changed since, else it is refused (`stale`).
 *
 * @module
 */

import { DiagnosticsError, error } from "../diag/diag.ts";
import { checkPlanState } from "../plan/planfile.ts";
import type { Plan } from "../plan/types.ts";
import type { StateRecord, StateStore } from "../state/store.ts";

type StateReader = Pick<StateStore, "identity" | "listRecords" | "readLog">;

/** The addresses changed by the transactions after the plan's serial. */
async function changedSince(store: StateReader, serial: number, now: number): Promise<Set<string>> {
  const out = new Set<string>();
  let limit = Math.max(8, 2 * (now - serial));
  for (;;) {
    const log = await store.readLog({ limit });
    for (const e of log) {
      if (e.serial > serial) { for (const c of e.changes) out.add(c.address); }
    }
    const oldest = log[log.length - 1];
    if (log.length < limit || !oldest || oldest.serial <= serial) return out;
    limit *= 4;
  }
}

/**
 * The records of the plan's state, as they were when the plan was made.
 * Refused: a plan of another state (`plan_other_root`), and a stale plan
 * whose skipped nodes or prior records changed since (`stale`).
 */
export async function recordsOfPlan(
  store: StateReader,
  plan: Plan,
  opts: { path: string; rootKey?: string },
): Promise<StateRecord[]> {
  const id = await store.identity();
  checkPlanState(plan, { lineage: id.lineage, rootKey: opts.rootKey }, opts.path);
  const records = await store.listRecords();
  if (id.serial === plan.serial) return records;
  const needed = new Set([
    ...plan.skipped.map((s) => s.address),
    ...plan.nodes.filter((n) => n.before).map((n) => n.address),
  ]);
  const changed = [...await changedSince(store, plan.serial, id.serial)].filter((a) =>
    needed.has(a)
  ).sort();
  if (changed.length === 0) return records;
  throw new DiagnosticsError([
    error(
      `Saved plan "${opts.path}" is stale`,
      `It was made at state serial ${plan.serial}, and the state is now at serial ${id.serial}: the records of ${
        changed.join(", ")
      }, which Terraform's format shows as the plan saw them, have changed since. Make a new plan, and show that.`,
    ),
  ], "stale");
}
