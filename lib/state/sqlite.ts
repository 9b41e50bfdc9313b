/**
 * The SQLite state store: one file, `.pravo/state.db` by default, through
 * `node:sqlite`.
 *
 * - WAL journal, `synchronous=FULL`: a committed transaction survives a crash
 *   of the process or of the machine; an uncommitted one leaves nothing.
 * - Two connections: writes go through one, in `BEGIN IMMEDIATE`
 *   transactions run one at a time; reads go through the other and see only
 *   committed data.
 * - A busy timeout, so that a second writer waits for the first instead of
 *   failing at once with "database is locked".
 * - `secure_delete`, so that a deleted record's values do not linger in free
 *   pages of the file.
 * - Schema migrations from {@linkcode MIGRATIONS}, in a transaction; a file
 *   written by a newer pravo is refused.
 * - Sensitive values sealed with pravo's key (seal.ts): on the way in, and
 *   once for the values of a state written before version 3.
 *
 * @module
 */

// The methods are async though SQLite is synchronous: an error then rejects
// the promise as it will for PostgreSQL, instead of throwing at the call.
// deno-lint-ignore-file require-await

import { DatabaseSync, type SQLOutputValue } from "node:sqlite";
import { AsyncLocalStorage } from "node:async_hooks";
import { dirname } from "node:path";
import { DiagnosticsError, error } from "../diag/diag.ts";
import { currentHolder, holderIsGone, processStartTime } from "./lock/holder.ts";
import { sensitivePathsOf } from "../secrets/paths.ts";
import { type Beacon, beaconState, removeBeacon, takeBeacon } from "./sqlite/beacon.ts";
import { type HolderLiveness, lockedError, unlockChange } from "./lock/message.ts";
import { interrupts } from "../workspace/interrupts.ts";
import { loadCrypto } from "../keys/lazy.ts";
import {
  diskFull,
  isDamagedDatabase,
  isDiskFull,
  isReadOnly,
  readOnlyFileSystem,
  sqliteCode,
} from "../diag/io.ts";
import { canonicalJson, newRedactionKey, redact, unionPaths } from "../secrets/redact.ts";
import {
  defaultKeySource,
  holdsPlainSecret,
  holdsSealed,
  type KeySource,
  providerDataColumn,
  sealAttributes,
  Sealer,
} from "../secrets/seal.ts";
import {
  type AcquiredLock,
  type ChangeInput,
  type LockInfo,
  type LockRequest,
  type LogEntry,
  type Mode,
  type RecordInput,
  type Reservation,
  type ReservationConflict,
  type ReservationRequest,
  SCHEMA_VERSION,
  type StateIdentity,
  type StateRecord,
  type StateStore,
  type StateTx,
  type StoreLocation,
  type TxMeta,
} from "./store.ts";
import {
  asText,
  conflictsOfRows,
  lockOfRow,
  logOfRows,
  recordOfRow,
  reservationOfRow,
} from "./rows.ts";
import { type Attempt, newLock } from "./lock/loop.ts";
import { REDACTION_KEY, StoreBase, TxBase } from "./store_base.ts";

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

/** What the log's markers are keyed with, in the associated data of its seal. */

if (MIGRATIONS[MIGRATIONS.length - 1].version !== SCHEMA_VERSION) {
  throw new Error("bug: MIGRATIONS does not end at SCHEMA_VERSION");
}

export interface SqliteOptions {
  /** Create the file and the state when missing. */
  create?: boolean;
  /** The clock for every time the store writes; default the real one. */
  now?: () => Date;
  /** How long a write waits for another connection's transaction (ms). */
  busyTimeoutMs?: number;
  /** pravo's key, loaded when first needed; default from the environment. */
  key?: KeySource;
  /**
   * Open for reading only (the read commands): nothing is created or
   * migrated, the connections cannot write, and a state on a read-only file
   * system can still be read.
   */
  readOnly?: boolean;
}

const DEFAULT_LOCK_TTL_MS = 2 * 60_000;
const STATE_LOCK = "state";

/** Marks the async call chain inside a transaction's `fn`, to catch nesting. */
const insideTx = new AsyncLocalStorage<SqliteStore>();

type Row = Record<string, SQLOutputValue>;

