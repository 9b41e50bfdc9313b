/**
 * What a held state lock tells the writer that finds it: who holds it, and
 * what to do, which depends on what can be known of the holder. A holder
 * known to be running is waited for (or stopped, and it releases the lock as
 * it stops); a holder that cannot be seen from here may be gone, and then the
 * lock lapses or an operator releases it with `pravo state unlock`. A lock
 * whose holder is known to be gone never gets here: it is taken over.
 *
 * @module
 */

import { type Diagnostic, DiagnosticsError, error, warning } from "../../diag/diag.ts";
import type { ChangeInput, LockInfo, StoreLocation } from "../store.ts";

/** What the store knows of a live lock's holder. */
export type HolderLiveness =
  /** Its process is running on this host. */
  | "running here"
  /** Its session with the shared store is alive, on whatever host. */
  | "session alive"
  /** Nothing tells: another host, or no way to look from here. */
  | "unknown";

/** The error (exit 4) for a state lock held by someone else. */
export function lockedError(
  holder: LockInfo,
  where: StoreLocation,
  opts: { summary?: string; waitedMs?: number; liveness: HolderLiveness },
): DiagnosticsError {
  const reason = holder.reason === "" ? "no reason given" : `reason "${holder.reason}"`;
  // Without permission to ask (--allow-sys=hostname) the holder recorded no host name.
  const host = holder.hostname === "" ? "a host it could not name" : `host "${holder.hostname}"`;
  const waited = opts.waitedMs === undefined
    ? ""
    : ` Waited ${(opts.waitedMs / 1000).toFixed(1)}s for it to be released.`;
  const todo = {
    "running here": `That process is running on this host. Wait for it to finish, or stop it ` +
      `(Ctrl-C where it runs, or \`kill -INT ${holder.pid}\`): pravo releases the lock as it ` +
      "stops. Then try again.",
    "session alive": "Its connection to the state store is alive, so that run is still going. " +
      "Wait for it to finish, or stop it (Ctrl-C where it runs): pravo releases the lock as it " +
      "stops. Then try again.",
    unknown: `pravo cannot tell from here whether process ${holder.pid} is still running. If ` +
      `it is, wait for it to finish. If it is not (its machine stopped, or it was killed), ` +
      `the lock lapses at ${holder.expires}, or an operator can release it now with ` +
      `\`pravo state unlock ${holder.id}\`. Then try again.`,
  }[opts.liveness];
  return new DiagnosticsError([
    error(
      opts.summary ??
        `The state is locked by "${holder.actor}" (command "${holder.command}") since ${holder.since}`,
      `The state lock ${holder.id} of ${where.path} is held by actor "${holder.actor}", command ` +
        `"${holder.command}", ${reason}, process ${holder.pid} on ${host}, since ` +
        `${holder.since}; it lapses at ${holder.expires} unless its holder renews it.` +
        `${waited} ${todo}`,
    ),
  ], "locked");
}

/** The warning printed when a writer took over a lock whose holder was gone or had lapsed. */
export function tookOverWarning(old: LockInfo): Diagnostic {
  const reason = old.reason === "" ? "" : `, reason "${old.reason}"`;
  return warning(
    `Took over the state lock of "${old.actor}" (command "${old.command}")`,
    `The lock ${old.id}, taken at ${old.since}${reason}, no longer bound anyone: ${old.stale}. ` +
      "That run ended without releasing it. What it committed is in the state, but work it had " +
      "in flight may have changed the real world unrecorded: check `pravo state log`, and plan " +
      "again before applying an older plan.",
  );
}

/** The address under which the log records changes to the state lock itself. */
export const STATE_LOCK_ADDRESS = "(state lock)";

/** The log's change for a lock that an operator removed (`pravo state unlock`). */
export function unlockChange(lock: LockInfo): ChangeInput {
  const { stale, ...held } = lock;
  return {
    address: STATE_LOCK_ADDRESS,
    action: "unlock",
    before: { ...held, ...(stale === undefined ? {} : { stale }) },
    after: null,
  };
}
