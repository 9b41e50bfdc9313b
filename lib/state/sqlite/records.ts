/**
 * The SQLite store's records: the rows of the `records` table (sensitive
 * values sealed), and the root's outputs, kept in `meta`.
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import { asText, recordOfRow, type Row } from "../rows.ts";
import type { RecordInput, StateRecord } from "../store.ts";
import type { RecordColumns } from "../tx_base.ts";
import { readMeta } from "./schema.ts";

/** A record as a row of the `records` table holds it (sensitive values sealed). */
export function toRecord(row: Row): StateRecord {
  return recordOfRow(row, asText);
}

/** The record at `address`, as stored; undefined when there is none. */
export function recordAt(db: DatabaseSync, address: string): StateRecord | undefined {
  const row = db.prepare("SELECT * FROM records WHERE address = ?").get(address);
  return row ? toRecord(row) : undefined;
}

/** Every record, as stored, by address. */
export function allRecords(db: DatabaseSync): StateRecord[] {
  return db.prepare("SELECT * FROM records ORDER BY address").all().map(toRecord);
}

/** Every address that has a record, sorted. */
export function allAddresses(db: DatabaseSync): string[] {
  return db.prepare("SELECT address FROM records ORDER BY address").all().map((r) =>
    String(r.address)
  );
}

/** The columns that say which paths of the record at `address` are sensitive. */
export function storedPaths(db: DatabaseSync, address: string): Row | undefined {
  return db.prepare(
    "SELECT sensitive_paths, provider, type, mode FROM records WHERE address = ?",
  ).get(address);
}

/** Writes a record, creating it or replacing all but its creation time. */
export function upsertRecord(db: DatabaseSync, r: RecordInput, cols: RecordColumns): void {
  db.prepare(
    `INSERT INTO records (address, mode, type, provider, attributes, sensitive_paths,
       dependencies, config_digest, created_at, updated_at, refreshed_at, refresh_age,
       provider_data)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (address) DO UPDATE SET mode = excluded.mode, type = excluded.type,
       provider = excluded.provider, attributes = excluded.attributes,
       sensitive_paths = excluded.sensitive_paths, dependencies = excluded.dependencies,
       config_digest = excluded.config_digest, updated_at = excluded.updated_at,
       refreshed_at = excluded.refreshed_at, refresh_age = excluded.refresh_age,
       provider_data = excluded.provider_data`,
  ).run(
    r.address,
    r.mode,
    r.type,
    r.provider,
    cols.attributes,
    JSON.stringify(r.sensitivePaths),
    JSON.stringify(r.dependencies),
    r.configDigest,
    r.createdAt ?? cols.now,
    cols.now,
    r.refreshedAt ?? cols.now,
    r.refreshAge,
    cols.providerData,
  );
}

/** Removes the record at `address`; true when there was one. */
export function deleteRecord(db: DatabaseSync, address: string): boolean {
  return Number(db.prepare("DELETE FROM records WHERE address = ?").run(address).changes) > 0;
}

/** Sets the refresh time of the records at `addresses`. */
export function markRefreshed(db: DatabaseSync, opts: { addresses: string[]; at: string }): void {
  db.prepare(
    "UPDATE records SET refreshed_at = ? WHERE address IN (SELECT value FROM json_each(?))",
  ).run(opts.at, JSON.stringify(opts.addresses));
}

/** The root's outputs; null before any. */
export function readOutputs(db: DatabaseSync): Record<string, unknown> | null {
  const v = readMeta(db).outputs;
  return v === undefined ? null : JSON.parse(v);
}

/** Sets the root's outputs. */
export function writeOutputs(db: DatabaseSync, outputs: Record<string, unknown>): void {
  db.prepare(
    `INSERT INTO meta (key, value) VALUES ('outputs', ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  ).run(JSON.stringify(outputs));
}
