/**
 * Apply's part of `moved`: the records of the plan's renamed nodes move to
 * their new addresses in one transaction, logged as `move`, before any node
 * is applied (lib/plan/moved.ts planned them there).
 *
 * @module
 */

import type { Plan } from "../plan/types.ts";
import type { StateStore, TxMeta } from "../state/store.ts";
import { type Move, moveInTx } from "../state/edit.ts";

/** Moves the records of the plan's moved nodes (those of `only`, when given). */
export async function applyMoves(
  plan: Plan,
  store: StateStore,
  meta: TxMeta,
  only?: readonly string[],
): Promise<Move[]> {
  const moves = plan.nodes
    .filter((n) => n.movedFrom !== undefined && (!only || only.includes(n.address)))
    .map((n) => ({ from: n.movedFrom!, to: n.address }));
  if (moves.length === 0) return [];
  const records = await store.listRecords();
  await store.transaction(meta, (tx) => moveInTx(tx, moves, records));
  return moves;
}
