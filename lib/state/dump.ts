/**
 * A root's state as rows, for copying it between stores (`pravo state
 * migrate`): what each store exports and imports. The log's changes are
 * kept as the canonical JSON text the store holds (already redacted under
 * `redactionKey`), so that a copy is byte for byte the same.
 *
 * @module
 */

import {
  changesByEntry,
  entryOfRow,
  type Row,
  type StoredChange,
  storedChangeOfRow,
  type TimeOf,
} from "./rows.ts";
import type { LogEntry, Reservation, StateRecord } from "./store.ts";

/** A root's state as rows (see the module's doc). */
export interface StateDump {
  lineage: string;
  serial: number;
  schemaVersion: number;
  redactionKey: string;
  createdAt: string;
  /** The outputs the last whole apply recorded; null or absent before any. */
  outputs?: Record<string, unknown> | null;
  records: StateRecord[];
  /** Oldest first. */
  log: DumpedEntry[];
  reservations: Reservation[];
}

/** A log entry of a {@linkcode StateDump}: its changes as stored, without its id (each store's own). */
export interface DumpedEntry extends Omit<LogEntry, "id" | "changes"> {
  changes: StoredChange[];
}

/**
 * The dumped log from the rows of `log_entries` (oldest first) and of
 * `log_changes` (in entry and sequence order).
 */
export function dumpedLog(
  entries: readonly Row[],
  changes: readonly Row[],
  time: TimeOf,
): DumpedEntry[] {
  const byEntry = changesByEntry(changes, storedChangeOfRow);
  return entries.map((e) => ({
    ...entryOfRow(e, time),
    changes: byEntry.get(String(e.id)) ?? [],
  }));
}
