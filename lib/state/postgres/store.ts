/**
 * The PostgreSQL state store: the shared one, for teams, CI runners and
 * fleets of agents that work on the same roots from many machines. Same
 * semantics as the SQLite store (`../sqlite/store.ts`), proved by the same
 * suite (`../store_testing.ts`).
 *
 * - Many roots in one database: each has a row in `roots` (its key, its
 *   lineage, its serial, its redaction key), and every other row carries the
 *   root's id. Every query names the root; a root never sees, writes or locks
 *   another's rows.
 * - Transactions lock the root's row (`SELECT ... FOR UPDATE`), so that the
 *   writes of one root run one at a time and other roots never wait.
 * - The state lock is a row plus a session-level advisory lock, its beacon
 *   (locks.ts): a holder whose process, machine or connection died is seen
 *   gone at once, and the next writer takes the lock over.
 * - The log is append-only: triggers refuse UPDATE, DELETE and TRUNCATE.
 * - Migrations run under an advisory lock; a newer schema is refused
 *   (schema.ts).
 * - A lost connection becomes a diagnostic that says what happened and what
 *   to do (errors.ts); the password never appears in it, and every later
 *   call fails with it: a run whose state went away stops writing rather
 *   than reconnect half-way through.
 * - Sensitive values are sealed with pravo's key (lib/secrets/seal.ts), as
 *   in SQLite; a root written before version 3 is sealed when it is first
 *   opened, by itself (open.ts).
 *
 * What it shares with the SQLite store (transactions, the lock loop, the
 * log's redaction, reservations, closing) is in ../store_base.ts; this file
 * gives the SQL of each step.
 *
 * @module
 */

import { DiagnosticsError } from "../../diag/diag.ts";
import { type PostgresLocation } from "../../config/location.ts";
import { loadCrypto } from "../../keys/lazy.ts";
import { defaultKeySource, type KeySource, Sealer } from "../../secrets/seal.ts";
import { BUILTIN_REGISTRY, type TypeLookup } from "../../providers/registry.ts";
import type { StateDump } from "../dump.ts";
import type { AcquiredLock, Reservation, StateStore, TxMeta } from "../store.ts";
import { type CurrentLock, type LogChangeRow, StoreBase } from "../store_base.ts";
import { connect, type Sql, type TxSql } from "./connect.ts";
import { exportRoot, importRoot } from "./dump.ts";
import { catchDriverCrash, guard, isConnectionError, mapError } from "./errors.ts";
import * as locks from "./locks.ts";
import type { HoldFor } from "../lock/held.ts";
import { appendLog, readLog } from "./log.ts";
import { type OpenedRoot, openRoot } from "./open.ts";
import { allAddresses, allRecords, readOutputs, recordAt, type RootSql } from "./records.ts";
import * as reservations from "./reservations.ts";
import { identityOf } from "./schema.ts";
import { PostgresTx } from "./tx.ts";

/** How the PostgreSQL store is opened. */
export interface PostgresOptions {
  /** Create the schema and the root's state when missing. */
  create?: boolean;
  /** The clock for every time the store writes; default the real one. */
  now?: () => Date;
  /** pravo's key, loaded when first needed; default from the environment. */
  key?: KeySource;
  /** Every transaction of the session read-only, as the server enforces it. */
  readOnly?: boolean;
  /** Looks up a record's type for its sensitive attributes; default the built-in providers'. */
  types?: TypeLookup;
  /** Marks the state lock held for the command's interrupts; default none. */
  hold?: HoldFor;
}

/** The PostgreSQL implementation of {@linkcode StateStore}. */
export class PostgresStore extends StoreBase<TxSql, locks.PgBeacon> implements StateStore {
  readonly created: boolean;
  readonly #where: PostgresLocation;
  readonly #sql: Sql;
  readonly #rootId: string;
  /** Set when the connection was lost: the diagnostic every later call fails with. */
  #lost: DiagnosticsError | undefined;

  private constructor(
    where: PostgresLocation,
    sql: Sql,
    opened: { root: OpenedRoot; now: () => Date; sealer: Sealer; hold?: HoldFor },
  ) {
    super({
      location: { backend: "postgres", path: where.path },
      now: opened.now,
      sealer: opened.sealer,
      lineage: opened.root.lineage,
      redactionKey: opened.root.redactionKey,
      hold: opened.hold,
    });
    this.#where = where;
    this.#sql = sql;
    this.#rootId = opened.root.id;
    this.created = opened.root.created;
  }

  /**
   * Opens the state of `where.rootKey` in the database at `where`. With
   * `create`, makes the schema and the root's state where missing; without,
   * a missing state is an error that says to run `pravo init`.
   */
  static async open(where: PostgresLocation, opts: PostgresOptions = {}): Promise<PostgresStore> {
    const now = opts.now ?? (() => new Date());
    await loadCrypto(); // loaded once here: every store call may seal, open or redact
    catchDriverCrash(where);
    const sql = connect(where, { readOnly: opts.readOnly });
    const sealer = new Sealer(opts.key ?? defaultKeySource(), {
      where: where.path,
      types: opts.types ?? BUILTIN_REGISTRY.findType,
    });
    try {
      const root = await guard(
        () => openRoot(sql, { where, create: opts.create, sealer, now }),
        { where },
      );
      return new PostgresStore(where, sql, { root, now, sealer, hold: opts.hold });
    } catch (e) {
      await sql.end({ timeout: 1 }).catch(() => {});
      throw e;
    }
  }

