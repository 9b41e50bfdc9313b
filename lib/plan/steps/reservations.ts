/**
 * A plan may not change what someone else reserved (`pravo plan --reserve`):
 * the nodes it creates, updates, replaces, deletes or moves must not be
 * covered by another actor's live reservation.
 *
 * @module
 */

import { DiagnosticsError } from "../../diag/diag.ts";
import type { StateStore } from "../../state/store.ts";
import { reservationError } from "../../state/reservation.ts";
import type { PlannedNode } from "../types.ts";

const CHANGES = new Set(["create", "update", "replace", "delete"]);

/** The addresses a plan changes: those of its changing nodes, and both of each move. */
export function changingAddresses(planned: readonly PlannedNode[]): string[] {
  return planned.filter((p) => CHANGES.has(p.action) || p.movedFrom)
    .flatMap((p) => p.movedFrom ? [p.address, p.movedFrom] : [p.address]);
}

/**
 * Asks the store for the reservations of others that cover what the plan
 * changes; throws a DiagnosticsError (locked) when there are any, unless
 * `explain` (`pravo why` reports them instead).
 */
export async function checkReservations(
  planned: readonly PlannedNode[],
  store: Pick<StateStore, "findReservationConflicts">,
  by: { actor: string; explain?: boolean },
): Promise<void> {
  const conflicts = await store.findReservationConflicts(changingAddresses(planned), {
    actor: by.actor,
  });
  if (conflicts.length && !by.explain) {
    throw new DiagnosticsError(
      conflicts.map((c) => reservationError(c, "plan")),
      "locked",
    );
  }
}
