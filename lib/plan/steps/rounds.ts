/**
 * The plan's rounds: evaluate the root with the known values, read the data
 * sources that evaluation can read (and evaluate again with what they read),
 * plan every node; when a node's plan changes the values its dependents see
 * (lib/plan/steps/known_values.ts), evaluate and plan again, until nothing
 * more changes (at most 50 rounds).
 *
 * @module
 */

import type { Diagnostic } from "../../diag/diag.ts";
import type { Sources, Spec } from "../../cue/loader.ts";
import type { AttrPath } from "../../cue/secrets.ts";
import type { Locatable } from "../located.ts";
import type { PlanOptions } from "../options.ts";
import type { PlanSession } from "../session.ts";
import type { Attrs, PlannedNode } from "../types.ts";
import { evaluateRound } from "./evaluate.ts";
import { knownFromState, planChanges, roundKnown } from "./known_values.ts";
import { planNodes } from "./plan_nodes.ts";
import { readDataSources } from "./read_data.ts";
import type { StateRead } from "./read_state.ts";
import type { Refreshed } from "./refresh.ts";

/** What the rounds start from. */
export interface RoundsInput {
  opts: PlanOptions;
  /** The state; the kinds of the data sources read are added to its `knownKinds`. */
  state: Pick<StateRead, "records" | "knownKinds">;
  refreshed: Refreshed;
  providers: PlanSession;
  located: (n: Locatable) => (d: Diagnostic) => Diagnostic;
}

/**
 * The last evaluation, every node of it planned, and what the data sources
 * and the providers said through the rounds. Throws a DiagnosticsError for
 * an invalid root (exit 3) or a data source whose read fails.
 */
export async function planRounds(
  sources: Sources,
  input: RoundsInput,
): Promise<{ spec: Spec; planned: PlannedNode[]; diagnostics: Diagnostic[] }> {
  const { opts, state, refreshed, providers, located } = input;
  const { records, knownKinds } = state;
  const fromState = knownFromState(records, refreshed.prior, sources.registry);
  const dataRead = new Map<string, Attrs>();
  const dataSecrets = new Map<string, AttrPath[]>();
  const lostKnown = new Map<string, Set<string>>();
  const plannedKnown = new Map<string, Attrs>();
  const diagnostics: Diagnostic[] = [];
  let spec: Spec | undefined;
  let planned: PlannedNode[] = [];
  for (let round = 0; round < 50; round++) {
    const given = roundKnown(fromState, { lostKnown, plannedKnown, dataRead, dataSecrets });
    const evaluated = await evaluateRound(sources, { ...given, tags: opts.tags, knownKinds });
    const declared = evaluated.declared;
    if (declared) {
      for (const a of [...fromState.known.keys()]) if (!declared.has(a)) fromState.known.delete(a);
    }
    spec = evaluated.spec;
    providers.use(spec);

    // Data sources whose configuration is known are read now.
    const data = await readDataSources(spec, {
      session: providers.session,
      records,
      read: dataRead,
      root: opts.root,
      replace: opts.replace,
      destroy: opts.destroy,
      located,
    });
    diagnostics.push(...data.diagnostics);
    for (const r of data.reads) {
      dataRead.set(r.address, r.attributes);
      knownKinds.set(r.address, r.kind);
      dataSecrets.set(r.address, r.secrets);
    }
    if (data.reads.length) continue;

    const nodes = await planNodes(spec, {
      opts,
      session: providers.session,
      records,
      refreshed,
      dataRead,
      dataSecrets,
      located,
      registry: sources.registry,
    });
    diagnostics.push(...nodes.diagnostics);
    planned = nodes.planned;
    const changes = planChanges(planned, { known: fromState.known, lostKnown, plannedKnown });
    if (changes.lostKnown.size === 0 && changes.plannedKnown.size === 0) break;
    for (const [a, lost] of changes.lostKnown) lostKnown.set(a, lost);
    for (const [a, given] of changes.plannedKnown) plannedKnown.set(a, given);
  }
  if (!spec) throw new Error("bug: no evaluation");
  return { spec, planned, diagnostics };
}
