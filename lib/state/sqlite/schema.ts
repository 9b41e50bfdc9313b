/**
 * The SQLite store's schema: its migrations, run in one `BEGIN IMMEDIATE`
 * transaction (a file written by a newer pravo is refused), the `meta`
 * table's key-value pairs, and the sealing of the values a state written
 * before version 3 holds in clear (the part of migration 3 done in JS).
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import { DiagnosticsError, error } from "../../diag/diag.ts";
import { canonicalJson } from "../../secrets/redact.ts";
import { holdsPlainSecret, sealAttributes, type Sealer } from "../../secrets/seal.ts";
import { SCHEMA_VERSION, type StateIdentity } from "../store.ts";
import { REDACTION_KEY } from "../store_base.ts";
import { immediate } from "./connect.ts";
import { toRecord } from "./records.ts";

/** A schema migration: from `version - 1` to `version`. */
export interface Migration {
  version: number;
  description: string;
  sql: string;
}

/** Every migration, in order. The last one's version is the schema version. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: "records, the transaction log, the state lock, reservations",
    sql: `
      CREATE TABLE IF NOT EXISTS meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
      CREATE TABLE records (
        address TEXT PRIMARY KEY,
        mode TEXT NOT NULL,
        type TEXT NOT NULL,
        provider TEXT NOT NULL,
        attributes TEXT NOT NULL,
        sensitive_paths TEXT NOT NULL,
        dependencies TEXT NOT NULL,
        config_digest TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        refreshed_at TEXT NOT NULL,
        refresh_age TEXT
      );
      CREATE TABLE log_entries (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        serial INTEGER NOT NULL UNIQUE,
        at TEXT NOT NULL,
        actor TEXT NOT NULL,
        reason TEXT NOT NULL,
        command TEXT NOT NULL,
        plan_id TEXT
      );
      CREATE TABLE log_changes (
        entry_id INTEGER NOT NULL REFERENCES log_entries(id),
        seq INTEGER NOT NULL,
        address TEXT NOT NULL,
        action TEXT NOT NULL,
        before TEXT,
        after TEXT,
        PRIMARY KEY (entry_id, seq)
      );
      CREATE INDEX log_changes_address ON log_changes(address, entry_id);
      CREATE TRIGGER log_entries_no_update BEFORE UPDATE ON log_entries
        BEGIN SELECT RAISE(ABORT, 'the transaction log is append-only'); END;
      CREATE TRIGGER log_entries_no_delete BEFORE DELETE ON log_entries
        BEGIN SELECT RAISE(ABORT, 'the transaction log is append-only'); END;
      CREATE TRIGGER log_changes_no_update BEFORE UPDATE ON log_changes
        BEGIN SELECT RAISE(ABORT, 'the transaction log is append-only'); END;
      CREATE TRIGGER log_changes_no_delete BEFORE DELETE ON log_changes
        BEGIN SELECT RAISE(ABORT, 'the transaction log is append-only'); END;
      CREATE TABLE locks (
        name TEXT PRIMARY KEY,
        id TEXT NOT NULL,
        actor TEXT NOT NULL,
        reason TEXT NOT NULL,
        command TEXT NOT NULL,
        pid INTEGER NOT NULL,
        hostname TEXT NOT NULL,
        pid_start TEXT,
        since TEXT NOT NULL,
        expires TEXT NOT NULL
      );
      CREATE TABLE reservations (
        id TEXT PRIMARY KEY,
        plan_id TEXT NOT NULL,
        actor TEXT NOT NULL,
        reason TEXT NOT NULL,
        created TEXT NOT NULL,
        expires TEXT NOT NULL
      );
      CREATE TABLE reservation_addresses (
        reservation_id TEXT NOT NULL REFERENCES reservations(id),
        address TEXT NOT NULL,
        PRIMARY KEY (reservation_id, address)
      );
      CREATE INDEX reservation_addresses_address ON reservation_addresses(address);
    `,
  },
  {
    version: 2,
    description: "the log records who made the plan an apply carries out, and why",
    sql: `
      ALTER TABLE log_entries ADD COLUMN plan_actor TEXT;
      ALTER TABLE log_entries ADD COLUMN plan_reason TEXT;
    `,
  },
  {
    version: 3,
    description: "sensitive values sealed with pravo's key (done after the schema, in JS)",
    sql: `INSERT INTO meta (key, value) VALUES ('sealed', '0') ON CONFLICT (key) DO NOTHING;`,
  },
  {
    version: 4,
    description: "a record keeps its type's schema version and the provider's private data",
    sql: `ALTER TABLE records ADD COLUMN provider_data TEXT;`,
  },
  {
    version: 5,
    description: "each log entry names the run of pravo that wrote it (the outputs go in meta)",
    sql: `ALTER TABLE log_entries ADD COLUMN run_id TEXT;`,
  },
];

if (MIGRATIONS[MIGRATIONS.length - 1].version !== SCHEMA_VERSION) {
  throw new Error("bug: MIGRATIONS does not end at SCHEMA_VERSION");
}

/** The `meta` table's pairs (the lineage, the serial, the schema version...); none before it exists. */
export function readMeta(db: DatabaseSync): Record<string, string | undefined> {
  const hasMeta = db.prepare(
    "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'meta'",
  ).get();
  if (!hasMeta) return {};
  const out: Record<string, string> = {};
  for (const r of db.prepare("SELECT key, value FROM meta").all()) {
    out[String(r.key)] = String(r.value);
  }
  return out;
}

