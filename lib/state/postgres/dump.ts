/**
 * A root's rows in a PostgreSQL database as a {@linkcode StateDump}, and
 * back, for `pravo state migrate`: exported in one snapshot, imported in one
 * transaction as they were stored (sealed values stay sealed, the log stays
 * redacted under the same key).
 *
 * @module
 */

import { DiagnosticsError, error } from "../../diag/diag.ts";
import type { PostgresLocation } from "../../config/location.ts";
import { canonicalJson } from "../../secrets/redact.ts";
import { providerDataColumn } from "../../secrets/seal.ts";
import { dumpedLog, type StateDump } from "../dump.ts";
import { asIso } from "../rows.ts";
import { SCHEMA_VERSION } from "../store.ts";
import { connect, type TxSql } from "./connect.ts";
import { guard } from "./errors.ts";
import { allRecords, type RootSql } from "./records.ts";
import { addressesOf, insertReservation, toReservation } from "./reservations.ts";
import { migrate } from "./schema.ts";
import type { Sql } from "./connect.ts";

/**
 * Every row of the root `rootId`: identity, records, the log as stored
 * (already redacted), reservations and the redaction key, read in one
 * snapshot.
 */
export async function exportRoot(sql: Sql, rootId: string): Promise<StateDump> {
  return await sql.begin("ISOLATION LEVEL REPEATABLE READ READ ONLY", async (q) => {
    const [root] = await q`SELECT * FROM roots WHERE id = ${rootId}`;
    const records = await allRecords({ q, rootId });
    const entries = await q`
      SELECT * FROM log_entries WHERE root_id = ${rootId} ORDER BY id`;
    const changes = await q`
      SELECT c.* FROM log_changes c JOIN log_entries e ON e.id = c.entry_id
      WHERE e.root_id = ${rootId} ORDER BY c.entry_id, c.seq`;
    const reservations = (await q`
      SELECT r.*, ${addressesOf(q)} AS addresses FROM reservations r
      WHERE r.root_id = ${rootId} ORDER BY r.created, r.id COLLATE "C"`)
      .map(toReservation);
    return {
      lineage: String(root.lineage),
      serial: Number(root.serial),
      schemaVersion: SCHEMA_VERSION,
      redactionKey: String(root.redaction_key),
      createdAt: asIso(root.created_at),
      outputs: root.outputs == null ? null : JSON.parse(String(root.outputs)),
      records,
      log: dumpedLog(entries, changes, asIso),
      reservations,
    };
  }) as StateDump;
}

/**
 * Writes `dump` as the state of `where.rootKey`, in one transaction;
 * refuses when the database holds that root key, or that lineage, already.
 */
export async function importRoot(where: PostgresLocation, dump: StateDump): Promise<void> {
  const sql = connect(where);
  try {
    await guard(async () => {
      await migrate(sql, where);
      await sql.begin(async (q) => {
        await refuseHeld(q, { where, dump });
        // Copied as stored: sealed values stay sealed (bound to the lineage,
        // which goes along); a copy from a state not sealed yet is sealed
        // when first opened.
        const [{ id }] = await q`
          INSERT INTO roots (key, lineage, serial, redaction_key, created_at, outputs)
          VALUES (${where.rootKey}, ${dump.lineage}, ${dump.serial}, ${dump.redactionKey},
                  ${dump.createdAt},
                  ${dump.outputs == null ? null : JSON.stringify(dump.outputs)})
          RETURNING id`;
        await importRows({ q, rootId: String(id) }, dump);
      });
    }, { where, doing: "write" });
  } finally {
    await sql.end({ timeout: 1 }).catch(() => {});
  }
}

/** Refuses a database that holds the root key, or the lineage, already. */
async function refuseHeld(
  q: TxSql,
  target: { where: PostgresLocation; dump: StateDump },
): Promise<void> {
  const { where, dump } = target;
  const [byKey] = await q`SELECT lineage FROM roots WHERE key = ${where.rootKey}`;
  const [byLineage] = await q`SELECT key FROM roots WHERE lineage = ${dump.lineage}`;
  if (!byKey && !byLineage) return;
  throw new DiagnosticsError([
    error(
      "The target already holds this root",
      byKey
        ? `${where.path} already has a state for the root key "${where.rootKey}" ` +
          `(lineage ${byKey.lineage}). Nothing was copied. Choose another root key ` +
          "with ?root=KEY, or migrate to another database."
        : `${where.path} already holds lineage ${dump.lineage}, under the root key ` +
          `"${byLineage.key}". Nothing was copied: this state was migrated there ` +
          "before. Point the root at it instead.",
    ),
  ], "error");
}

/** The dump's records, log and reservations, as rows of the root. */
async function importRows(root: RootSql & { q: TxSql }, dump: StateDump): Promise<void> {
  const { q, rootId } = root;
  for (const chunk of chunks(dump.records, 500)) {
    await q`INSERT INTO records ${
      q(chunk.map((r) => ({
        root_id: rootId,
        address: r.address,
        mode: r.mode,
        type: r.type,
        provider: r.provider,
        attributes: canonicalJson(r.attributes),
        sensitive_paths: JSON.stringify(r.sensitivePaths),
        dependencies: JSON.stringify(r.dependencies),
        config_digest: r.configDigest,
        created_at: r.createdAt,
        updated_at: r.updatedAt,
        refreshed_at: r.refreshedAt,
        refresh_age: r.refreshAge,
        provider_data: providerDataColumn(undefined, dump.lineage, r),
      })))
    }`;
  }
  for (const e of dump.log) {
    const [entry] = await q`
      INSERT INTO log_entries
        (root_id, serial, at, actor, reason, command, plan_id, plan_actor, plan_reason,
         run_id)
      VALUES (${rootId}, ${e.serial}, ${e.at}, ${e.actor}, ${e.reason}, ${e.command},
              ${e.planId}, ${e.planActor ?? null}, ${e.planReason ?? null},
              ${e.run ?? null})
      RETURNING id`;
    if (e.changes.length === 0) continue;
    await q`INSERT INTO log_changes ${
      q(e.changes.map((c, seq) => ({ entry_id: entry.id, seq, ...c })))
    }`;
  }
  for (const r of dump.reservations) await insertReservation(root, r);
}

function* chunks<T>(list: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < list.length; i += size) yield list.slice(i, i + size);
}
