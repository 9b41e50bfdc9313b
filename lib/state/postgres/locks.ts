/**
 * The PostgreSQL store's state lock: a row of `locks` for each root
 * (holder, reason, expiry) plus its beacon, a session-level advisory lock
 * taken on a connection of its own kept open for as long as the lock is
 * held. When the holder's process dies, or its machine, or its connection,
 * the server ends the session and drops the beacon: the lock is stale at
 * once, without waiting for its expiry.
 *
 * @module
 */

import type { PostgresLocation } from "../../config/location.ts";
import { asIso, lockOfRow, type Row } from "../rows.ts";
import type { AcquiredLock, LockInfo } from "../store.ts";
import type { CurrentLock } from "../store_base.ts";
import type { LockBeacon } from "../lock/held.ts";
import { connect, type Q, type Sql, type TxSql } from "./connect.ts";
import type { RootSql } from "./records.ts";

/**
 * The first key of pravo's two-key advisory locks (`pg_advisory_lock(int,
 * int)`): "prav". The second is 0 for migrations, a beacon number for a
 * state lock.
 */
export const ADVISORY_CLASS = 0x70726176;

/**
 * The advisory class of a schema: {@linkcode ADVISORY_CLASS} for `pravo`, a
 * hash of the name for another, so that the lock beacons of two schemas in
 * one database (each with its own sequence) never share a key.
 */
export function advisoryClass(schema: string): number {
  if (schema === "pravo") return ADVISORY_CLASS;
  let h = 0x811c9dc5;
  for (const c of new TextEncoder().encode(schema)) h = Math.imul(h ^ c, 0x01000193);
  return (h >>> 1) || 1; // positive, fits an integer
}

/** A root's lock, judged at `now` against the beacons of its schema. */
export interface LockSql extends RootSql {
  schema: string;
  now: Date;
}

/**
 * Whether the lock beacon `beacon` (an SQL expression) is held by a live
 * session: a granted advisory lock in this database.
 */
function beaconHeld(q: Q, beacon: ReturnType<Q>, schema: string) {
  return q`EXISTS (
    SELECT 1 FROM pg_locks
    WHERE locktype = 'advisory' AND granted
      AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
      AND classid::bigint = ${advisoryClass(schema)} AND objid::bigint = ${beacon}
      AND objsubid = 2)`;
}

/**
 * Locks the root's row, so that the writes of one root run one at a time,
 * then reads the state lock in a second statement: one statement would read
 * the lock row as it was before waiting for the root's row (PostgreSQL
 * re-checks only the locked row after the wait), and could miss a lock
 * taken meanwhile. A live lock here is one whose holder's session is alive.
 */
export async function readLock(at: LockSql & { q: TxSql }): Promise<CurrentLock | undefined> {
  const { q, rootId, schema } = at;
  await q`SELECT id FROM roots WHERE id = ${rootId} FOR UPDATE`;
  const [row] = await q`
    SELECT l.*, ${beaconHeld(q, q`l.beacon`, schema)} AS beacon_held
    FROM locks l WHERE root_id = ${rootId}`;
  if (row?.id === null || row?.id === undefined) return undefined;
  return { info: lockInfo(row, at.now), liveness: () => "session alive" };
}

/** Every lock of the root (there is one at most), by when it was taken. */
export async function listLocks(at: LockSql): Promise<LockInfo[]> {
  const { q, rootId, schema } = at;
  const rows = await q`
    SELECT l.*, ${beaconHeld(q, q`l.beacon`, schema)} AS beacon_held
    FROM locks l WHERE root_id = ${rootId} ORDER BY since`;
  return rows.map((r) => lockInfo(r, at.now));
}

/** A lock row read with `beacon_held`, `stale` set when its session ended or it expired. */
function lockInfo(row: Row, now: Date): LockInfo {
  const info = lockOfRow(row, asIso);
  if (!row.beacon_held) {
    const host = info.hostname === "" ? "an unnamed host" : `host "${info.hostname}"`;
    info.stale = `its session ended (process ${info.pid} on ${host} is gone ` +
      "or lost its connection)";
  } else if (Date.parse(info.expires) <= now.getTime()) {
    info.stale = `it expired at ${info.expires}`;
  }
  return info;
}

/** Writes `lock`, kept alive by `beacon`, in place of whatever lock the root had. */
export async function writeLock(
  { q, rootId }: RootSql,
  held: { lock: AcquiredLock; beacon: PgBeacon },
): Promise<void> {
  const { lock, beacon } = held;
  await q`
    INSERT INTO locks (root_id, id, actor, reason, command, pid, hostname, beacon,
                       since, expires)
    VALUES (${rootId}, ${lock.id}, ${lock.actor}, ${lock.reason},
            ${lock.command}, ${lock.pid}, ${lock.hostname}, ${beacon.number},
            ${lock.since}, ${lock.expires})
    ON CONFLICT (root_id) DO UPDATE SET id = excluded.id, actor = excluded.actor,
      reason = excluded.reason, command = excluded.command, pid = excluded.pid,
      hostname = excluded.hostname, beacon = excluded.beacon,
      since = excluded.since, expires = excluded.expires`;
}

/** Removes the root's lock `id`. */
export async function deleteLock({ q, rootId }: RootSql, id: string): Promise<void> {
  await q`DELETE FROM locks WHERE root_id = ${rootId} AND id = ${id}`;
}

/** Moves the expiry of the root's lock `id`; false when it is not there. */
export async function renewLock(
  { q, rootId }: RootSql,
  lock: { id: string; expires: string },
): Promise<boolean> {
  const changed = await q`
    UPDATE locks SET expires = ${lock.expires} WHERE root_id = ${rootId} AND id = ${lock.id}`;
  return changed.count > 0;
}

/** The holder side of a state lock: the connection that keeps its beacon. */
export interface PgBeacon extends LockBeacon {
  /** A pool of one connection, apart from the store's: its session holds the lock. */
  conn: Sql;
  /** The advisory class (first key) and the beacon's number (second key). */
  klass: number;
  number: number;
  /** Set when that connection closed: the server has dropped the lock. */
  closed: boolean;
}

/**
 * A connection of its own holding a fresh advisory lock: the lock's beacon.
 * (A pool of one rather than a reserved connection of the store's pool: the
 * driver stumbles on a reserved connection that the server closed.)
 */
export async function newBeacon(where: PostgresLocation): Promise<PgBeacon> {
  const beacon: PgBeacon = {
    conn: undefined as unknown as Sql,
    klass: advisoryClass(where.schema),
    number: 0,
    closed: false,
    release: () => dropBeacon(beacon),
  };
  beacon.conn = connect(where, {
    max: 1,
    onclose: () => {
      beacon.closed = true;
    },
  });
  try {
    const [r] = await beacon.conn`
      WITH b AS (SELECT nextval('lock_beacons')::integer AS n)
      SELECT n, pg_try_advisory_lock(${advisoryClass(where.schema)}, n) AS ok FROM b`;
    if (!r.ok) throw new Error(`bug: the new lock beacon ${r.n} is held already`);
    beacon.number = Number(r.n);
    return beacon;
  } catch (e) {
    await beacon.conn.end({ timeout: 0 }).catch(() => {});
    throw e;
  }
}

async function dropBeacon(b: PgBeacon): Promise<void> {
  // Ending the session releases its advisory lock; with a grace period, so
  // that the unlock goes out first when the connection is alive.
  if (!b.closed) {
    await b.conn`SELECT pg_advisory_unlock(${b.klass}, ${b.number})`.catch(() => {});
  }
  await b.conn.end({ timeout: 0 }).catch(() => {});
}
