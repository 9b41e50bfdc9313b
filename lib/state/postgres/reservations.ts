/**
 * The PostgreSQL store's reservations: a row of `reservations` each, with
 * the root's id, and a row of `reservation_addresses` for each address it
 * holds (removed with it).
 *
 * @module
 */

import { asIso, conflictsOfRows, reservationOfRow } from "../rows.ts";
import type { Reservation, ReservationConflict } from "../store.ts";
import type { Q } from "./connect.ts";
import type { RootSql } from "./records.ts";

/** The reservation's addresses as a JSON array, sorted. */
export function addressesOf(q: Q) {
  return q`COALESCE((SELECT json_agg(address ORDER BY address COLLATE "C")
    FROM reservation_addresses WHERE reservation_id = r.id), '[]'::json)`;
}

/** A reservation as a row of `reservations` holds it, with its `addresses`. */
export function toReservation(row: Record<string, unknown>): Reservation {
  return reservationOfRow(row, asIso);
}

/** Writes a new reservation of the root. */
export async function insertReservation({ q, rootId }: RootSql, r: Reservation): Promise<void> {
  await q`
    INSERT INTO reservations (id, root_id, plan_id, actor, reason, created, expires)
    VALUES (${r.id}, ${rootId}, ${r.planId}, ${r.actor}, ${r.reason}, ${r.created},
            ${r.expires})`;
  if (r.addresses.length) {
    await q`INSERT INTO reservation_addresses ${
      q(r.addresses.map((address) => ({ reservation_id: r.id, address })))
    }`;
  }
}

/** Removes the root's reservation `id`; false when there was none. */
export async function deleteReservation({ q, rootId }: RootSql, id: string): Promise<boolean> {
  const r = await q`DELETE FROM reservations WHERE id = ${id} AND root_id = ${rootId}`;
  return r.count > 0;
}

/** The root's reservations, oldest first; those expired at `now` only when asked. */
export async function listReservations(
  { q, rootId }: RootSql,
  opts: { now: string; includeExpired?: boolean },
): Promise<Reservation[]> {
  const rows = await q`
    SELECT r.*, ${addressesOf(q)} AS addresses
    FROM reservations r
    WHERE r.root_id = ${rootId}
      ${opts.includeExpired ? q`` : q`AND r.expires > ${opts.now}`}
    ORDER BY r.created, r.id COLLATE "C"`;
  return rows.map(toReservation);
}

/**
 * The root's reservations live at `now` that cover any of `addresses` and
 * belong to someone else: neither made by `actor` nor for `planId`.
 */
export async function findReservationConflicts(
  { q, rootId }: RootSql,
  ask: { addresses: string[]; actor: string; planId?: string; now: string },
): Promise<ReservationConflict[]> {
  const rows = await q`
    SELECT r.*, a.address AS hit, ${addressesOf(q)} AS addresses
    FROM reservation_addresses a JOIN reservations r ON r.id = a.reservation_id
    WHERE r.root_id = ${rootId}
      AND a.address IN (SELECT jsonb_array_elements_text(${
    JSON.stringify(ask.addresses)
  }::text::jsonb))
      AND r.expires > ${ask.now} AND r.actor <> ${ask.actor}
      AND r.plan_id <> ${ask.planId ?? ""}
    ORDER BY r.created, r.id COLLATE "C", a.address COLLATE "C"`;
  return conflictsOfRows(rows, asIso);
}
