/**
 * The SQLite state store: one file, `.pravo/state.db` by default, through
 * `node:sqlite`.
 *
 * - WAL journal, `synchronous=FULL`, `secure_delete`, a busy timeout
 *   (connect.ts).
 * - Two connections: writes go through one, in `BEGIN IMMEDIATE`
 *   transactions run one at a time; reads go through the other and see only
 *   committed data.
 * - Schema migrations (schema.ts), in a transaction; a file written by a
 *   newer pravo is refused.
 * - Sensitive values sealed with pravo's key (lib/secrets/seal.ts): on the
 *   way in, and once for the values of a state written before version 3.
 * - The state lock's holder is seen gone by its process or its beacon
 *   (locks.ts, beacon.ts).
 *
 * What it shares with the PostgreSQL store (transactions, the lock loop,
 * the log's redaction, reservations, closing) is in ../store_base.ts; this
 * file gives the SQL of each step.
 *
 * @module
 */

// The methods are async though SQLite is synchronous: an error then rejects
// the promise as it will for PostgreSQL, instead of throwing at the call.
// deno-lint-ignore-file require-await

import type { DatabaseSync } from "node:sqlite";
import { loadCrypto } from "../../keys/lazy.ts";
import { defaultKeySource, Sealer } from "../../secrets/seal.ts";
import { BUILTIN_REGISTRY } from "../../providers/registry.ts";
import type { AcquiredLock, Reservation, StateStore, TxMeta } from "../store.ts";
import { type CurrentLock, type LogChangeRow, StoreBase } from "../store_base.ts";
import { type HoldFor, type LockBeacon, NO_BEACON } from "../lock/held.ts";
import { removeBeacon, takeBeacon } from "./beacon.ts";
import { begin, fileExists, immediate, rollback } from "./connect.ts";
import { guarded, storeFailure } from "./failure.ts";
import * as locks from "./locks.ts";
import { appendLog, readLog } from "./log.ts";
import { allAddresses, allRecords, readOutputs, recordAt } from "./records.ts";
import * as reservations from "./reservations.ts";
import { type Opened, openReadOnly, openWriting, type SqliteOptions } from "./open.ts";
import { identityOf } from "./schema.ts";
import { SqliteTx } from "./tx.ts";

export type { SqliteOptions };

/** The SQLite implementation of {@linkcode StateStore}. */
export class SqliteStore extends StoreBase<DatabaseSync, LockBeacon> implements StateStore {
  readonly created: boolean;
  readonly #write: DatabaseSync;
  readonly #read: DatabaseSync;

  private constructor(
    path: string,
    opened: Opened & { now: () => Date; sealer: Sealer; hold?: HoldFor },
  ) {
    super({ location: { backend: "sqlite", path }, ...opened });
    this.#write = opened.write;
    this.#read = opened.read;
    this.created = opened.created;
  }

  /**
   * Opens the store in the file at `path` (absolute). With `create`, makes
   * the folder (0700), the file (0600), the schema and the state (its
   * lineage) where missing; without, a missing file or state is an error.
   */
  static async open(path: string, opts: SqliteOptions = {}): Promise<SqliteStore> {
    try {
      const now = opts.now ?? (() => new Date());
      const sealer = new Sealer(opts.key ?? defaultKeySource(), {
        where: `"${path}"`,
        types: opts.types ?? BUILTIN_REGISTRY.findType,
      });
      if (opts.readOnly && !opts.create && fileExists(path)) {
        const opened = openReadOnly(path, opts);
        if (opened) {
          return guarded(new SqliteStore(path, { ...opened, now, sealer, hold: opts.hold }), path);
        }
        // An older schema: migrated by a writing connection first, as any command would.
      }
      // A writer may seal (a new state's redaction key, the values of an older state).
      await loadCrypto();
      const opened = openWriting(path, { ...opts, now, sealer });
      return guarded(new SqliteStore(path, { ...opened, now, sealer, hold: opts.hold }), path);
    } catch (e) {
      throw storeFailure(e, path, "opening");
    }
  }

  async readOutputs() {
    this.assertOpen();
    return readOutputs(this.#read);
  }

  async identity() {
    this.assertOpen();
    return identityOf(this.#read);
  }

  async getRecord(address: string) {
    this.assertOpen();
    const rec = recordAt(this.#read, address);
    return rec ? (await this.unsealedAll([rec]))[0] : undefined;
  }

  async listRecords() {
    this.assertOpen();
    return await this.unsealedAll(allRecords(this.#read));
  }

  async listAddresses() {
    this.assertOpen();
    return allAddresses(this.#read);
  }

  async readLog(opts: { limit?: number; address?: string } = {}) {
    this.assertOpen();
    return readLog(this.#read, opts);
  }

  async listLocks() {
    this.assertOpen();
    return locks.listLocks(this.#read, this.#lockSite());
  }

  async listReservations(opts: { includeExpired?: boolean } = {}) {
    this.assertOpen();
    return reservations.listReservations(this.#read, { ...opts, now: this.now().toISOString() });
  }

  async findReservationConflicts(
    addresses: string[],
    by: { actor: string; planId?: string },
  ) {
    this.assertOpen();
    return reservations.findReservationConflicts(this.#read, {
      addresses,
      ...by,
      now: this.now().toISOString(),
    });
  }

  // The steps of the shared protocols (../store_base.ts).

  protected async writeTx<T>(_doing: string, fn: (db: DatabaseSync) => Promise<T>): Promise<T> {
    const db = this.#write;
    begin(db, this.location.path);
    try {
      const value = await fn(db);
      db.exec("COMMIT");
      return value;
    } catch (e) {
      rollback(db);
      throw e;
    }
  }

  protected newTx(db: DatabaseSync): SqliteTx {
    return new SqliteTx(db, this.sealing());
  }

  protected appendLog(db: DatabaseSync, meta: TxMeta, changes: LogChangeRow[]): void {
    appendLog(db, { meta, at: this.now().toISOString(), changes });
  }

  protected async readLock(db: DatabaseSync): Promise<CurrentLock | undefined> {
    return locks.readLock(db, this.#lockSite());
  }

  protected writeLock(db: DatabaseSync, lock: AcquiredLock): void {
    locks.writeLock(db, lock);
  }

  protected deleteLock(db: DatabaseSync, id: string): void {
    locks.deleteLock(db, id);
  }

  protected async removeLock(id: string): Promise<void> {
    immediate(this.#write, this.location.path, () => locks.deleteLock(this.#write, id));
  }

  protected async renewLock(id: string, expires: string): Promise<boolean> {
    return immediate(
      this.#write,
      this.location.path,
      () => locks.renewLock(this.#write, { id, expires }),
    );
  }

  protected async takeBeacon(id: string): Promise<LockBeacon> {
    return takeBeacon(this.location.path, id) ?? NO_BEACON;
  }

  protected forgetBeacon(id: string): void {
    removeBeacon(this.location.path, id);
  }

  protected insertReservation(db: DatabaseSync, r: Reservation): void {
    reservations.insertReservation(db, r);
  }

  protected async deleteReservation(id: string): Promise<boolean> {
    return immediate(
      this.#write,
      this.location.path,
      () => reservations.deleteReservation(this.#write, id),
    );
  }

  protected closeConnections(): void {
    if (this.#read !== this.#write) this.#read.close();
    this.#write.close();
  }

  #lockSite(): locks.LockSite {
    return { path: this.location.path, now: this.now() };
  }
}