/** The SQLite implementation of {@linkcode StateStore}. */
export class SqliteStore extends StoreBase implements StateStore {
  readonly location: StoreLocation;
  readonly created: boolean;
  readonly #write: DatabaseSync;
  readonly #read: DatabaseSync;
  /** The held lock's beacon (beacon.ts), and the interrupt hold (lib/workspace/interrupts.ts). */
  #beacon: Beacon | undefined;
  #unhold: (() => void) | undefined;
  #renewTimer: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  private constructor(
    path: string,
    write: DatabaseSync,
    read: DatabaseSync,
    now: () => Date,
    created: boolean,
    redactionKey: string,
    sealer: Sealer,
    lineage: string,
  ) {
    super(now, sealer, lineage, redactionKey);
    this.location = { backend: "sqlite", path };
    this.#write = write;
    this.#read = read;
    this.created = created;
  }

  /** The records with their sealed values opened; loads the cryptography only if one is sealed. */
  async #unsealedAll(recs: StateRecord[]): Promise<StateRecord[]> {
    if (recs.some(holdsSealed)) await loadCrypto();
    return recs.map((rec) => this.unsealed(rec));
  }

  /**
   * Opens the store in the file at `path` (absolute). With `create`, makes
   * the folder (0700), the file (0600), the schema and the state (its
   * lineage) where missing; without, a missing file or state is an error.
   */
  static async open(path: string, opts: SqliteOptions = {}): Promise<SqliteStore> {
    try {
      const now = opts.now ?? (() => new Date());
      if (opts.readOnly && !opts.create && fileExists(path)) {
        const store = SqliteStore.#openReadOnly(path, opts, now);
        if (store) return guarded(store, path);
        // An older schema: migrated by a writing connection first, as any command would.
      }
      // A writer may seal (a new state's redaction key, the values of an older state).
      await loadCrypto();
      return guarded(SqliteStore.#openNow(path, opts, now), path);
    } catch (e) {
      throw storeFailure(e, path, "opening");
    }
  }

  static #openNow(path: string, opts: SqliteOptions, now: () => Date): SqliteStore {
    const exists = fileExists(path);
    if (!exists && !opts.create) {
      throw new DiagnosticsError([
        error(
          "The state store does not exist",
          `There is no state store at "${path}". Run \`pravo init\` to create it.`,
        ),
      ], "error");
    }
    if (!exists) createPrivateFile(path);
    const write = connect(path, opts.busyTimeoutMs ?? 5000);
    const sealer = new Sealer(opts.key ?? defaultKeySource(), `"${path}"`);
    let created = false;
    let key = "";
    let lineage = "";
    try {
      migrate(write, path);
      const meta = readMeta(write);
      if (meta.lineage === undefined) {
        if (!opts.create) {
          throw new DiagnosticsError([
            error(
              "The state store is not initialised",
              `"${path}" holds no pravo state. Run \`pravo init\` to create it.`,
            ),
          ], "error");
        }
        created = immediate(write, path, () => {
          if (readMeta(write).lineage !== undefined) return false; // another process won
          const put = write.prepare("INSERT INTO meta (key, value) VALUES (?, ?)");
          const lineage = crypto.randomUUID();
          put.run("lineage", lineage);
          put.run("serial", "0");
          put.run("redaction_key", sealer.sealText(lineage, REDACTION_KEY, newRedactionKey()));
          put.run("created_at", now().toISOString());
          write.prepare("UPDATE meta SET value = '1' WHERE key = 'sealed'").run();
          return true;
        });
      }
      if (readMeta(write).sealed !== "1") sealPlainValues(write, path, sealer);
      const after = readMeta(write);
      key = after.redaction_key ?? "";
      lineage = after.lineage ?? "";
    } catch (e) {
      write.close();
      throw e;
    }
    const read = connect(path, opts.busyTimeoutMs ?? 5000);
    return new SqliteStore(path, write, read, now, created, key, sealer, lineage);
  }

  /**
   * Opens `path` with read-only connections; undefined when its schema is
   * older than this pravo's (it must be migrated by a writer first). On a
   * read-only file system with no WAL left behind, SQLite cannot make the
   * shared-memory file it reads through, so the file is opened as immutable.
   */
  static #openReadOnly(
    path: string,
    opts: SqliteOptions,
    now: () => Date,
  ): SqliteStore | undefined {
    const db = connectReadOnly(path, opts.busyTimeoutMs ?? 5000);
    const meta = readMeta(db);
    const version = Number(meta.schema_version ?? 0);
    refuseNewer(version, path);
    // An older schema, or values not sealed yet: a writer brings it up to date first.
    if (version < SCHEMA_VERSION || meta.sealed !== "1") {
      db.close();
      return undefined;
    }
    if (meta.lineage === undefined) {
      db.close();
      throw new DiagnosticsError([
        error(
          "The state store is not initialised",
          `"${path}" holds no pravo state. Run \`pravo init\` to create it.`,
        ),
      ], "error");
    }
    // One connection serves both sides: nothing is written through it.
    const sealer = new Sealer(opts.key ?? defaultKeySource(), `"${path}"`);
    return new SqliteStore(
      path,
      db,
      db,
      now,
      false,
      meta.redaction_key ?? "",
      sealer,
      meta.lineage,
    );
  }

  async readOutputs(): Promise<Record<string, unknown> | null> {
    this.#open();
    const v = readMeta(this.#read).outputs;
    return v === undefined ? null : JSON.parse(v);
  }

  async identity(): Promise<StateIdentity> {
    this.#open();
    const meta = readMeta(this.#read);
    return {
      lineage: meta.lineage ?? "",
      serial: Number(meta.serial ?? 0),
      schemaVersion: Number(meta.schema_version ?? 0),
    };
  }

  async getRecord(address: string): Promise<StateRecord | undefined> {
    this.#open();
    const row = this.#read.prepare("SELECT * FROM records WHERE address = ?").get(address);
    return row ? (await this.#unsealedAll([toRecord(row)]))[0] : undefined;
  }

  async listRecords(): Promise<StateRecord[]> {
    this.#open();
    const rows = this.#read.prepare("SELECT * FROM records ORDER BY address").all();
    return await this.#unsealedAll(rows.map(toRecord));
  }

  async listAddresses(): Promise<string[]> {
    this.#open();
    const rows = this.#read.prepare("SELECT address FROM records ORDER BY address").all();
    return rows.map((r) => String(r.address));
  }

  async readLog(opts: { limit?: number; address?: string } = {}): Promise<LogEntry[]> {
    this.#open();
    const limit = opts.limit ?? -1; // SQLite: a negative limit is none
    const db = this.#read;
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

  async transaction<T>(meta: TxMeta, fn: (tx: StateTx) => Promise<T>): Promise<T> {
    this.#open();
    await loadCrypto(); // the transaction seals what it writes and redacts its log
    if (insideTx.getStore() === this) {
      throw new Error(
        "bug: a state transaction was started inside another one of the same store; " +
          "use the tx given to the outer transaction",
      );
    }
    return this.exclusive(async () => {
      const db = this.#write;
      begin(db, this.location.path);
      const tx = new SqliteTx(db, this.now, this.sealer, this.lineage);
      try {
        this.#refuseIfLockedByOther();
        const value = await insideTx.run(this, () => fn(tx));
        tx.finish();
        if (tx.wrote) this.#commitLog(meta, tx);
        db.exec("COMMIT");
        return value;
      } catch (e) {
        tx.finish();
        if (inTransaction(db)) db.exec("ROLLBACK");
        throw e;
      }
    });
  }

  #commitLog(meta: TxMeta, tx: SqliteTx): void {
    const db = this.#write;
    db.prepare(
      "UPDATE meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = 'serial'",
    ).run();
    const serial = Number(readMeta(db).serial);
    const entry = db.prepare(
      `INSERT INTO log_entries
         (serial, at, actor, reason, command, plan_id, plan_actor, plan_reason, run_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      serial,
      this.now().toISOString(),
      meta.actor,
      meta.reason,
      meta.command,
      meta.planId ?? null,
      meta.planActor ?? null,
      meta.planReason ?? null,
      meta.run ?? null,
    );
    const entryId = Number(entry.lastInsertRowid);
    const insert = db.prepare(
      `INSERT INTO log_changes (entry_id, seq, address, action, before, after)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    tx.changes.forEach((c, seq) => {
      const paths = unionPaths(c.sensitivePaths, tx.sensitivePathsOf(c.address));
      const before = redact(c.before, paths, this.redactionKey());
      const after = redact(c.after, paths, this.redactionKey());
      insert.run(
        entryId,
        seq,
        c.address,
        c.action,
        before === null ? null : canonicalJson(before),
        after === null ? null : canonicalJson(after),
      );
    });
  }

  /** Inside a write transaction: refuses when another live holder has the lock. */
  #refuseIfLockedByOther(): void {
    const row = this.#write.prepare("SELECT * FROM locks WHERE name = ?").get(STATE_LOCK);
    if (!row) return;
    const lock = this.#lockInfo(row);
    if (lock.stale !== undefined || lock.id === this.heldLock?.id) return;
    throw lockedError(lock, this.location, {
      summary: "The state is locked by another writer",
      liveness: this.#liveness(row),
    });
  }

  async acquireLock(req: LockRequest): Promise<AcquiredLock> {
    this.#open();
    this.refuseSecondLock();
    const ttl = req.ttlMs ?? DEFAULT_LOCK_TTL_MS;
    // The beacon is taken before the lock's row is written, so that no one
    // sees the row without it and takes the lock for a dead holder's.
    const id = crypto.randomUUID();
    const beacon = takeBeacon(this.location.path, id);
    const acquired = await this.lockBy(
      req,
      this.location,
      () =>
        immediate(this.#write, this.location.path, (): Attempt => {
          const row = this.#write.prepare("SELECT * FROM locks WHERE name = ?").get(STATE_LOCK);
          const current = row ? this.#lockInfo(row) : undefined;
          if (current !== undefined && current.stale === undefined) {
            return { held: current, liveness: this.#liveness(row!) };
          }
          const lock = newLock(req, id, this.now(), ttl, current);
          this.#write.prepare(
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
          return { acquired: lock };
        }),
      () => beacon?.release(),
    );
    this.heldLock = acquired;
    this.#beacon = beacon;
    this.#unhold = interrupts.hold(`the state lock ${id}`);
    const old = acquired.tookOver;
    if (old) removeBeacon(this.location.path, old.id);
    this.#startRenewing(acquired.id, ttl);
    return acquired;
  }

  #startRenewing(id: string, ttl: number): void {
    const every = Math.max(10, Math.floor(ttl / 3));
    const timer = setInterval(() => {
      this.exclusive(() => {
        const expires = new Date(this.now().getTime() + ttl).toISOString();
        const changed = immediate(
          this.#write,
          this.location.path,
          () =>
            this.#write.prepare("UPDATE locks SET expires = ? WHERE name = ? AND id = ?")
              .run(expires, STATE_LOCK, id).changes,
        );
        if (Number(changed) === 0) this.#letGo(); // taken over: no longer ours
        else if (this.heldLock) this.heldLock.expires = expires;
        return;
      }).catch(() => {
        // busy this time: the next tick tries again, well before the expiry
      });
    }, every);
    Deno.unrefTimer(timer);
    this.#renewTimer = timer;
  }

  /** Stops renewing the held lock, and lets go of its beacon and its interrupt hold. */
  #letGo(): void {
    if (this.#renewTimer !== undefined) clearInterval(this.#renewTimer);
    this.#renewTimer = undefined;
    this.heldLock = undefined;
    this.#beacon?.release();
    this.#beacon = undefined;
    this.#unhold?.();
    this.#unhold = undefined;
  }

  async releaseLock(lock: LockInfo): Promise<void> {
    this.#open();
    const mine = this.heldLock?.id === lock.id;
    if (mine && this.#renewTimer !== undefined) {
      clearInterval(this.#renewTimer);
      this.#renewTimer = undefined;
    }
    try {
      await this.exclusive(() => {
        immediate(
          this.#write,
          this.location.path,
          () =>
            this.#write.prepare("DELETE FROM locks WHERE name = ? AND id = ?").run(
              STATE_LOCK,
              lock.id,
            ),
        );
        return;
      });
    } finally {
      // The row goes first: a beacon let go while its row is there would
      // tell others that the holder is gone while it still runs.
      if (mine) this.#letGo();
    }
  }

  /**
   * Removes the state lock `id`, whoever holds it, and records who did it
   * and why in the log, in one transaction. Undefined when there is no lock
   * with that id.
   */
  async unlock(id: string, meta: TxMeta): Promise<LockInfo | undefined> {
    this.#open();
    await loadCrypto(); // its log entry is redacted
    return await this.exclusive(() => {
      const db = this.#write;
      begin(db, this.location.path);
      const tx = new SqliteTx(db, this.now, this.sealer, this.lineage);
      try {
        const row = db.prepare("SELECT * FROM locks WHERE name = ? AND id = ?").get(
          STATE_LOCK,
          id,
        );
        if (!row) {
          tx.finish();
          db.exec("ROLLBACK");
          return undefined;
        }
        const lock = this.#lockInfo(row);
        db.prepare("DELETE FROM locks WHERE name = ? AND id = ?").run(STATE_LOCK, id);
        tx.changes.push(unlockChange(lock));
        this.#commitLog(meta, tx);
        db.exec("COMMIT");
        tx.finish();
        if (lock.id === this.heldLock?.id) this.#letGo();
        else removeBeacon(this.location.path, id);
        return lock;
      } catch (e) {
        tx.finish();
        if (inTransaction(db)) db.exec("ROLLBACK");
        throw e;
      }
    });
  }

  async listLocks(): Promise<LockInfo[]> {
    this.#open();
    const rows = this.#read.prepare("SELECT * FROM locks ORDER BY since").all();
    return rows.map((r) => this.#lockInfo(r));
  }

  #lockInfo(row: Row): LockInfo {
    const info = lockOfRow(row, asText);
    const gone = holderIsGone({
      pid: info.pid,
      hostname: info.hostname,
      startTime: row.pid_start === null ? null : String(row.pid_start),
    }) || (this.#onThisHost(info) && beaconState(this.location.path, info.id) === "free");
    if (gone) {
      info.stale = `its process ${info.pid} on host "${info.hostname}" is gone`;
    } else if (Date.parse(info.expires) <= this.now().getTime()) {
      info.stale = `it expired at ${info.expires}`;
    }
    return info;
  }

  /** The holder of a lock row is on this host (as far as host names tell). */
  #onThisHost(info: { hostname: string }): boolean {
    const me = currentHolder().hostname;
    return me !== "" && info.hostname === me;
  }

  /** What can be known of a live lock's holder, for the message. */
  #liveness(row: Row): HolderLiveness {
    const info = { id: String(row.id), pid: Number(row.pid), hostname: String(row.hostname) };
    if (!this.#onThisHost(info)) return "unknown";
    if (beaconState(this.location.path, info.id) === "held") return "running here";
    if (info.pid === Deno.pid || processStartTime(info.pid) !== null) return "running here";
    return "unknown";
  }

  async createReservation(req: ReservationRequest): Promise<Reservation> {
    this.#open();
    const now = this.now();
    const r: Reservation = {
      id: crypto.randomUUID(),
      addresses: [...new Set(req.addresses)].sort(),
      actor: req.actor,
      reason: req.reason,
      planId: req.planId,
      created: now.toISOString(),
      expires: new Date(now.getTime() + req.ttlMs).toISOString(),
    };
    return this.exclusive(() => {
      immediate(this.#write, this.location.path, () => {
        this.#write.prepare(
          `INSERT INTO reservations (id, plan_id, actor, reason, created, expires)
           VALUES (?, ?, ?, ?, ?, ?)`,
        ).run(r.id, r.planId, r.actor, r.reason, r.created, r.expires);
        const add = this.#write.prepare(
          "INSERT INTO reservation_addresses (reservation_id, address) VALUES (?, ?)",
        );
        for (const a of r.addresses) add.run(r.id, a);
      });
      return r;
    });
  }

  async listReservations(opts: { includeExpired?: boolean } = {}): Promise<Reservation[]> {
    this.#open();
    const rows = this.#read.prepare(
      `SELECT r.*, (SELECT json_group_array(address) FROM
          (SELECT address FROM reservation_addresses WHERE reservation_id = r.id
           ORDER BY address)) AS addresses
       FROM reservations r ${opts.includeExpired ? "" : "WHERE r.expires > ?"}
       ORDER BY r.created, r.id`,
    ).all(...(opts.includeExpired ? [] : [this.now().toISOString()]));
    return rows.map(toReservation);
  }

  async releaseReservation(id: string): Promise<boolean> {
    this.#open();
    return this.exclusive(() =>
      Promise.resolve(immediate(this.#write, this.location.path, () => {
        this.#write.prepare("DELETE FROM reservation_addresses WHERE reservation_id = ?").run(id);
        return Number(
          this.#write.prepare("DELETE FROM reservations WHERE id = ?").run(id).changes,
        ) >
          0;
      }))
    );
  }

  async findReservationConflicts(
    addresses: string[],
    by: { actor: string; planId?: string },
  ): Promise<ReservationConflict[]> {
    this.#open();
    const rows = this.#read.prepare(
      `SELECT r.*, a.address AS hit,
         (SELECT json_group_array(address) FROM
           (SELECT address FROM reservation_addresses WHERE reservation_id = r.id
            ORDER BY address)) AS addresses
       FROM reservation_addresses a JOIN reservations r ON r.id = a.reservation_id
       WHERE a.address IN (SELECT value FROM json_each(?))
         AND r.expires > ? AND r.actor <> ? AND r.plan_id <> ?
       ORDER BY r.created, r.id, a.address`,
    ).all(JSON.stringify(addresses), this.now().toISOString(), by.actor, by.planId ?? "");
    return conflictsOfRows(rows, asText);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    const held = this.heldLock;
    if (held) await this.releaseLock(held).catch(() => this.#letGo());
    await this.settled();
    this.#closed = true;
    if (this.#read !== this.#write) this.#read.close();
    this.#write.close();
  }

  #open(): void {
    if (this.#closed) throw new Error("bug: the state store was used after close()");
  }
}

