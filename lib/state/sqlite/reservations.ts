/**
 * The SQLite store's reservations: a row of `reservations` each, and a row
 * of `reservation_addresses` for each address it holds.
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import { asText, conflictsOfRows, reservationOfRow } from "../rows.ts";
import type { Reservation, ReservationConflict } from "../store.ts";

/** A reservation's columns and its addresses as a JSON array, sorted. */
const WITH_ADDRESSES = `r.*, (SELECT json_group_array(address) FROM
  (SELECT address FROM reservation_addresses WHERE reservation_id = r.id
   ORDER BY address)) AS addresses`;

/** Writes a new reservation. */
export function insertReservation(db: DatabaseSync, r: Reservation): void {
  db.prepare(
    `INSERT INTO reservations (id, plan_id, actor, reason, created, expires)
     VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(r.id, r.planId, r.actor, r.reason, r.created, r.expires);
  const add = db.prepare(
    "INSERT INTO reservation_addresses (reservation_id, address) VALUES (?, ?)",
  );
  for (const a of r.addresses) add.run(r.id, a);
}

/** Removes the reservation `id`; false when there was none. */
export function deleteReservation(db: DatabaseSync, id: string): boolean {
  db.prepare("DELETE FROM reservation_addresses WHERE reservation_id = ?").run(id);
  return Number(db.prepare("DELETE FROM reservations WHERE id = ?").run(id).changes) > 0;
}

/** The reservations, oldest first; those expired at `now` only when asked. */
export function listReservations(
  db: DatabaseSync,
  opts: { now: string; includeExpired?: boolean },
): Reservation[] {
  return db.prepare(
    `SELECT ${WITH_ADDRESSES}
     FROM reservations r ${opts.includeExpired ? "" : "WHERE r.expires > ?"}
     ORDER BY r.created, r.id`,
  ).all(...(opts.includeExpired ? [] : [opts.now])).map((row) => reservationOfRow(row, asText));
}

/**
 * The reservations live at `now` that cover any of `addresses` and belong
 * to someone else: neither made by `actor` nor for `planId`.
 */
export function findReservationConflicts(
  db: DatabaseSync,
  ask: { addresses: string[]; actor: string; planId?: string; now: string },
): ReservationConflict[] {
  const rows = db.prepare(
    `SELECT ${WITH_ADDRESSES}, a.address AS hit
     FROM reservation_addresses a JOIN reservations r ON r.id = a.reservation_id
     WHERE a.address IN (SELECT value FROM json_each(?))
       AND r.expires > ? AND r.actor <> ? AND r.plan_id <> ?
     ORDER BY r.created, r.id, a.address`,
  ).all(JSON.stringify(ask.addresses), ask.now, ask.actor, ask.planId ?? "");
  return conflictsOfRows(rows, asText);
}
