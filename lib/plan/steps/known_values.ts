/**
 * The values an evaluation of the plan is given as known, so that
 * references to them are concrete: the state's (as refreshed), what data
 * sources read, and, round after round, what the plan itself changes of
 * them. A node's plan can make some of its values unknown (a replace: all
 * of them; an update: those it recomputes), which its dependents then see as
 * unknown; or give values that differ from the state's and are known now,
 * which its dependents then see instead, as Terraform's read the planned
 * state.
 *
 * @module
 */

import type { AttrPath } from "../../cue/secrets.ts";
import type { StateRecord } from "../../state/store.ts";
import { sensitivePathsOf } from "../../secrets/paths.ts";
import { knownValuesOf } from "../known.ts";
import { hasUnknown } from "../node_values.ts";
import type { Attrs, PlannedNode } from "../types.ts";
import type { Registry } from "../../providers/registry.ts";

/** Known values by address, and the sensitive paths among them. */
export interface KnownValues {
  known: Map<string, Attrs>;
  /**
   * The secrets among the values: whatever the evaluation computes from them
   * is marked sensitive (lib/cue/secrets.ts).
   */
  secrets: Map<string, AttrPath[]>;
}

/** What the plan's own changes do to the known values, through the rounds. */
export interface PlanChanges {
  /** By address, the values (top-level names) the node's plan makes unknown. */
  lostKnown: ReadonlyMap<string, ReadonlySet<string>>;
  /** By address, the values the node's plan gives that are known and differ from the state's. */
  plannedKnown: ReadonlyMap<string, Attrs>;
}

/** The known values of the managed records, with their attributes as refreshed (`prior`). */
export function knownFromState(
  records: ReadonlyMap<string, StateRecord>,
  prior: ReadonlyMap<string, Attrs | null>,
  registry: Registry,
): KnownValues {
  const known = new Map<string, Attrs>();
  const secrets = new Map<string, AttrPath[]>();
  for (const rec of records.values()) {
    const p = prior.get(rec.address);
    if (rec.mode === "managed" && p) {
      const computed = knownValuesOf({ ...rec, attributes: p }, registry);
      known.set(rec.address, computed);
      secrets.set(
        rec.address,
        sensitivePathsOf(rec, registry.findType).filter((x) => String(x[0]) in computed),
      );
    }
  }
  return { known, secrets };
}

/**
 * The known values of one round's evaluation: the state's, less those the
 * plan makes unknown and with those it gives, and what the data sources read.
 */
export function roundKnown(
  state: KnownValues,
  round: PlanChanges & {
    dataRead: ReadonlyMap<string, Attrs>;
    dataSecrets: KnownValues["secrets"];
  },
): KnownValues {
  const known = new Map<string, Attrs>();
  for (const [a, v] of state.known) {
    const lost = round.lostKnown.get(a);
    const kept = lost ? Object.fromEntries(Object.entries(v).filter(([n]) => !lost.has(n))) : v;
    const given = round.plannedKnown.get(a);
    known.set(a, given ? { ...kept, ...given } : kept);
  }
  for (const [a, v] of round.dataRead) known.set(a, v);
  return { known, secrets: new Map([...state.secrets, ...round.dataSecrets]) };
}

/**
 * What a round's plan changes of the known values that earlier rounds did not
 * already: the entries of {@linkcode PlanChanges} to replace (each whole).
 * Empty when nothing more changes, and the plan is made.
 */
export function planChanges(
  planned: readonly PlannedNode[],
  values: PlanChanges & { known: ReadonlyMap<string, Attrs> },
): { lostKnown: Map<string, Set<string>>; plannedKnown: Map<string, Attrs> } {
  const { known } = values;
  const lostKnown = new Map<string, Set<string>>();
  const plannedKnown = new Map<string, Attrs>();
  // Nodes whose computed values become unknown: their dependents may change.
  for (const p of planned) {
    if (p.mode !== "managed" || !known.has(p.address)) continue;
    if (p.action !== "replace" && p.afterUnknown.length === 0) continue;
    const names = p.after === null
      ? new Set(Object.keys(known.get(p.address)!))
      : new Set(p.afterUnknown.map((x) => x.split(/[.[]/)[0]));
    const had = values.lostKnown.get(p.address);
    if (had && [...names].every((n) => had.has(n))) continue;
    lostKnown.set(p.address, new Set([...(had ?? []), ...names]));
  }
  // Computed values the plan knows and that differ from the state's.
  for (const p of planned) {
    if (p.mode !== "managed" || !known.has(p.address) || p.after === null) continue;
    if (p.action !== "update" && p.action !== "replace") continue;
    const lost = lostKnown.get(p.address) ?? values.lostKnown.get(p.address);
    const after = p.after as Attrs;
    const given = { ...values.plannedKnown.get(p.address) };
    let more = false;
    for (const [name, v] of Object.entries(known.get(p.address)!)) {
      if (lost?.has(name) || !(name in after) || after[name] === undefined) continue;
      if (hasUnknown(after[name])) continue;
      const now = name in given ? given[name] : v;
      if (JSON.stringify(now) === JSON.stringify(after[name])) continue;
      given[name] = after[name];
      more = true;
    }
    if (more) plannedKnown.set(p.address, given);
  }
  return { lostKnown, plannedKnown };
}
