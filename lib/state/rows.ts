/**
 * From database rows to the store's values: one mapper for both stores,
 * which differ only in how a time comes back (SQLite: the ISO text pravo
 * wrote; PostgreSQL: a `timestamptz`, as a Date or text). Each store keeps
 * only its SQL.
 *
 * @module
 */

import { providerDataFields } from "../secrets/seal.ts";
import type {
  LockInfo,
  LogEntry,
  Mode,
  Reservation,
  ReservationConflict,
  StateRecord,
} from "./store.ts";

/** A row as a driver returns it: column name to value. */
export type Row = Record<string, unknown>;

/** How a store reads a time column back as ISO 8601 text. */
export type TimeOf = (v: unknown) => string;

/** A time column that holds the ISO text pravo wrote (SQLite). */
export const asText: TimeOf = (v) => String(v);

/** A `timestamptz` as pravo writes times: ISO 8601 in UTC, milliseconds (PostgreSQL). */
export const asIso: TimeOf = (v) => (v instanceof Date ? v : new Date(String(v))).toISOString();

/** A text column, or null. */
function textOrNull(v: unknown): string | null {
  return v === null || v === undefined ? null : String(v);
}

/** A JSON column, held as text or already parsed by the driver. */
function json<T>(v: unknown): T {
  return (typeof v === "string" ? JSON.parse(v) : v) as T;
}

/** A record as a row of the `records` table holds it (sensitive values sealed). */
export function recordOfRow(row: Row, time: TimeOf): StateRecord {
  return {
    address: String(row.address),
    mode: String(row.mode) as Mode,
    type: String(row.type),
    provider: String(row.provider),
    attributes: JSON.parse(String(row.attributes)),
    sensitivePaths: JSON.parse(String(row.sensitive_paths)),
    dependencies: JSON.parse(String(row.dependencies)),
    configDigest: String(row.config_digest),
    createdAt: time(row.created_at),
    updatedAt: time(row.updated_at),
    refreshedAt: time(row.refreshed_at),
    refreshAge: textOrNull(row.refresh_age),
    ...providerDataFields(row.provider_data),
  };
}

/** A reservation as a row of the `reservations` table holds it. */
export function reservationOfRow(row: Row, time: TimeOf): Reservation {
  return {
    id: String(row.id),
    addresses: json<string[]>(row.addresses),
    actor: String(row.actor),
    reason: String(row.reason),
    planId: String(row.plan_id),
    created: time(row.created),
    expires: time(row.expires),
  };
}

/** The state lock as a row of the `locks` table holds it; whether it is stale is the store's to say. */
export function lockOfRow(row: Row, time: TimeOf): LockInfo {
  return {
    id: String(row.id),
    actor: String(row.actor),
    reason: String(row.reason),
    command: String(row.command),
    pid: Number(row.pid),
    hostname: String(row.hostname),
    since: time(row.since),
    expires: time(row.expires),
  };
}

/** A change of the log as a row of `log_changes` holds it: its JSON as text, redacted. */
export interface StoredChange {
  address: string;
  action: string;
  before: string | null;
  after: string | null;
}

/** A row of `log_changes` as it is stored. */
export function storedChangeOfRow(c: Row): StoredChange {
  return {
    address: String(c.address),
    action: String(c.action),
    before: textOrNull(c.before),
    after: textOrNull(c.after),
  };
}

/**
 * The rows of `log_changes` by the id of their entry, each made by
 * `change`, in the rows' order.
 */
export function changesByEntry<C>(
  changes: readonly Row[],
  change: (c: Row) => C,
): Map<string, C[]> {
  const byEntry = new Map<string, C[]>();
  for (const c of changes) {
    const key = String(c.entry_id);
    const list = byEntry.get(key) ?? [];
    list.push(change(c));
    byEntry.set(key, list);
  }
  return byEntry;
}

/**
 * Log entries from the rows of `log_entries` (newest first) and the rows of
 * `log_changes` that belong to them (in entry and sequence order).
 */
export function logOfRows(
  entries: readonly Row[],
  changes: readonly Row[],
  time: TimeOf,
): LogEntry[] {
  const byEntry = changesByEntry(changes, (c) => ({
    address: String(c.address),
    action: String(c.action) as LogEntry["changes"][number]["action"],
    before: c.before === null ? null : JSON.parse(String(c.before)),
    after: c.after === null ? null : JSON.parse(String(c.after)),
  }));
  return entries.map((e) => ({
    id: Number(e.id),
    ...entryOfRow(e, time),
    changes: byEntry.get(String(e.id)) ?? [],
  }));
}

/** What a row of `log_entries` says of its entry: all but its id and its changes. */
export function entryOfRow(e: Row, time: TimeOf): Omit<LogEntry, "id" | "changes"> {
  return {
    serial: Number(e.serial),
    at: time(e.at),
    actor: String(e.actor),
    reason: String(e.reason),
    command: String(e.command),
    planId: textOrNull(e.plan_id),
    planActor: textOrNull(e.plan_actor),
    planReason: textOrNull(e.plan_reason),
    run: textOrNull(e.run_id),
  };
}

/**
 * The reservations that hold some of the addresses asked about, from rows
 * of a reservation's columns and the address it holds (`hit`), in the rows'
 * order.
 */
export function conflictsOfRows(rows: readonly Row[], time: TimeOf): ReservationConflict[] {
  const out = new Map<string, ReservationConflict>();
  for (const row of rows) {
    const id = String(row.id);
    let c = out.get(id);
    if (!c) {
      c = { reservation: reservationOfRow(row, time), addresses: [] };
      out.set(id, c);
    }
    c.addresses.push(String(row.hit));
  }
  return [...out.values()];
}
