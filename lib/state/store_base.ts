/**
 * What the SQLite and PostgreSQL stores share apart from their SQL: the
 * clock, the sealer and the lineage they seal under, the log's redaction
 * key (opened when first needed), the queue that runs one write at a time,
 * and the protocols written once over each store's single steps:
 *
 * - a transaction: begin, refuse while another holds the state lock, run the
 *   caller's function, then move the serial and log its changes (redacted)
 *   when it wrote, all committed together;
 * - the state lock: take the beacon, then retry one attempt (read the lock;
 *   write ours when no live holder has it) with the one loop of
 *   lock/loop.ts; hold it (lock/held.ts); release the row before the beacon;
 *   unlock another's with a log entry;
 * - reservations made and released one write at a time, and closing.
 *
 * A store gives its SQL through the abstract methods, each one step with no
 * retry and no policy of its own.
 *
 * @module
 */

import { AsyncLocalStorage } from "node:async_hooks";
import type { Sealer } from "../secrets/seal.ts";
import { holdsSealed, unsealRecord } from "../secrets/seal.ts";
import { canonicalJson, redact, unionPaths } from "../secrets/redact.ts";
import { loadCrypto } from "../keys/lazy.ts";
import type {
  AcquiredLock,
  LockInfo,
  LockRequest,
  Reservation,
  ReservationRequest,
  StateRecord,
  StateTx,
  StoreLocation,
  TxMeta,
} from "./store.ts";
import { type Attempt, lockWithRetry, newLock } from "./lock/loop.ts";
import { type HolderLiveness, lockedError, unlockChange } from "./lock/message.ts";
import { DEFAULT_LOCK_TTL_MS, HeldLock, type HoldFor, type LockBeacon } from "./lock/held.ts";
import type { Sealing, TxBase } from "./tx_base.ts";
import type { StoredChange } from "./rows.ts";

/** The name of the log's redaction key, as it is sealed. */
export const REDACTION_KEY = "redaction key";

/** The state lock as a store reads it inside a write transaction. */
export interface CurrentLock {
  /** The lock, `stale` set when it no longer binds anyone. */
  info: LockInfo;
  /** What can be known of its holder, for the message (asked only when needed). */
  liveness(): HolderLiveness;
}

/** One change of a log entry as it is written: sensitive values redacted, JSON as text. */
export interface LogChangeRow extends StoredChange {
  /** Its place in the entry, from 0. */
  seq: number;
}

/** What a store is made of once opened. */
export interface OpenedStore {
  location: StoreLocation;
  /** The clock for every time the store writes. */
  now: () => Date;
  /** Seals and opens the sensitive values, under the state's lineage. */
  sealer: Sealer;
  lineage: string;
  /** The log's redaction key as stored (sealed). */
  redactionKey: string;
  /** Marks the state lock held for the command's interrupts; default none. */
  hold?: HoldFor;
}

/** Marks the async call chain inside a transaction's `fn`, to catch nesting. */
const insideTx = new AsyncLocalStorage<object>();

/**
 * What both stores share (see the module's doc). `H` is a write
 * transaction's handle (SQLite's connection, PostgreSQL's transaction), `B`
 * the lock's beacon.
 */
export abstract class StoreBase<H, B extends LockBeacon> {
  readonly location: StoreLocation;
  protected readonly now: () => Date;
  protected readonly sealer: Sealer;
  protected readonly lineage: string;
  readonly #hold: HoldFor | undefined;
  /** The lock this store holds, if any. */
  #held: HeldLock | undefined;
  readonly #storedRedactionKey: string;
  #redactionKeyOpen: string | undefined;
  /** Serialises this store's writes: one transaction at a time. */
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;

  protected constructor(opened: OpenedStore) {
    this.location = opened.location;
    this.now = opened.now;
    this.sealer = opened.sealer;
    this.lineage = opened.lineage;
    this.#hold = opened.hold;
    this.#storedRedactionKey = opened.redactionKey;
  }

  /** The lock this store holds, if any. */
  protected get heldLock(): LockInfo | undefined {
    return this.#held?.info;
  }

  // What each store gives: one step each, in its own SQL.

