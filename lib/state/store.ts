/**
 * The state store: what pravo remembers about a root between runs.
 *
 * One interface, implemented by SQLite (`sqlite/`, the default, in
 * `.pravo/state.db`) and PostgreSQL (`postgres/`), which share what is not
 * their SQL (`store_base.ts`). Every method is async so that a store over
 * the network fits. The store holds:
 *
 * - the root's identity: a `lineage` (a UUID made when the state was created)
 *   and a `serial` that moves by one with every committed transaction that
 *   changed something;
 * - one record per node (address, mode, type, provider, attributes, the
 *   sensitive attribute paths, dependencies, config digest, times, refresh
 *   age), the values at sensitive paths sealed with pravo's key (seal.ts)
 *   and given back opened;
 * - an append-only transaction log: who, why, which command and plan, and
 *   every change with its before and after, sensitive values redacted;
 * - the state lock, held while an apply runs;
 * - reservations of addresses for a plan (`plan --reserve`).
 *
 * Writes happen in {@linkcode StateStore.transaction}: the records, the log
 * entry and the serial are committed together or not at all.
 *
 * @module
 */

import type { Mode } from "../providers/schema.ts";

export type { Mode };

/**
 * The schema version this program writes; older stores are migrated.
 * Version 2 records the plan's actor and reason in the log; version 3 seals
 * sensitive values at rest (seal.ts); version 4 keeps, for a plugin type's
 * record, its schema version and the provider's private data (sealed);
 * version 5 names, in each log entry, the run of pravo that wrote it, so that
 * the log shows one entry per apply.
 */
export const SCHEMA_VERSION = 5;

import type { AttrPath } from "../secrets/paths.ts";
export type { AttrPath };

/** The root's state identity. */
export interface StateIdentity {
  /** A UUID made when the state was created; it never changes. */
  lineage: string;
  /** Moves by one with every committed transaction that changed something. */
  serial: number;
  /** The schema version of the store. */
  schemaVersion: number;
}

/** What a node's record holds, as written by a transaction. */
export interface RecordInput {
  /** The node's address: its CUE path (`base`, `net.web.cert`). */
  address: string;
  mode: Mode;
  /** The type name with the provider's prefix: `random_integer`. */
  type: string;
  /** The provider's source: `hashicorp/random`. */
  provider: string;
  /** The attributes as the provider last returned them (JSON). */
  attributes: Record<string, unknown>;
  /** The paths of the attributes whose values are sensitive. */
  sensitivePaths: AttrPath[];
  /** The addresses this node depends on. */
  dependencies: string[];
  /** A digest of the node's configuration and inputs when last applied. */
  configDigest: string;
  /**
   * How long the value stays fresh (`"24h"`, `"0s"`); `null` when it never
   * needs reading again.
   */
  refreshAge: string | null;
  /** When the real world was last read; default: now. */
  refreshedAt?: string;
  /**
   * When the record was first written, for a record that moves to another
   * address (`state mv`, `moved`); default: now. A record that exists keeps
   * its own.
   */
  createdAt?: string;
  /**
   * The version of its type's schema the attributes were written with
   * (plugin types: an older one is upgraded by the provider before use).
   */
  schemaVersion?: number;
  /**
   * The provider's private data for the object, opaque, base64 (plugin
   * types); sealed at rest with pravo's key, as sensitive values are.
   */
  private?: string;
  /**
   * The provider configuration that made the object (`$aws_west`), as
   * Terraform records a resource's provider configuration address: what
   * reads and deletes it once its node is no longer in the configuration.
   * Absent from records written before pravo kept it (the source's first
   * configuration then stands in). Kept in the `provider_data` column, with
   * the schema version and the private data: no schema migration, and an
   * older pravo reads the state as before (and drops it when it rewrites
   * the record).
   */
  providerInstance?: string;
}

/** A node's record as stored. Times are ISO 8601 strings (UTC). */
export interface StateRecord extends RecordInput {
  /** When the record was first written. Kept across updates. */
  createdAt: string;
  /** When the record was last written. */
  updatedAt: string;
  refreshedAt: string;
}

