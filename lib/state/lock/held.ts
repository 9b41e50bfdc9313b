/**
 * The state lock a store holds, for as long as it holds it: renewed every
 * third of its time to live while the process runs (so that it lapses soon
 * after a holder that vanished), marked held for the interrupts (a first
 * interrupt then lets the command unwind instead of ending the process), and
 * its beacon kept until it is let go. Each store gives its beacon and its
 * renewal; what to do with them is said once, here.
 *
 * @module
 */

import type { AcquiredLock } from "../store.ts";

/**
 * What tells others that a lock's holder is alive (SQLite: a locked file
 * beside the state; PostgreSQL: a session's advisory lock). Releasing it
 * tells them the holder is gone.
 */
export interface LockBeacon {
  release(): void | Promise<void>;
}

/** A beacon that tells nothing: the lock then lapses only by its expiry. */
export const NO_BEACON: LockBeacon = { release() {} };

/**
 * Marks `what` held for the command's interrupts until the returned function
 * is called (lib/workspace/interrupts.ts's `Interrupts.hold`).
 */
export type HoldFor = (what: string) => () => void;

/** No interrupts to tell (tools and tests that open a store without a command). */
export const NO_HOLD: HoldFor = () => () => {};

/** How long a lock lasts without renewal unless its request says. */
export const DEFAULT_LOCK_TTL_MS = 2 * 60_000;

/** The state lock this process holds (see the module's doc). */
export class HeldLock {
  readonly info: AcquiredLock;
  #beacon: LockBeacon | undefined;
  #unhold: (() => void) | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;

  /** `hold` marks the lock held for the command's interrupts (Interrupts.hold). */
  constructor(info: AcquiredLock, beacon: LockBeacon, hold: HoldFor = NO_HOLD) {
    this.info = info;
    this.#beacon = beacon;
    this.#unhold = hold(`the state lock ${info.id}`);
  }

  /**
   * Calls `renew` every third of `ttlMs` (at least every 10 ms) until
   * {@linkcode stopRenewing}; a renewal that fails is tried again at the next
   * tick, well before the expiry. The timer does not keep the process alive.
   */
  renewEvery(ttlMs: number, renew: () => Promise<void>): void {
    const every = Math.max(10, Math.floor(ttlMs / 3));
    const timer = setInterval(() => {
      renew().catch(() => {
        // busy or unreachable this time: the next tick tries again
      });
    }, every);
    Deno.unrefTimer(timer);
    this.#timer = timer;
  }

  /** Stops renewing; the lock stays held. */
  stopRenewing(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Stops renewing, ends the interrupt hold and releases the beacon (once). */
  letGo(): void | Promise<void> {
    this.stopRenewing();
    this.#unhold?.();
    this.#unhold = undefined;
    const beacon = this.#beacon;
    this.#beacon = undefined;
    return beacon?.release();
  }
}