  /**
   * Runs `fn` in one write transaction, committed when it returns and rolled
   * back when it throws; `doing` names it in the store's failures.
   */
  protected abstract writeTx<T>(doing: "write" | "lock", fn: (h: H) => Promise<T>): Promise<T>;
  /** A transaction's reads and writes over `h`. */
  protected abstract newTx(h: H): TxBase;
  /** Moves the serial by one and writes a log entry of `meta` with `changes`. */
  protected abstract appendLog(h: H, meta: TxMeta, changes: LogChangeRow[]): void | Promise<void>;
  /** The state lock, if any (PostgreSQL: after locking the root's row, so that writers queue). */
  protected abstract readLock(h: H): Promise<CurrentLock | undefined>;
  /** Writes `lock` (with its beacon) in place of whatever lock there was. */
  protected abstract writeLock(h: H, lock: AcquiredLock, beacon: B): void | Promise<void>;
  /** Removes the lock `id`, in the transaction `h`. */
  protected abstract deleteLock(h: H, id: string): void | Promise<void>;
  /** Removes the lock `id` this store held, on its own. */
  protected abstract removeLock(id: string): Promise<void>;
  /** Moves the expiry of the lock `id`; false when it is no longer there (taken over). */
  protected abstract renewLock(id: string, expires: string): Promise<boolean>;
  /** The beacon of the lock `id`, taken before its row is written. */
  protected abstract takeBeacon(id: string): Promise<B>;
  /** Forgets what is left of the beacon of another's lock `id`, gone now. */
  protected abstract forgetBeacon(id: string): void;
  /** Writes a new reservation. */
  protected abstract insertReservation(h: H, r: Reservation): void | Promise<void>;
  /** Removes the reservation `id`; false when there was none. */
  protected abstract deleteReservation(id: string): Promise<boolean>;
  /** Closes the store's connections. */
  protected abstract closeConnections(): void | Promise<void>;

  // The shared protocols.

  /**
   * Runs `fn` in one write transaction, one at a time; refused while
   * another live holder has the state lock. What `fn` wrote, the serial and
   * the log entry are committed together, or nothing.
   */
  async transaction<T>(meta: TxMeta, fn: (tx: StateTx) => Promise<T>): Promise<T> {
    this.assertOpen();
    await loadCrypto(); // the transaction seals what it writes and redacts its log
    if (insideTx.getStore() === this) {
      throw new Error(
        "bug: a state transaction was started inside another one of the same store; " +
          "use the tx given to the outer transaction",
      );
    }
    return await this.exclusive(() =>
      this.writeTx("write", async (h) => {
        await this.#refuseIfLockedByOther(h);
        const tx = this.newTx(h);
        let value: T;
        try {
          value = await insideTx.run(this, () => fn(tx));
        } finally {
          tx.finish();
        }
        if (tx.wrote) await this.#commitLog(h, meta, tx);
        return value;
      })
    );
  }

