/**
 * The plan's first step: what the state holds. Its identity (what the plan
 * is made against), its records at the addresses the plan gives them (a
 * record a `moved` entry renames is planned at its new address), and the
 * kind of each, which types their known values in the evaluations.
 *
 * @module
 */

import type { Sources } from "../../cue/loader.ts";
import type { StateIdentity, StateRecord, StateStore } from "../../state/store.ts";
import { plannedMoves, withMoves } from "../moved.ts";
import type { KnownKind } from "../session.ts";

/** What the plan starts from. */
export interface StateRead {
  identity: StateIdentity;
  /** The records, by the address the plan gives them. */
  records: Map<string, StateRecord>;
  /** By new address, the old address of each record that moves. */
  moves: Map<string, string>;
  /** The kind of each record, by its address in the plan. */
  knownKinds: Map<string, KnownKind>;
}

/**
 * Reads the state's identity and records, and makes the root's moves (none
 * in a plan that destroys). Throws a DiagnosticsError for a move that cannot
 * be made (lib/plan/moved.ts).
 */
export async function readState(
  sources: Sources,
  store: Pick<StateStore, "identity" | "listRecords">,
  opts: { tags: Record<string, string>; destroy?: boolean },
): Promise<StateRead> {
  const identity = await store.identity();
  const records = new Map((await store.listRecords()).map((r) => [r.address, r]));
  const moves = opts.destroy
    ? new Map<string, string>()
    : await plannedMoves(sources, records, opts.tags);
  withMoves(records, moves);
  const knownKinds = new Map<string, KnownKind>([...records.values()].map((r) => [r.address, r]));
  return { identity, records, moves, knownKinds };
}
