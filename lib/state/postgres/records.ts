/**
 * The PostgreSQL store's records: the rows of the `records` table of a root
 * (sensitive values sealed), and the root's outputs, kept in its row of
 * `roots`.
 *
 * @module
 */

import { asIso, recordOfRow, type Row } from "../rows.ts";
import type { RecordInput, StateRecord } from "../store.ts";
import type { RecordColumns } from "../tx_base.ts";
import type { Q } from "./connect.ts";

/** A root's rows, reached through `q` (the pool or a transaction). */
export interface RootSql {
  q: Q;
  rootId: string;
}

/** A record as a row of the `records` table holds it (sensitive values sealed). */
export function toRecord(row: Row): StateRecord {
  return recordOfRow(row, asIso);
}

/** The record at `address`, as stored; undefined when there is none. */
export async function recordAt(
  { q, rootId }: RootSql,
  address: string,
): Promise<StateRecord | undefined> {
  const [row] = await q`
    SELECT * FROM records WHERE root_id = ${rootId} AND address = ${address}`;
  return row ? toRecord(row) : undefined;
}

/** Every record, as stored, by address (code unit order, as SQLite's). */
export async function allRecords({ q, rootId }: RootSql): Promise<StateRecord[]> {
  const rows = await q`
    SELECT * FROM records WHERE root_id = ${rootId} ORDER BY address COLLATE "C"`;
  return rows.map(toRecord);
}

/** Every address that has a record, sorted. */
export async function allAddresses({ q, rootId }: RootSql): Promise<string[]> {
  const rows = await q`
    SELECT address FROM records WHERE root_id = ${rootId} ORDER BY address COLLATE "C"`;
  return rows.map((r) => String(r.address));
}

/** The columns that say which paths of the record at `address` are sensitive. */
export async function storedPaths(
  { q, rootId }: RootSql,
  address: string,
): Promise<Row | undefined> {
  const [row] = await q`
    SELECT sensitive_paths, provider, type, mode FROM records
    WHERE root_id = ${rootId} AND address = ${address}`;
  return row;
}

/**
 * Writes a record, creating it or replacing all but its creation time; the
 * columns that say which of its paths were sensitive before come back with
 * it (a data-modifying CTE's statement sees the rows as they were),
 * undefined when it is new.
 */
export async function upsertRecord(
  { q, rootId }: RootSql,
  w: { record: RecordInput; columns: RecordColumns },
): Promise<Row | undefined> {
  const { record: r, columns: c } = w;
  const [old] = await q`
    WITH old AS (
      SELECT sensitive_paths, provider, type, mode FROM records
      WHERE root_id = ${rootId} AND address = ${r.address}
    ), up AS (
    INSERT INTO records (root_id, address, mode, type, provider, attributes, sensitive_paths,
      dependencies, config_digest, created_at, updated_at, refreshed_at, refresh_age,
      provider_data)
    VALUES (${rootId}, ${r.address}, ${r.mode}, ${r.type}, ${r.provider}, ${c.attributes},
      ${JSON.stringify(r.sensitivePaths)},
      ${JSON.stringify(r.dependencies)}, ${r.configDigest}, ${r.createdAt ?? c.now}, ${c.now},
      ${r.refreshedAt ?? c.now}, ${r.refreshAge}, ${c.providerData})
    ON CONFLICT (root_id, address) DO UPDATE SET mode = excluded.mode, type = excluded.type,
      provider = excluded.provider, attributes = excluded.attributes,
      sensitive_paths = excluded.sensitive_paths, dependencies = excluded.dependencies,
      config_digest = excluded.config_digest, updated_at = excluded.updated_at,
      refreshed_at = excluded.refreshed_at, refresh_age = excluded.refresh_age,
      provider_data = excluded.provider_data
    RETURNING 1)
    SELECT (SELECT sensitive_paths FROM old) AS sensitive_paths,
      (SELECT provider FROM old) AS provider, (SELECT type FROM old) AS type,
      (SELECT mode FROM old) AS mode, (SELECT count(*) FROM up) AS n`;
  return old.sensitive_paths === null ? undefined : old;
}

/** Removes the record at `address`; true when there was one. */
export async function deleteRecord({ q, rootId }: RootSql, address: string): Promise<boolean> {
  const r = await q`DELETE FROM records WHERE root_id = ${rootId} AND address = ${address}`;
  return r.count > 0;
}

/** Sets the refresh time of the records at `addresses`. */
export async function markRefreshed(
  { q, rootId }: RootSql,
  opts: { addresses: string[]; at: string },
): Promise<void> {
  await q`
    UPDATE records SET refreshed_at = ${opts.at}
    WHERE root_id = ${rootId}
      AND address IN (SELECT jsonb_array_elements_text(${
    JSON.stringify(opts.addresses)
  }::text::jsonb))`;
}

/** The root's outputs; null before any. */
export async function readOutputs({ q, rootId }: RootSql): Promise<Record<string, unknown> | null> {
  const [r] = await q`SELECT outputs FROM roots WHERE id = ${rootId}`;
  return r?.outputs == null ? null : JSON.parse(String(r.outputs));
}

/** Sets the root's outputs. */
export async function writeOutputs(
  { q, rootId }: RootSql,
  outputs: Record<string, unknown>,
): Promise<void> {
  await q`UPDATE roots SET outputs = ${JSON.stringify(outputs)} WHERE id = ${rootId}`;
}