/** The lineage, the serial and the schema version, from `meta`. */
export function identityOf(db: DatabaseSync): StateIdentity {
  const meta = readMeta(db);
  return {
    lineage: meta.lineage ?? "",
    serial: Number(meta.serial ?? 0),
    schemaVersion: Number(meta.schema_version ?? 0),
  };
}

function schemaVersion(db: DatabaseSync): number {
  return Number(readMeta(db).schema_version ?? 0);
}

/** Refuses a schema `version` newer than this pravo's, of the file at `path`. */
export function refuseNewer(version: number, path: string): void {
  if (version <= SCHEMA_VERSION) return;
  throw new DiagnosticsError([
    error(
      "The state store was written by a newer pravo",
      `"${path}" has state schema version ${version}; this pravo knows versions up to ` +
        `${SCHEMA_VERSION}. Nothing was changed. Upgrade pravo to the version that wrote ` +
        "this state (or newer), then run the command again.",
    ),
  ], "error");
}

/** Brings the schema up to {@linkcode SCHEMA_VERSION}, in one transaction. */
export function migrate(db: DatabaseSync, path: string): void {
  refuseNewer(schemaVersion(db), path);
  if (schemaVersion(db) === SCHEMA_VERSION) return;
  immediate(db, path, () => {
    const current = schemaVersion(db); // another process may have migrated meanwhile
    refuseNewer(current, path);
    for (const m of MIGRATIONS) {
      if (m.version <= current) continue;
      db.exec(m.sql);
      db.prepare(
        "INSERT INTO meta (key, value) VALUES ('schema_version', ?) " +
          "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
      ).run(String(m.version));
    }
  });
}

/**
 * Seals the sensitive values a state written before version 3 holds in
 * clear, and the key of its log's markers, in one transaction; then empties
 * the write-ahead log and rewrites the file, so that no page keeps the
 * values in clear.
 */
export function sealPlainValues(db: DatabaseSync, opts: { path: string; sealer: Sealer }): void {
  const { path, sealer } = opts;
  const done = immediate(db, path, () => {
    const meta = readMeta(db);
    if (meta.sealed === "1") return false; // another process did it meanwhile
    const lineage = meta.lineage ?? "";
    const update = db.prepare("UPDATE records SET attributes = ? WHERE address = ?");
    for (const row of db.prepare("SELECT * FROM records").all()) {
      const rec = toRecord(row);
      if (!holdsPlainSecret(sealer, rec)) continue;
      update.run(canonicalJson(sealAttributes(sealer, lineage, rec)), rec.address);
    }
    if (meta.redaction_key !== undefined && !meta.redaction_key.startsWith("sealed:")) {
      db.prepare("UPDATE meta SET value = ? WHERE key = 'redaction_key'").run(
        sealer.sealText(lineage, REDACTION_KEY, meta.redaction_key),
      );
    }
    db.prepare(
      "INSERT INTO meta (key, value) VALUES ('sealed', '1') " +
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    ).run();
    return true;
  });
  if (!done) return;
  try {
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    db.exec("VACUUM");
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  } catch {
    // Another connection is open: its own checkpoints overwrite the pages later.
  }
}