  /**
   * Writes `dump` as the state of `where.rootKey`, in one transaction;
   * refuses when the database holds that root key, or that lineage, already.
   */
  static async importState(where: PostgresLocation, dump: StateDump): Promise<void> {
    await importRoot(where, dump);
  }

  /**
   * Every row of this root, for `pravo state migrate`: identity, records,
   * the log as stored (already redacted), reservations and the redaction key.
   * Read in one snapshot.
   */
  async exportState(): Promise<StateDump> {
    return await this.#read(() => exportRoot(this.#sql, this.#rootId));
  }

  async readOutputs() {
    return await this.#read(() => readOutputs(this.#root()));
  }

  async identity() {
    return await this.#read(() => identityOf(this.#root()));
  }

  async getRecord(address: string) {
    return await this.#read(async () => {
      const rec = await recordAt(this.#root(), address);
      return rec ? (await this.unsealedAll([rec]))[0] : undefined;
    });
  }

  async listRecords() {
    return await this.#read(async () => await this.unsealedAll(await allRecords(this.#root())));
  }

  async listAddresses() {
    return await this.#read(() => allAddresses(this.#root()));
  }

  async readLog(opts: { limit?: number; address?: string } = {}) {
    return await this.#read(() => readLog(this.#sql, { ...opts, rootId: this.#rootId }));
  }

  async listLocks() {
    return await this.#read(() => locks.listLocks(this.#lockSql(this.#sql)));
  }

  async listReservations(opts: { includeExpired?: boolean } = {}) {
    return await this.#read(() =>
      reservations.listReservations(this.#root(), { ...opts, now: this.#nowIso() })
    );
  }

  async findReservationConflicts(
    addresses: string[],
    by: { actor: string; planId?: string },
  ) {
    return await this.#read(() =>
      reservations.findReservationConflicts(this.#root(), {
        addresses,
        ...by,
        now: this.#nowIso(),
      })
    );
  }

  // The steps of the shared protocols (../store_base.ts).

  protected writeTx<T>(doing: "write" | "lock", fn: (q: TxSql) => Promise<T>): Promise<T> {
    return this.#guard(() => this.#sql.begin((q) => fn(q)) as Promise<T>, doing);
  }

  protected newTx(q: TxSql): PostgresTx {
    return new PostgresTx(q, { ...this.sealing(), rootId: this.#rootId });
  }

  protected appendLog(q: TxSql, meta: TxMeta, changes: LogChangeRow[]): Promise<void> {
    return appendLog(q, { rootId: this.#rootId, meta, at: this.#nowIso(), changes });
  }

  protected readLock(q: TxSql): Promise<CurrentLock | undefined> {
    return locks.readLock({ ...this.#lockSql(q), q });
  }

  protected writeLock(q: TxSql, lock: AcquiredLock, beacon: locks.PgBeacon): Promise<void> {
    return locks.writeLock(this.#root(q), { lock, beacon });
  }

  protected deleteLock(q: TxSql, id: string): Promise<void> {
    return locks.deleteLock(this.#root(q), id);
  }

  protected async removeLock(id: string): Promise<void> {
    if (this.#lost) return; // the session, and with it the lock's beacon, is gone
    try {
      await locks.deleteLock(this.#root(), id);
    } catch (e) {
      // The connection is gone: so is the beacon, and the row left is stale.
      if (!isConnectionError(e)) throw mapError(e, { where: this.#where, doing: "lock" });
    }
  }

  protected renewLock(id: string, expires: string): Promise<boolean> {
    return locks.renewLock(this.#root(), { id, expires });
  }

  protected takeBeacon(): Promise<locks.PgBeacon> {
    return this.#guard(() => locks.newBeacon(this.#where), "lock");
  }

  protected forgetBeacon(): void {
    // Nothing is left of another's beacon: the server dropped it with its session.
  }

  protected insertReservation(q: TxSql, r: Reservation): Promise<void> {
    return reservations.insertReservation(this.#root(q), r);
  }

  protected deleteReservation(id: string): Promise<boolean> {
    return this.#guard(() => reservations.deleteReservation(this.#root(), id), "write");
  }

  protected async closeConnections(): Promise<void> {
    await this.#sql.end({ timeout: 1 }).catch(() => {});
  }

  /** The root's rows through `q`, the pool by default. */
  #root(q: Sql | TxSql = this.#sql): RootSql {
    return { q, rootId: this.#rootId };
  }

  #lockSql(q: Sql | TxSql): locks.LockSql {
    return { q, rootId: this.#rootId, schema: this.#where.schema, now: this.now() };
  }

  #nowIso(): string {
    return this.now().toISOString();
  }

  /** Runs a read, mapping a lost connection to a diagnostic. */
  #read<T>(fn: () => Promise<T>): Promise<T> {
    this.assertOpen();
    return this.#guard(fn, "read");
  }

  /**
   * Runs `fn`, mapping errors to diagnostics. Once the connection is lost,
   * every later call fails at once with the same diagnostic: a run whose
   * state went away stops writing rather than reconnect half-way through.
   */
  async #guard<T>(fn: () => Promise<T>, doing: "read" | "write" | "lock"): Promise<T> {
    if (this.#lost) throw this.#lost;
    try {
      return await fn();
    } catch (e) {
      const mapped = mapError(e, { where: this.#where, doing });
      if (isConnectionError(e) && mapped instanceof DiagnosticsError) {
        this.#lost ??= mapError(e, { where: this.#where, doing: "write" }) as DiagnosticsError;
      }
      throw mapped;
    }
  }
}
