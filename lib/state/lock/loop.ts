/**
 * Taking the state lock, for every store: one loop that retries a single
 * attempt until it wins or the wait runs out, as OpenTofu's
 * `statemgr.LockWithContext` does over its backends. A store gives only its
 * attempt: one transaction that reads the lock's row and, when no live
 * holder has it, writes its own.
 *
 * @module
 */

import { currentHolder } from "./holder.ts";
import { type HolderLiveness, lockedError } from "./message.ts";
import type { AcquiredLock, LockInfo, LockRequest, StoreLocation } from "../store.ts";

/** What one attempt found: the lock taken, or who holds it. */
export type Attempt =
  | { acquired: AcquiredLock }
  | { held: LockInfo; liveness: HolderLiveness };

/** The first wait between two attempts, and the longest. */
export const FIRST_WAIT_MS = 25;
export const LONGEST_WAIT_MS = 250;

/**
 * Runs `attempt` until it takes the lock, waiting between tries (25 ms,
 * doubling up to 250 ms); after `req.timeoutMs` the lock's holder is
 * reported as a `locked` failure. What `attempt` throws ends the loop.
 */
export async function lockWithRetry(
  req: LockRequest,
  where: StoreLocation,
  attempt: () => Promise<Attempt>,
): Promise<AcquiredLock> {
  const started = performance.now();
  let delay = FIRST_WAIT_MS;
  for (;;) {
    const outcome = await attempt();
    if ("acquired" in outcome) return outcome.acquired;
    const waited = performance.now() - started;
    if (waited >= req.timeoutMs) {
      throw lockedError(outcome.held, where, { waitedMs: waited, liveness: outcome.liveness });
    }
    await new Promise((r) => setTimeout(r, Math.min(delay, req.timeoutMs - waited)));
    delay = Math.min(delay * 2, LONGEST_WAIT_MS);
  }
}

/**
 * The lock this process writes when it takes the lock at `now` for `ttlMs`;
 * `current` is the stale lock it takes over, if any.
 */
export function newLock(
  req: LockRequest,
  id: string,
  now: Date,
  ttlMs: number,
  current?: LockInfo,
): AcquiredLock {
  const me = currentHolder();
  return {
    id,
    actor: req.actor,
    reason: req.reason,
    command: req.command,
    pid: me.pid,
    hostname: me.hostname,
    since: now.toISOString(),
    expires: new Date(now.getTime() + ttlMs).toISOString(),
    ...(current ? { tookOver: current } : {}),
  };
}
