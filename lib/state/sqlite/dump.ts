/**
 * A SQLite state as a {@linkcode StateDump}, and back, for `pravo state
 * migrate`: exported in one transaction, imported into a new file in one
 * transaction as it was stored (sealed values stay sealed, the log stays
 * redacted under the same key).
 *
 * @module
 */

import { DatabaseSync } from "node:sqlite";
import { DiagnosticsError, error } from "../../diag/diag.ts";
import { canonicalJson } from "../../secrets/redact.ts";
import { providerDataColumn } from "../../secrets/seal.ts";
import { dumpedLog, type StateDump } from "../dump.ts";
import { asText, reservationOfRow } from "../rows.ts";
import { allRecords } from "./records.ts";
import { insertReservation } from "./reservations.ts";
import { SqliteStore } from "./store.ts";

/** Every row of the SQLite state at `path`, read in one transaction. */
export function exportFile(path: string): StateDump {
  const db = new DatabaseSync(path);
  try {
    db.exec("BEGIN");
    const meta: Record<string, string> = {};
    for (const r of db.prepare("SELECT key, value FROM meta").all()) {
      meta[String(r.key)] = String(r.value);
    }
    const records = allRecords(db);
    const changes = db.prepare("SELECT * FROM log_changes ORDER BY entry_id, seq").all();
    const entries = db.prepare("SELECT * FROM log_entries ORDER BY id").all();
    const reservations = db.prepare(
      `SELECT r.*, (SELECT json_group_array(address) FROM
          (SELECT address FROM reservation_addresses WHERE reservation_id = r.id
           ORDER BY address)) AS addresses
       FROM reservations r ORDER BY r.created, r.id`,
    ).all().map((r) => reservationOfRow(r, asText));
    db.exec("COMMIT");
    return {
      lineage: meta.lineage,
      serial: Number(meta.serial),
      schemaVersion: Number(meta.schema_version),
      redactionKey: meta.redaction_key,
      createdAt: meta.created_at ?? new Date(0).toISOString(),
      outputs: meta.outputs === undefined ? null : JSON.parse(meta.outputs),
      records,
      log: dumpedLog(entries, changes, asText),
      reservations,
    };
  } finally {
    db.close();
  }
}

/**
 * Writes `dump` into a new SQLite state at `path`: the store makes the file
 * and the schema, then one transaction puts the rows in. A file that holds a
 * state already is refused; a copy that fails half-way removes its file.
 */
export async function importFile(path: string, dump: StateDump): Promise<void> {
  let existing = false;
  try {
    await Deno.stat(path);
    existing = true;
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  if (existing) {
    const s = await SqliteStore.open(path).catch(() => undefined);
    const id = s ? await s.identity() : undefined;
    await s?.close();
    throw new DiagnosticsError([
      error(
        "The target already holds a state",
        `"${path}" exists${id ? ` and holds lineage ${id.lineage} at serial ${id.serial}` : ""}. ` +
          "Nothing was copied. Move the file away, or give another sqlite:PATH.",
      ),
    ], "error");
  }
  const made = await SqliteStore.open(path, { create: true });
  await made.close();
  const db = new DatabaseSync(
    path,
    { timeout: 5000 } as ConstructorParameters<
      typeof DatabaseSync
    >[1],
  );
  try {
    db.exec("BEGIN IMMEDIATE");
    const setMeta = db.prepare("UPDATE meta SET value = ? WHERE key = ?");
    setMeta.run(dump.lineage, "lineage");
    setMeta.run(String(dump.serial), "serial");
    setMeta.run(dump.redactionKey, "redaction_key");
    setMeta.run(dump.createdAt, "created_at");
    if (dump.outputs != null) {
      db.prepare("INSERT INTO meta (key, value) VALUES ('outputs', ?)").run(
        JSON.stringify(dump.outputs),
      );
    }
    const rec = db.prepare(
      `INSERT INTO records (address, mode, type, provider, attributes, sensitive_paths,
         dependencies, config_digest, created_at, updated_at, refreshed_at, refresh_age,
         provider_data)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const r of dump.records) {
      rec.run(
        r.address,
        r.mode,
        r.type,
        r.provider,
        canonicalJson(r.attributes),
        JSON.stringify(r.sensitivePaths),
        JSON.stringify(r.dependencies),
        r.configDigest,
        r.createdAt,
        r.updatedAt,
        r.refreshedAt,
        r.refreshAge,
        providerDataColumn(undefined, dump.lineage, r),
      );
    }
    const entry = db.prepare(
      `INSERT INTO log_entries
         (serial, at, actor, reason, command, plan_id, plan_actor, plan_reason, run_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const change = db.prepare(
      `INSERT INTO log_changes (entry_id, seq, address, action, before, after)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    for (const e of dump.log) {
      const id = entry.run(
        e.serial,
        e.at,
        e.actor,
        e.reason,
        e.command,
        e.planId,
        e.planActor ?? null,
        e.planReason ?? null,
        e.run ?? null,
      ).lastInsertRowid;
      e.changes.forEach((c, seq) => change.run(id, seq, c.address, c.action, c.before, c.after));
    }
    for (const r of dump.reservations) insertReservation(db, r);
    db.exec("COMMIT");
  } catch (e) {
    db.close();
    for (const suffix of ["", "-wal", "-shm", "-journal"]) {
      await Deno.remove(path + suffix).catch(() => {});
    }
    throw e;
  }
  db.close();
}