/** What a transaction wrote, kept until commit. */
class SqliteTx extends TxBase implements StateTx {
  readonly #db: DatabaseSync;

  constructor(db: DatabaseSync, now: () => Date, sealer: Sealer, lineage: string) {
    super(now, sealer, lineage);
    this.#db = db;
  }

  /** Remembers the sensitive paths the record had before this transaction. */
  #seed(address: string): void {
    if (this.paths.has(address)) return;
    const row = this.#db.prepare(
      "SELECT sensitive_paths, provider, type, mode FROM records WHERE address = ?",
    ).get(address);
    this.paths.set(
      address,
      row
        ? sensitivePathsOf({
          provider: String(row.provider),
          type: String(row.type),
          mode: String(row.mode) as Mode,
          sensitivePaths: JSON.parse(String(row.sensitive_paths)),
        })
        : [],
    );
  }

  async getRecord(address: string): Promise<StateRecord | undefined> {
    this.live();
    const row = this.#db.prepare("SELECT * FROM records WHERE address = ?").get(address);
    if (!row) return undefined;
    return this.unsealed(toRecord(row));
  }

  async putRecord(r: RecordInput): Promise<void> {
    this.live();
    this.#seed(r.address);
    this.paths.set(r.address, unionPaths(this.paths.get(r.address), sensitivePathsOf(r)));
    const now = this.now().toISOString();
    this.#db.prepare(
      `INSERT INTO records (address, mode, type, provider, attributes, sensitive_paths,
         dependencies, config_digest, created_at, updated_at, refreshed_at, refresh_age,
         provider_data)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (address) DO UPDATE SET mode = excluded.mode, type = excluded.type,
         provider = excluded.provider, attributes = excluded.attributes,
         sensitive_paths = excluded.sensitive_paths, dependencies = excluded.dependencies,
         config_digest = excluded.config_digest, updated_at = excluded.updated_at,
         refreshed_at = excluded.refreshed_at, refresh_age = excluded.refresh_age,
         provider_data = excluded.provider_data`,
    ).run(
      r.address,
      r.mode,
      r.type,
      r.provider,
      canonicalJson(sealAttributes(this.sealer, this.lineage, r)),
      JSON.stringify(r.sensitivePaths),
      JSON.stringify(r.dependencies),
      r.configDigest,
      r.createdAt ?? now,
      now,
      r.refreshedAt ?? now,
      r.refreshAge,
      providerDataColumn(this.sealer, this.lineage, r),
    );
    this.wrote = true;
    return;
  }

  async deleteRecord(address: string): Promise<boolean> {
    this.live();
    this.#seed(address);
    const n = this.#db.prepare("DELETE FROM records WHERE address = ?").run(address).changes;
    this.wrote = true;
    return Number(n) > 0;
  }

  async logChange(change: ChangeInput): Promise<void> {
    this.live();
    this.#seed(change.address);
    this.changes.push(structuredClone(change));
    this.wrote = true;
    return;
  }

  async markRefreshed(addresses: string[], at?: string): Promise<void> {
    this.live();
    const when = at ?? this.now().toISOString();
    this.#db.prepare(
      "UPDATE records SET refreshed_at = ? WHERE address IN (SELECT value FROM json_each(?))",
    ).run(when, JSON.stringify(addresses));
    // Refresh times are bookkeeping, not a change: they neither move the
    // serial (a saved plan stays fresh) nor make a log entry of their own.
    return;
  }

  async setOutputs(outputs: Record<string, unknown>): Promise<void> {
    this.live();
    this.#db.prepare(
      `INSERT INTO meta (key, value) VALUES ('outputs', ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    ).run(JSON.stringify(outputs));
  }
}

/**
 * Seals the sensitive values a state written before version 3 holds in
 * clear, and the key of its log's markers, in one transaction; then empties
 * the write-ahead log and rewrites the file, so that no page keeps the
 * values in clear.
 */
function sealPlainValues(db: DatabaseSync, path: string, sealer: Sealer): void {
  const done = immediate(db, path, () => {
    const meta = readMeta(db);
    if (meta.sealed === "1") return false; // another process did it meanwhile
    const lineage = meta.lineage ?? "";
    const update = db.prepare("UPDATE records SET attributes = ? WHERE address = ?");
    for (const row of db.prepare("SELECT * FROM records").all()) {
      const rec = toRecord(row);
      if (!holdsPlainSecret(rec)) continue;
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

/** A record as a row of the `records` table holds it (sensitive values sealed). */
export function toRecord(row: Row): StateRecord {
  return recordOfRow(row, asText);
}

function toReservation(row: Row): Reservation {
  return reservationOfRow(row, asText);
}

function fileExists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
}

/** Makes the folder (0700) and an empty file (0600) where they are missing. */
function createPrivateFile(path: string): void {
  const dir = dirname(path);
  if (!fileExists(dir)) {
    Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    Deno.chmodSync(dir, 0o700);
  }
  try {
    Deno.openSync(path, { write: true, createNew: true, mode: 0o600 }).close();
    Deno.chmodSync(path, 0o600);
  } catch (e) {
    if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
  }
}

function connect(path: string, busyTimeoutMs: number): DatabaseSync {
  let db: DatabaseSync;
  try {
    // `timeout` (the busy timeout) is newer than the @types/node we pin.
    db = new DatabaseSync(
      path,
      { timeout: busyTimeoutMs } as ConstructorParameters<
        typeof DatabaseSync
      >[1],
    );
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = FULL");
    db.exec("PRAGMA secure_delete = ON");
    db.prepare("SELECT count(*) FROM sqlite_schema").get(); // reads the header
  } catch (e) {
    throw storeFailure(e, path, "opening");
  }
  return db;
}

/**
 * A read-only connection. Where SQLite cannot make its shared-memory file
 * (a read-only file system) and no write-ahead log holds commits that the
 * file lacks, the file is opened as immutable: nothing can change it there.
 */
function connectReadOnly(path: string, busyTimeoutMs: number): DatabaseSync {
  const options = { readOnly: true, timeout: busyTimeoutMs } as ConstructorParameters<
    typeof DatabaseSync
  >[1];
  try {
    const db = new DatabaseSync(path, options);
    db.prepare("SELECT count(*) FROM sqlite_schema").get(); // reads the header
    return db;
  } catch (e) {
    if (sqliteCode(e) !== SQLITE_CANTOPEN || walHoldsCommits(path)) {
      throw storeFailure(e, path, "opening");
    }
  }
  try {
    const db = new DatabaseSync(`file:${encodeURI(path)}?immutable=1`, options);
    db.prepare("SELECT count(*) FROM sqlite_schema").get();
    return db;
  } catch (e) {
    throw storeFailure(e, path, "opening");
  }
}

const SQLITE_CANTOPEN = 14;

/** True when a write-ahead log beside `path` may hold transactions the file lacks. */
function walHoldsCommits(path: string): boolean {
  try {
    return Deno.statSync(`${path}-wal`).size > 0;
  } catch {
    return false;
  }
}

/**
 * A failure of SQLite on the state file as a diagnostic: a damaged file, a
 * full disk, a read-only file system. Others (a bug) are returned as they are.
 */
export function storeFailure(e: unknown, path: string, doing: "opening" | "using"): unknown {
  if (e instanceof DiagnosticsError) return e;
  const msg = (e as Error)?.message ?? String(e);
  if (isDamagedDatabase(e)) {
    return new DiagnosticsError([
      error(
        "The state store is damaged",
        `SQLite says "${msg}" of "${path}": the file is not a pravo state store, or it was ` +
          "damaged (a disk error, a copy made while it was written, an edit). Nothing was " +
          `written. Restore it from a backup; if "${path}-wal" is beside the damaged file, ` +
          "keep it with the restored one only if it belongs to it (it holds the latest " +
          `committed transactions). \`sqlite3 "${path}" .recover\` can save what is still ` +
          "readable. If the state is lost, `pravo init` makes a new, empty one; the real " +
          "world then has to be imported or recreated.",
      ),
    ], "error");
  }
  if (isDiskFull(e)) {
    return new DiagnosticsError([
      diskFull(
        path,
        "The transaction was rolled back: the state is as it was before it, and nothing is " +
          "half-written.",
      ),
    ], "error");
  }
  if (isReadOnly(e) || (doing === "opening" && cannotWrite(path))) {
    return new DiagnosticsError(
      [readOnlyFileSystem(path, "The state was not changed.")],
      "error",
    );
  }
  const code = sqliteCode(e);
  if (code === 10 || code === SQLITE_CANTOPEN || /disk I\/O error/i.test(msg)) {
    return new DiagnosticsError([
      error(
        `Cannot ${doing === "opening" ? "open" : "read or write"} the state store "${path}"`,
        `SQLite says: ${msg}. The disk may be full or failing, or the file or its folder may ` +
          "not be readable and writable by you. Nothing was written. Check the disk (df, " +
          "dmesg) and the permissions of the file and its folder, then try again.",
      ),
    ], "error");
  }
  if (doing === "opening" && (e as { code?: string })?.code === "ERR_SQLITE_ERROR") {
    return new DiagnosticsError([
      error(
        `Cannot open the state store "${path}"`,
        `SQLite says: ${msg}. Check that the file is a pravo state store and that you may read ` +
          "and write it and its folder; if it is damaged, restore it from a backup.",
      ),
    ], "error");
  }
  return e;
}

