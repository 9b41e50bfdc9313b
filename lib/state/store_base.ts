/**
 * What the SQLite and PostgreSQL stores share apart from their SQL: the
 * clock, the sealer and the lineage they seal under, the log's redaction
 * key (opened when first needed), the queue that runs one write at a time,
 * the lock this store holds; and, for their transactions, the changes and
 * the sensitive paths kept until commit.
 *
 * @module
 */

import type { Sealer } from "../secrets/seal.ts";
import { unsealRecord } from "../secrets/seal.ts";
import type { AttrPath } from "../secrets/paths.ts";
import type {
  AcquiredLock,
  ChangeInput,
  LockInfo,
  LockRequest,
  StateRecord,
  StoreLocation,
} from "./store.ts";
import { type Attempt, lockWithRetry } from "./lock/loop.ts";

/** The name of the log's redaction key, as it is sealed. */
export const REDACTION_KEY = "redaction key";

/** What both stores share (see the module's doc). */
export abstract class StoreBase {
  protected readonly now: () => Date;
  protected readonly sealer: Sealer;
  protected readonly lineage: string;
  /** The lock this store holds, if any. */
  protected heldLock: LockInfo | undefined;
  readonly #storedRedactionKey: string;
  #redactionKeyOpen: string | undefined;
  /** Serialises this store's writes: one transaction at a time. */
  #queue: Promise<unknown> = Promise.resolve();

  protected constructor(now: () => Date, sealer: Sealer, lineage: string, redactionKey: string) {
    this.now = now;
    this.sealer = sealer;
    this.lineage = lineage;
    this.#storedRedactionKey = redactionKey;
  }

  /** The key of the log's markers, opened when first needed. */
  protected redactionKey(): string {
    return this.#redactionKeyOpen ??= this.sealer.unsealText(
      this.lineage,
      REDACTION_KEY,
      this.#storedRedactionKey,
    );
  }

  /** A record read from a row, its sealed values opened. */
  protected unsealed(rec: StateRecord): StateRecord {
    return unsealRecord(this.sealer, this.lineage, rec);
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

  /**
   * Takes the state lock by this store's single `attempt`, each run alone
   * (after the writes queued before it), retried by the one lock loop;
   * `giveUp` lets go of what the attempts needed (the beacon) when it fails.
   */
  protected async lockBy(
    req: LockRequest,
    where: StoreLocation,
    attempt: () => Attempt | Promise<Attempt>,
    giveUp: () => void | Promise<void>,
  ): Promise<AcquiredLock> {
    this.refuseSecondLock();
    try {
      return await lockWithRetry(req, where, () => this.exclusive(attempt));
    } catch (e) {
      await giveUp();
      throw e;
    }
  }

  /** A store takes the state lock once: a second take is a bug in the caller. */
  protected refuseSecondLock(): void {
    if (this.heldLock !== undefined) {
      throw new Error("bug: this store already holds the state lock");
    }
  }
}

/** What both stores' transactions share (see the module's doc). */
export abstract class TxBase {
  protected readonly now: () => Date;
  protected readonly sealer: Sealer;
  protected readonly lineage: string;
  readonly changes: ChangeInput[] = [];
  /** Every path that was sensitive in each record this transaction wrote, before or after. */
  protected readonly paths = new Map<string, AttrPath[]>();
  wrote = false;
  #done = false;

  protected constructor(now: () => Date, sealer: Sealer, lineage: string) {
    this.now = now;
    this.sealer = sealer;
    this.lineage = lineage;
  }

  finish(): void {
    this.#done = true;
  }

  /** Refuses a transaction used after it ended: a bug in the caller. */
  protected live(): void {
    if (this.#done) throw new Error("bug: a state transaction was used after it ended");
  }

  /** Every path that was sensitive in the record, before or after. */
  sensitivePathsOf(address: string): AttrPath[] {
    return this.paths.get(address) ?? [];
  }

  /** A record read from a row, its sealed values opened. */
  protected unsealed(rec: StateRecord): StateRecord {
    return unsealRecord(this.sealer, this.lineage, rec);
  }
}
