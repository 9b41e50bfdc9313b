/**
 * The planner: loads the root, refreshes what is due, diffs the
 * configuration against the state and decides an action for every node.
 *
 * `makePlan` runs the steps of lib/plan/steps/ in order, each a function
 * with its inputs and its output: read the state (and the moves), refresh,
 * the rounds of evaluation and planning, the providers' checks, the moves
 * and the deletes, what refuses the plan, sensitivity, why each node is in
 * the plan (or skipped), reservations, outputs, the plan.
 *
 * Values known from the state are unified back into the configuration so
 * that references to them are concrete. A node that will be replaced loses
 * its known values, which may make its dependents change too; the planner
 * evaluates again until nothing more changes (lib/plan/steps/rounds.ts).
 *
 * @module
 */

import { type Diagnostic, DiagnosticsError } from "../diag/diag.ts";
import type { Sources } from "../cue/loader.ts";
import type { StateStore } from "../state/store.ts";
import { locatedIn } from "./located.ts";
import { markMoved } from "./moved.ts";
import type { PlanOptions } from "./options.ts";
import { planSession } from "./session.ts";
import type { Plan } from "./types.ts";
import { validateNodes } from "./validate_nodes.ts";
import { assemblePlan } from "./steps/assemble.ts";
import { withDeletes } from "./steps/deletes.ts";
import { explainNodes } from "./steps/explain.ts";
import { planOutputs } from "./steps/outputs.ts";
import { readState } from "./steps/read_state.ts";
import { refreshRecords } from "./steps/refresh.ts";
import {
  protectedFromDestruction,
  settleDiagnostics,
  undeclaredConfigurations,
  unknownReplaceTargets,
} from "./steps/refusals.ts";
import { checkReservations } from "./steps/reservations.ts";
import { planRounds } from "./steps/rounds.ts";
import { propagateSensitivity } from "./steps/sensitivity.ts";

export type { PlanOptions, RefreshMode } from "./options.ts";

/** Makes a plan. Throws DiagnosticsError for an invalid spec (exit 3) or other errors. */
export async function makePlan(
  sources: Sources,
  store: StateStore,
  opts: PlanOptions,
): Promise<{ plan: Plan; diagnostics: Diagnostic[] }> {
  const now = opts.now ?? (() => new Date());
  const state = await readState(sources, store, opts);
  const providers = planSession(sources, { ...opts, given: opts.session }, state);
  const located = locatedIn(sources);
  const refreshed = await refreshRecords(state.records, {
    session: providers.session,
    refresh: opts.refresh ?? "age",
    now,
    root: opts.root,
    located,
    registry: sources.registry,
  });
  const rounds = await planRounds(sources, { opts, state, refreshed, providers, located });
  const { spec } = rounds;
  // The providers' checks of the values, once, as validate makes them (exit 3).
  const checked = validateNodes(spec, opts.root);
  if (checked.some((d) => d.severity === "error")) {
    throw new DiagnosticsError(checked, "invalid");
  }
  markMoved(rounds.planned, state.moves);
  const planned = withDeletes(rounds.planned, { ...state, spec, refreshed, destroy: opts.destroy });
  const diagnostics = settleDiagnostics([
    ...refreshed.diagnostics,
    ...rounds.diagnostics,
    ...checked,
    ...unknownReplaceTargets(planned, opts.replace),
    ...protectedFromDestruction(planned, spec),
    ...undeclaredConfigurations(planned, spec),
  ]);
  propagateSensitivity(planned, spec.sentinels);
  const skipped = explainNodes(planned, {
    ...state,
    refreshed: refreshed.refreshed,
    sentinels: spec.sentinels,
    full: opts.full,
    destroy: opts.destroy,
  });
  await checkReservations(planned, store, { actor: opts.actor, explain: opts.explainReservations });
  const outputs = planOutputs(spec, { planned, destroy: opts.destroy });
  const outputsBefore = await store.readOutputs();
  const plan = assemblePlan(sources, {
    opts,
    createdAt: now(),
    identity: state.identity,
    spec,
    planned,
    skipped,
    outputs: { ...outputs, outputsBefore },
  });
  return { plan, diagnostics };
}
