/**
 * The SQLite store's transaction log: an entry a committed transaction that
 * changed something (the serial it reached, who, why, which command and
 * plan), its changes with sensitive values redacted; append-only (triggers
 * refuse UPDATE and DELETE).
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import { asText, logOfRows } from "../rows.ts";
import type { LogEntry, TxMeta } from "../store.ts";
import type { LogChangeRow } from "../store_base.ts";
import { readMeta } from "./schema.ts";

/**
 * The log, newest first: at most `limit` entries (default all), only those
 * that changed `address` when given; read in one snapshot.
 */
export function readLog(
  db: DatabaseSync,
  opts: { limit?: number; address?: string } = {},
): LogEntry[] {
  const limit = opts.limit ?? -1; // SQLite: a negative limit is none
  db.exec("BEGIN"); // one snapshot for both queries
  try {
    const entries = opts.address === undefined
      ? db.prepare("SELECT * FROM log_entries ORDER BY id DESC LIMIT ?").all(limit)
      : db.prepare(
        `SELECT * FROM log_entries WHERE id IN
           (SELECT entry_id FROM log_changes WHERE address = ?)
         ORDER BY id DESC LIMIT ?`,
      ).all(opts.address, limit);
    const ids = entries.map((e) => Number(e.id));
    const changes = db.prepare(
      `SELECT * FROM log_changes WHERE entry_id IN (SELECT value FROM json_each(?))
       ${opts.address === undefined ? "" : "AND address = ?"}
       ORDER BY entry_id, seq`,
    ).all(...[JSON.stringify(ids), ...(opts.address === undefined ? [] : [opts.address])]);
    return logOfRows(entries, changes, asText);
  } finally {
    db.exec("COMMIT");
  }
}

/** Moves the serial by one and writes an entry of `meta`, made `at`, with `changes`. */
export function appendLog(
  db: DatabaseSync,
  entry: { meta: TxMeta; at: string; changes: LogChangeRow[] },
): void {
  const { meta, changes } = entry;
  db.prepare(
    "UPDATE meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = 'serial'",
  ).run();
  const serial = Number(readMeta(db).serial);
  const inserted = db.prepare(
    `INSERT INTO log_entries
       (serial, at, actor, reason, command, plan_id, plan_actor, plan_reason, run_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    serial,
    entry.at,
    meta.actor,
    meta.reason,
    meta.command,
    meta.planId ?? null,
    meta.planActor ?? null,
    meta.planReason ?? null,
    meta.run ?? null,
  );
  const entryId = Number(inserted.lastInsertRowid);
  const insert = db.prepare(
    `INSERT INTO log_changes (entry_id, seq, address, action, before, after)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  for (const c of changes) insert.run(entryId, c.seq, c.address, c.action, c.before, c.after);
}