/** What a change did to a node. */
export type ChangeAction =
  | "create"
  | "update"
  | "replace"
  | "delete"
  | "read"
  | "refresh"
  /** A record removed from the state, its object left as it is (`pravo state rm`). */
  | "forget"
  /** An existing object brought into the state (`pravo import`); after: its attributes. */
  | "import"
  /**
   * A record moved to another address (`pravo state mv`, a `moved` entry):
   * one change at the old address (after: `{moved_to}`) and one at the new
   * (before: `{moved_from}`).
   */
  | "move"
  | "failed"
  /** A node an interrupted apply cancelled or did not start (after: what and why). */
  | "interrupted"
  /** The state lock, removed by an operator (`pravo state unlock`); address `(state lock)`. */
  | "unlock";

/** One change inside a transaction, as given to {@linkcode StateTx.logChange}. */
export interface ChangeInput {
  address: string;
  action: ChangeAction;
  /** The attributes before, or `null` when the node did not exist. */
  before: Record<string, unknown> | null;
  /** The attributes after, or `null` when the node no longer exists. */
  after: Record<string, unknown> | null;
  /**
   * Paths whose values are sensitive, in before and after. The store also
   * redacts the sensitive paths of the node's record (as it was and as the
   * transaction writes it), so a caller cannot leak a value it forgot.
   */
  sensitivePaths?: AttrPath[];
}

/** One change as the log holds it: sensitive values replaced by markers. */
export interface LoggedChange {
  address: string;
  action: ChangeAction;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

import type { SensitiveMarker } from "../secrets/redact.ts";
export type { SensitiveMarker };

/** Who writes, why, and from what command. */
export interface TxMeta {
  actor: string;
  reason: string;
  /** The command that writes: `apply`, `drift`, `init`. */
  command: string;
  /** The plan being applied, when there is one. */
  planId?: string;
  /** Who made that plan (`plan --actor`), whoever applies it. */
  planActor?: string;
  /** Why that plan was made (`plan --reason`). */
  planReason?: string;
  /**
   * One run of pravo that writes in several transactions (an apply records
   * each node as it is done): the same id in each, so that the log shows the
   * run as one entry.
   */
  run?: string;
}

/** One entry of the transaction log: a committed transaction. */
export interface LogEntry {
  /** Increasing with each entry. */
  id: number;
  /** The serial the state reached with this transaction. */
  serial: number;
  /** When it was committed. */
  at: string;
  actor: string;
  reason: string;
  command: string;
  planId: string | null;
  /** Who made the plan that was applied, when there was one. */
  planActor: string | null;
  /** Why that plan was made. */
  planReason: string | null;
  /** The run that wrote it ({@linkcode TxMeta.run}), when it was one of several transactions. */
  run: string | null;
  changes: LoggedChange[];
}

/** The writes a transaction may do. Nothing is visible to others until commit. */
export interface StateTx {
  /** A record as this transaction sees it (its own writes included). */
  getRecord(address: string): Promise<StateRecord | undefined>;
  /** Writes a node's record, creating or replacing it. */
  putRecord(record: RecordInput): Promise<void>;
  /** Removes a node's record; true when there was one. */
  deleteRecord(address: string): Promise<boolean>;
  /** Adds a change to this transaction's log entry (redacted on the way in). */
  logChange(change: ChangeInput): Promise<void>;
  /**
   * Sets the refresh time of records without other change. It is not a change:
   * alone, it neither moves the serial nor makes a log entry.
   */
  markRefreshed(addresses: string[], at?: string): Promise<void>;
  /**
   * Sets the root's outputs, as the last whole apply left them (sensitive
   * ones redacted): what the next plan compares its outputs with. Like the
   * refresh times, bookkeeping: alone, it neither moves the serial nor makes
   * a log entry.
   */
  setOutputs(outputs: Record<string, unknown>): Promise<void>;
}

/** The state lock, as held or as listed. */
export interface LockInfo {
  /** A UUID made when the lock was taken. */
  id: string;
  actor: string;
  reason: string;
  command: string;
  /** The holder's process and host. */
  pid: number;
  hostname: string;
  /** When it was taken. */
  since: string;
  /** When it lapses unless its holder renews it (the holder does, while alive). */
  expires: string;
  /**
   * Why the lock no longer binds anyone, when it does not: its process is
   * gone, or it expired. Absent for a live lock.
   */
  stale?: string;
}

/** The lock just acquired; `tookOver` is the stale lock it replaced. */
export interface AcquiredLock extends LockInfo {
  tookOver?: LockInfo;
}

export interface LockRequest {
  actor: string;
  reason: string;
  command: string;
  /** How long to wait for another holder; 0 fails at once. */
  timeoutMs: number;
  /**
   * How long the lock lasts without renewal; the holder renews it every
   * third of that while it runs. Default 2 minutes.
   */
  ttlMs?: number;
}

/** Addresses set aside for a plan: no one else may change them. */
export interface Reservation {
  id: string;
  addresses: string[];
  actor: string;
  reason: string;
  planId: string;
  created: string;
  expires: string;
}

export interface ReservationRequest {
  addresses: string[];
  actor: string;
  reason: string;
  planId: string;
  /** How long it lasts. */
  ttlMs: number;
}

/** A reservation that covers some of the addresses asked about. */
export interface ReservationConflict {
  reservation: Reservation;
  /** The asked-for addresses that it covers, sorted. */
  addresses: string[];
}

/** Where a store keeps its data, for messages and `--json` documents. */
export interface StoreLocation {
  backend: "sqlite" | "postgres";
  /** The file (SQLite), or the URL without its password (PostgreSQL). */
  path: string;
}

/** The state store of one root. */
export interface StateStore {
  readonly location: StoreLocation;
  /** True when opening this store created the state (and its lineage). */
  readonly created: boolean;

