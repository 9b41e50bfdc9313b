/**
 * The refusal of a change to nodes that someone else reserved: one module
 * that the planner, apply and the state edits share, and that loads nothing
 * of CUE.
 *
 * @module
 */

import { type Diagnostic, error } from "../diag/diag.ts";
import type { ReservationConflict } from "./store.ts";

/** The refusal of a change to nodes that someone else reserved. */
export function reservationError(c: ReservationConflict, what: string): Diagnostic {
  const r = c.reservation;
  return error(
    `Reserved by ${r.actor}`,
    `The ${what} would change ${
      c.addresses.join(", ")
    }, which ${r.actor} reserved for plan ${r.planId} (reservation ${r.id}${
      r.reason ? `: "${r.reason}"` : ""
    }) until ${r.expires}. A reservation is the operators' decision: wait until it is applied or expires, or ask an operator to release it with \`pravo state release ${r.id}\`.`,
    { address: c.addresses[0] },
  );
}