  /** Refuses when another live holder has the state lock. */
  async #refuseIfLockedByOther(h: H): Promise<void> {
    const current = await this.readLock(h);
    if (current === undefined) return;
    const lock = current.info;
    if (lock.stale !== undefined || lock.id === this.heldLock?.id) return;
    throw lockedError(lock, this.location, {
      summary: "The state is locked by another writer",
      liveness: current.liveness(),
    });
  }

  /** Moves the serial and writes the log entry with the transaction's changes, redacted. */
  #commitLog(h: H, meta: TxMeta, tx: TxBase): void | Promise<void> {
    const changes = tx.changes.map((c, seq): LogChangeRow => {
      const paths = unionPaths(c.sensitivePaths, tx.sensitivePathsOf(c.address));
      const before = redact(c.before, paths, this.redactionKey());
      const after = redact(c.after, paths, this.redactionKey());
      return {
        seq,
        address: c.address,
        action: c.action,
        before: before === null ? null : canonicalJson(before),
        after: after === null ? null : canonicalJson(after),
      };
    });
    return this.appendLog(h, meta, changes);
  }

  /**
   * Takes the state lock: the beacon first, so that no one sees the lock's
   * row without it and takes the lock for a dead holder's; then one attempt
   * at a time, each alone (after the writes queued before it), retried by
   * the one lock loop. The beacon is let go when the loop fails.
   */
  async acquireLock(req: LockRequest): Promise<AcquiredLock> {
    this.assertOpen();
    this.refuseSecondLock();
    const ttl = req.ttlMs ?? DEFAULT_LOCK_TTL_MS;
    const id = crypto.randomUUID();
    const beacon = await this.takeBeacon(id);
    let acquired: AcquiredLock;
    try {
      acquired = await lockWithRetry(
        req,
        this.location,
        () =>
          this.exclusive(() =>
            this.writeTx("lock", (h) => this.#attempt(h, { req, id, ttl, beacon }))
          ),
      );
    } catch (e) {
      await beacon.release();
      throw e;
    }
    this.#held = new HeldLock(acquired, beacon, this.#hold);
    this.#held.renewEvery(ttl, () => this.exclusive(() => this.#renew(acquired.id, ttl)));
    if (acquired.tookOver) this.forgetBeacon(acquired.tookOver.id);
    return acquired;
  }

  /** One attempt: the lock `id` is ours unless a live holder has the state lock. */
  async #attempt(
    h: H,
    want: { req: LockRequest; id: string; ttl: number; beacon: B },
  ): Promise<Attempt> {
    const { req, id, ttl, beacon } = want;
    const current = await this.readLock(h);
    if (current !== undefined && current.info.stale === undefined) {
      return { held: current.info, liveness: current.liveness() };
    }
    const lock = newLock(req, id, this.now(), ttl, current?.info);
    await this.writeLock(h, lock, beacon);
    return { acquired: lock };
  }

  /** Moves the held lock's expiry; lets it go when it was taken over meanwhile. */
  async #renew(id: string, ttl: number): Promise<void> {
    const expires = new Date(this.now().getTime() + ttl).toISOString();
    if (!(await this.renewLock(id, expires))) await this.letGo(); // taken over: no longer ours
    else if (this.heldLock) this.heldLock.expires = expires;
  }

  /** Forgets the held lock: no more renewal, no interrupt hold, the beacon released. */
  protected letGo(): void | Promise<void> {
    const held = this.#held;
    this.#held = undefined;
    return held?.letGo();
  }

  /** Releases a lock this store holds; a lock taken over since is left alone. */
  async releaseLock(lock: LockInfo): Promise<void> {
    this.assertOpen();
    const mine = this.heldLock?.id === lock.id;
    if (mine) this.#held?.stopRenewing();
    try {
      await this.exclusive(() => this.removeLock(lock.id));
    } finally {
      // The row goes first, the beacon after: a waiter that saw the beacon
      // gone with the row still there would take the lock over as a dead
      // holder's.
      if (mine) await this.letGo();
    }
  }

  /**
   * Removes the state lock `id`, whoever holds it, and records who did it
   * and why in the log, in one transaction. Undefined when there is no lock
   * with that id.
   */
  async unlock(id: string, meta: TxMeta): Promise<LockInfo | undefined> {
    this.assertOpen();
    await loadCrypto(); // its log entry is redacted
    return await this.exclusive(async () => {
      const lock = await this.writeTx("write", async (h) => {
        const current = await this.readLock(h);
        if (current === undefined || current.info.id !== id) return undefined;
        await this.deleteLock(h, id);
        const tx = this.newTx(h);
        tx.changes.push(unlockChange(current.info));
        tx.finish();
        await this.#commitLog(h, meta, tx);
        return current.info;
      });
      if (lock === undefined) return undefined;
      if (lock.id === this.heldLock?.id) await this.letGo();
      else this.forgetBeacon(id);
      return lock;
    });
  }

  /** Reserves addresses for a plan. */
  async createReservation(req: ReservationRequest): Promise<Reservation> {
    this.assertOpen();
    const r = newReservation(req, this.now());
    await this.exclusive(() =>
      this.writeTx("write", async (h) => {
        await this.insertReservation(h, r);
      })
    );
    return r;
  }

  /** Releases a reservation; false when there was none with that id. */
  async releaseReservation(id: string): Promise<boolean> {
    this.assertOpen();
    return await this.exclusive(() => this.deleteReservation(id));
  }

  /** Closes the store; a lock it holds is released. */
  async close(): Promise<void> {
    if (this.#closed) return;
    const held = this.heldLock;
    if (held) await this.releaseLock(held).catch(() => this.letGo());
    await this.settled();
    this.#closed = true;
    await this.closeConnections();
  }

  /** What this store's transactions write with. */
  protected sealing(): Sealing {
    return { now: this.now, sealer: this.sealer, lineage: this.lineage };
  }

  /** Refuses a store used after close(): a bug in the caller. */
  protected assertOpen(): void {
    if (this.#closed) throw new Error("bug: the state store was used after close()");
  }

  /** The key of the log's markers, opened when first needed. */
  protected redactionKey(): string {
    return this.#redactionKeyOpen ??= this.sealer.unsealText(
      this.lineage,
      REDACTION_KEY,
      this.#storedRedactionKey,
    );
  }

  /** Records read from rows, their sealed values opened; loads the cryptography only if one is sealed. */
  protected async unsealedAll(recs: StateRecord[]): Promise<StateRecord[]> {
    if (recs.some((r) => holdsSealed(this.sealer, r))) await loadCrypto();
    return recs.map((rec) => unsealRecord(this.sealer, this.lineage, rec));
  }

  /** Runs `fn` after every write queued before it, alone. */
  protected exclusive<T>(fn: () => T | Promise<T>): Promise<T> {
    const run = this.#queue.then(fn, fn);
    this.#queue = run.catch(() => {});
    return run;
  }

  /** Resolves once every write queued so far has ended. */
  protected async settled(): Promise<void> {
    await this.#queue.catch(() => {});
  }

  /** A store takes the state lock once: a second take is a bug in the caller. */
  protected refuseSecondLock(): void {
    if (this.heldLock !== undefined) {
      throw new Error("bug: this store already holds the state lock");
    }
  }
}

/** A reservation of `req`'s addresses (once each, sorted by code unit), made at `now`. */
export function newReservation(req: ReservationRequest, now: Date): Reservation {
  return {
    id: crypto.randomUUID(),
    addresses: [...new Set(req.addresses)].sort(),
    actor: req.actor,
    reason: req.reason,
    planId: req.planId,
    created: now.toISOString(),
    expires: new Date(now.getTime() + req.ttlMs).toISOString(),
  };
}