  /** The lineage, the serial and the schema version. */
  identity(): Promise<StateIdentity>;

  /** One record, or undefined when the node has none. */
  getRecord(address: string): Promise<StateRecord | undefined>;
  /** Every record, sorted by address. */
  listRecords(): Promise<StateRecord[]>;
  /** Every address that has a record, sorted. */
  listAddresses(): Promise<string[]>;

  /**
   * The transaction log, newest first: at most `limit` entries (default all),
   * only those that changed `address` when given.
   */
  readLog(opts?: { limit?: number; address?: string }): Promise<LogEntry[]>;
  /** The outputs the last whole apply recorded (StateTx.setOutputs); null before any. */
  readOutputs(): Promise<Record<string, unknown> | null>;

  /**
   * Runs `fn` in one write transaction. On success its records and one log
   * entry are committed together and the serial moves by one; when `fn`
   * wrote nothing, nothing is committed and the serial stays. When `fn`
   * throws, nothing of it is kept and the error is rethrown. A crash at any
   * instant keeps all of it or none.
   *
   * Transactions of one store run one at a time. Keep `fn` short: other
   * writers wait while it runs. A transaction is refused (exit 4) while
   * another process holds the state lock.
   */
  transaction<T>(meta: TxMeta, fn: (tx: StateTx) => Promise<T>): Promise<T>;

  /**
   * Takes the state lock, waiting up to `timeoutMs` for its holder; then
   * fails with a `DiagnosticsError` (exit 4) naming the holder. A lock whose
   * process is gone, or which expired, is taken over.
   */
  acquireLock(req: LockRequest): Promise<AcquiredLock>;
  /** Releases a lock this store holds; a lock taken over since is left alone. */
  releaseLock(lock: LockInfo): Promise<void>;
  /** The state lock when there is one (live or stale). */
  listLocks(): Promise<LockInfo[]>;
  /**
   * Removes the state lock `id` whoever holds it (`pravo state unlock`, for
   * operators), and records it in the log with `meta`'s actor and reason, in
   * one transaction (a log entry moves the serial: plans made before it are
   * stale, and should be, since the holder may not have recorded all it
   * did). Undefined when the state has no lock with that id.
   */
  unlock(id: string, meta: TxMeta): Promise<LockInfo | undefined>;

  /** Reserves addresses for a plan. */
  createReservation(req: ReservationRequest): Promise<Reservation>;
  /** The reservations, oldest first; expired ones only when asked. */
  listReservations(opts?: { includeExpired?: boolean }): Promise<Reservation[]>;
  /** Releases a reservation; false when there was none with that id. */
  releaseReservation(id: string): Promise<boolean>;
  /**
   * The live reservations that cover any of `addresses` and belong to
   * someone else: neither made by `actor` nor for `planId`.
   */
  findReservationConflicts(
    addresses: string[],
    by: { actor: string; planId?: string },
  ): Promise<ReservationConflict[]>;

  /** Closes the store; a lock it holds is released. */
  close(): Promise<void>;
}
