/**
 * A store and a transaction that keep their rows in memory and say what
 * their steps did: the protocols both stores share (store_base.ts,
 * tx_base.ts) run over them in tests as over SQLite's and PostgreSQL's SQL.
 *
 * @module
 */

import { Sealer } from "../secrets/seal.ts";
import { BUILTIN_REGISTRY } from "../providers/registry.ts";
import type { Row } from "./rows.ts";
import { type CurrentLock, type LogChangeRow, StoreBase } from "./store_base.ts";
import { TxBase } from "./tx_base.ts";
import type { LockBeacon } from "./lock/held.ts";
import type {
  AcquiredLock,
  LockInfo,
  RecordInput,
  Reservation,
  StateRecord,
  TxMeta,
} from "./store.ts";

/** The memory store's redaction key, not sealed. */
export const MEMORY_KEY = "ab".repeat(32);
const SEALER = new Sealer(() => {
  throw new Error("no key in these tests");
}, { where: "memory", types: BUILTIN_REGISTRY.findType });

/**
 * A transaction of the memory store: it logs, and reads the sensitive paths
 * of the records in `stored` (their rows' columns), counting the reads.
 */
export class MemoryTx extends TxBase {
  reads = 0;
  constructor(readonly stored: Record<string, Row> = {}) {
    super({ now: () => new Date(0), sealer: SEALER, lineage: "lineage" });
  }
  protected storedPaths(address: string): Row | undefined {
    this.reads++;
    return this.stored[address];
  }
  getRecord(): Promise<StateRecord | undefined> {
    return Promise.resolve(undefined);
  }
  putRecord(r: RecordInput): Promise<void> {
    this.addPaths(r);
    this.wrote = true;
    return Promise.resolve();
  }
  deleteRecord(): Promise<boolean> {
    return Promise.resolve(false);
  }
  markRefreshed(): Promise<void> {
    return Promise.resolve();
  }
  setOutputs(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * A store whose single steps keep their rows in memory and say what they
 * did: the shared protocols of StoreBase run over it as over SQLite's.
 */
export class MemoryStore extends StoreBase<null, LockBeacon> {
  /** What its steps did, in order. */
  readonly steps: string[] = [];
  readonly log: { meta: TxMeta; changes: LogChangeRow[] }[] = [];
  /** The state lock. */
  lock: CurrentLock | undefined;
  /** How many reads of the lock find it live before it is stale; -1, never. */
  attemptsBeforeStale = 0;

  constructor() {
    super({
      location: { backend: "sqlite", path: "/memory" },
      now: () => new Date(0),
      sealer: SEALER,
      lineage: "lineage",
      redactionKey: MEMORY_KEY,
    });
  }
  /** Runs `fn` alone, after the writes queued before it. */
  run<T>(fn: () => T | Promise<T>) {
    return this.exclusive(fn);
  }
  /** The lock this store holds. */
  held() {
    return this.heldLock;
  }
  protected async writeTx<T>(doing: string, fn: (h: null) => Promise<T>): Promise<T> {
    this.steps.push(`begin ${doing}`);
    try {
      const v = await fn(null);
      this.steps.push("commit");
      return v;
    } catch (e) {
      this.steps.push("rollback");
      throw e;
    }
  }
  protected newTx(): TxBase {
    return new MemoryTx();
  }
  protected appendLog(_h: null, meta: TxMeta, changes: LogChangeRow[]): void {
    this.log.push({ meta, changes });
  }
  protected readLock(): Promise<CurrentLock | undefined> {
    if (this.lock && this.attemptsBeforeStale-- === 0) {
      this.lock = { ...this.lock, info: { ...this.lock.info, stale: "it expired" } };
    }
    return Promise.resolve(this.lock);
  }
  protected writeLock(_h: null, lock: AcquiredLock): void {
    this.steps.push(`write lock ${lock.id === this.lock?.info.id ? "again" : "new"}`);
    this.lock = { info: lock, liveness: () => "running here" };
  }
  protected deleteLock(_h: null, id: string): void {
    this.steps.push("delete lock");
    if (this.lock?.info.id === id) this.lock = undefined;
  }
  protected removeLock(id: string): Promise<void> {
    this.steps.push("remove lock");
    if (this.lock?.info.id === id) this.lock = undefined;
    return Promise.resolve();
  }
  protected renewLock(): Promise<boolean> {
    return Promise.resolve(this.lock !== undefined);
  }
  protected takeBeacon(): Promise<LockBeacon> {
    this.steps.push("take beacon");
    return Promise.resolve({ release: () => void this.steps.push("release beacon") });
  }
  protected forgetBeacon(): void {
    this.steps.push("forget beacon");
  }
  protected insertReservation(_h: null, r: Reservation): void {
    this.steps.push(`reserve ${r.addresses.join(",")}`);
  }
  protected deleteReservation(): Promise<boolean> {
    return Promise.resolve(true);
  }
  protected closeConnections(): void {
    this.steps.push("close");
  }
}

/** A lock another process holds. */
export const HELD_BY_OTHER: LockInfo = {
  id: "other",
  actor: "bo",
  reason: "",
  command: "apply",
  pid: 1,
  hostname: "h",
  since: "1970-01-01T00:00:00.000Z",
  expires: "1970-01-01T00:02:00.000Z",
};
