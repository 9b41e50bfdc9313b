/**
 * The PostgreSQL store's transaction log: an entry a committed transaction
 * that changed something, with the root's id, the serial it reached, who,
 * why, which command and plan, and its changes with sensitive values
 * redacted; append-only (triggers refuse UPDATE, DELETE and TRUNCATE).
 *
 * @module
 */

import { asIso, logOfRows } from "../rows.ts";
import type { LogEntry, TxMeta } from "../store.ts";
import type { LogChangeRow } from "../store_base.ts";
import type { Sql, TxSql } from "./connect.ts";

/**
 * The root's log, newest first: at most `limit` entries (default all), only
 * those that changed `address` when given; read in one snapshot.
 */
export async function readLog(
  sql: Sql,
  opts: { rootId: string; limit?: number; address?: string },
): Promise<LogEntry[]> {
  const { rootId } = opts;
  return await sql.begin("ISOLATION LEVEL REPEATABLE READ READ ONLY", async (q) => {
    const limit = opts.limit === undefined ? q`` : q`LIMIT ${opts.limit}`;
    const entries = opts.address === undefined
      ? await q`SELECT * FROM log_entries WHERE root_id = ${rootId}
                ORDER BY id DESC ${limit}`
      : await q`SELECT * FROM log_entries WHERE root_id = ${rootId} AND id IN
                  (SELECT entry_id FROM log_changes WHERE address = ${opts.address})
                ORDER BY id DESC ${limit}`;
    const ids = JSON.stringify(entries.map((e) => String(e.id)));
    const changes = await q`
      SELECT * FROM log_changes
      WHERE entry_id IN (SELECT value::bigint FROM jsonb_array_elements_text(${ids}::text::jsonb))
      ${opts.address === undefined ? q`` : q`AND address = ${opts.address}`}
      ORDER BY entry_id, seq`;
    return logOfRows(entries, changes, asIso);
  }) as LogEntry[];
}

/**
 * Moves the root's serial and writes an entry of `meta`, made `at`, with
 * `changes`: one round trip.
 */
export async function appendLog(
  q: TxSql,
  entry: { rootId: string; meta: TxMeta; at: string; changes: LogChangeRow[] },
): Promise<void> {
  const { rootId, meta } = entry;
  await q`
    WITH s AS (
      UPDATE roots SET serial = serial + 1 WHERE id = ${rootId} RETURNING serial
    ), e AS (
      INSERT INTO log_entries
        (root_id, serial, at, actor, reason, command, plan_id, plan_actor, plan_reason, run_id)
      SELECT ${rootId}, s.serial, ${entry.at}, ${meta.actor},
             ${meta.reason}, ${meta.command}, ${meta.planId ?? null},
             ${meta.planActor ?? null}, ${meta.planReason ?? null}, ${meta.run ?? null}
      FROM s
      RETURNING id
    )
    INSERT INTO log_changes (entry_id, seq, address, action, before, after)
    SELECT e.id, c.seq, c.address, c.action, c.before, c.after
    FROM e, jsonb_to_recordset(${JSON.stringify(entry.changes)}::text::jsonb)
      AS c(seq integer, address text, action text, before text, after text)`;
}