/** True when `path` exists and cannot be opened for writing (read-only file system, mode). */
function cannotWrite(path: string): boolean {
  try {
    Deno.openSync(path, { write: true }).close();
    return false;
  } catch (e) {
    return e instanceof Deno.errors.PermissionDenied || (e as { code?: string }).code === "EROFS";
  }
}

/**
 * The store with every method's SQLite failures turned into diagnostics
 * (storeFailure), so that a damaged file or a full disk met in the middle of
 * a command is reported as such and not as a bug.
 */
function guarded(store: SqliteStore, path: string): SqliteStore {
  return new Proxy(store, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target);
      if (typeof v !== "function") return v;
      return (...args: unknown[]) => {
        try {
          const r = v.apply(target, args);
          return r instanceof Promise
            ? r.catch((e: unknown) => {
              throw storeFailure(e, path, "using");
            })
            : r;
        } catch (e) {
          throw storeFailure(e, path, "using");
        }
      };
    },
  });
}

/** `BEGIN IMMEDIATE`, with a busy database reported as a held lock. */
function begin(db: DatabaseSync, path: string): void {
  try {
    db.exec("BEGIN IMMEDIATE");
  } catch (e) {
    const msg = (e as Error)?.message ?? "";
    if (/database is locked|database is busy/i.test(msg)) {
      throw new DiagnosticsError([
        error(
          "The state database is busy",
          `Another process kept a write transaction open on "${path}" longer than the ` +
            "busy timeout. Wait for it to finish, then try again.",
        ),
      ], "locked");
    }
    throw e;
  }
}

/** Runs `fn` in a `BEGIN IMMEDIATE` transaction: committed, or rolled back on a throw. */
function immediate<T>(db: DatabaseSync, path: string, fn: () => T): T {
  begin(db, path);
  try {
    const v = fn();
    db.exec("COMMIT");
    return v;
  } catch (e) {
    if (inTransaction(db)) db.exec("ROLLBACK");
    throw e;
  }
}

/** True inside an open transaction (`isTransaction`, newer than our @types/node). */
function inTransaction(db: DatabaseSync): boolean {
  return (db as unknown as { isTransaction: boolean }).isTransaction;
}

function readMeta(db: DatabaseSync): Record<string, string | undefined> {
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

function schemaVersion(db: DatabaseSync): number {
  return Number(readMeta(db).schema_version ?? 0);
}

function refuseNewer(version: number, path: string): void {
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
function migrate(db: DatabaseSync, path: string): void {
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
