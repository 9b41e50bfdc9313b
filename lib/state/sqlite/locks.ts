/**
 * The SQLite store's state lock: one row of the `locks` table, with its
 * holder's process start time, and whether its holder is gone, told by
 * `/proc` or signal 0 where they can be read, else by the lock's beacon
 * (beacon.ts), else by its expiry.
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import { asText, lockOfRow, type Row } from "../rows.ts";
import type { AcquiredLock, LockInfo } from "../store.ts";
import type { CurrentLock } from "../store_base.ts";
import { currentHolder, holderIsGone, processStartTime } from "../lock/holder.ts";
import type { HolderLiveness } from "../lock/message.ts";
import { beaconState } from "./beacon.ts";

/** The name of the state lock's row. */
const STATE_LOCK = "state";

/** Where a lock is judged: the state's file (its beacons are beside it), and the time. */
export interface LockSite {
  path: string;
  now: Date;
}

/** The state lock, if any. */
export function readLock(db: DatabaseSync, site: LockSite): CurrentLock | undefined {
  const row = db.prepare("SELECT * FROM locks WHERE name = ?").get(STATE_LOCK);
  if (!row) return undefined;
  return { info: lockInfo(row, site), liveness: () => liveness(row, site.path) };
}

/** Every lock (there is one at most), by when it was taken. */
export function listLocks(db: DatabaseSync, site: LockSite): LockInfo[] {
  return db.prepare("SELECT * FROM locks ORDER BY since").all().map((r) => lockInfo(r, site));
}

/** Writes `lock` in place of whatever lock there was. */
export function writeLock(db: DatabaseSync, lock: AcquiredLock): void {
  db.prepare(
    `INSERT OR REPLACE INTO locks
       (name, id, actor, reason, command, pid, hostname, pid_start, since, expires)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    STATE_LOCK,
    lock.id,
    lock.actor,
    lock.reason,
    lock.command,
    lock.pid,
    lock.hostname,
    currentHolder().startTime,
    lock.since,
    lock.expires,
  );
}

/** Removes the lock `id`, if it is the state lock. */
export function deleteLock(db: DatabaseSync, id: string): void {
  db.prepare("DELETE FROM locks WHERE name = ? AND id = ?").run(STATE_LOCK, id);
}

/** Moves the expiry of the lock `id`; false when it is not there. */
export function renewLock(db: DatabaseSync, opts: { id: string; expires: string }): boolean {
  return Number(
    db.prepare("UPDATE locks SET expires = ? WHERE name = ? AND id = ?")
      .run(opts.expires, STATE_LOCK, opts.id).changes,
  ) > 0;
}

/** A lock row, `stale` set when its process is gone or it expired. */
export function lockInfo(row: Row, site: LockSite): LockInfo {
  const info = lockOfRow(row, asText);
  const gone = holderIsGone({
    pid: info.pid,
    hostname: info.hostname,
    startTime: row.pid_start === null ? null : String(row.pid_start),
  }) || (onThisHost(info) && beaconState(site.path, info.id) === "free");
  if (gone) {
    info.stale = `its process ${info.pid} on host "${info.hostname}" is gone`;
  } else if (Date.parse(info.expires) <= site.now.getTime()) {
    info.stale = `it expired at ${info.expires}`;
  }
  return info;
}

/** The holder of a lock row is on this host (as far as host names tell). */
function onThisHost(info: { hostname: string }): boolean {
  const me = currentHolder().hostname;
  return me !== "" && info.hostname === me;
}

/** What can be known of a live lock's holder, for the message. */
function liveness(row: Row, path: string): HolderLiveness {
  const info = { id: String(row.id), pid: Number(row.pid), hostname: String(row.hostname) };
  if (!onThisHost(info)) return "unknown";
  if (beaconState(path, info.id) === "held") return "running here";
  if (info.pid === Deno.pid || processStartTime(info.pid) !== null) return "running here";
  return "unknown";
}
