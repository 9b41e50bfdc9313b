/**
 * Exit codes: a contract that scripts rely on. Documented in
 * `docs/reference/exit-codes.md`; change both together.
 *
 * @module
 */

import type { FailureKind } from "../diag/diag.ts";

export const Exit = {
  /** Done, and nothing to do. */
  OK: 0,
  /** An error: something failed that is not one of the cases below. */
  ERROR: 1,
  /** Changes planned, or drift found: a result, not a failure. */
  CHANGES: 2,
  /** The specification is invalid: see the diagnostics. */
  INVALID: 3,
  /** A lock or a reservation is held by someone else. */
  LOCKED: 4,
  /** Refused by a policy, or a policy could not be used. */
  POLICY: 5,
  /** The saved plan is stale: the state moved since it was made. */
  STALE: 6,
  /** The plan file is damaged, truncated or not a plan file. */
  PLAN_CORRUPT: 7,
  /** The plan file was made for another root. */
  PLAN_OTHER_ROOT: 8,
  /** The plan file has a newer format than this pravo reads. */
  PLAN_NEWER: 9,
  /** The command line is wrong: an unknown command, flag or value. */
  USAGE: 64,
  /**
   * Interrupted by SIGINT (Ctrl-C) or SIGHUP: pravo stopped early, recorded
   * what it did and released its lock and reservations. 128 + 2, as shells
   * report SIGINT.
   */
  INTERRUPTED: 130,
  /** Stopped by SIGTERM, in the same way as {@link Exit.INTERRUPTED}: 128 + 15. */
  TERMINATED: 143,
} as const;

export type ExitCode = (typeof Exit)[keyof typeof Exit];

/**
 * The exit code of each kind of failure: the one table that turns what the
 * engine reports into what scripts see. Only commands and `main.ts` use it.
 */
export const EXIT_CODE_OF: Readonly<Record<FailureKind, ExitCode>> = {
  error: Exit.ERROR,
  invalid: Exit.INVALID,
  locked: Exit.LOCKED,
  policy: Exit.POLICY,
  stale: Exit.STALE,
  plan_damaged: Exit.PLAN_CORRUPT,
  plan_other_root: Exit.PLAN_OTHER_ROOT,
  plan_newer: Exit.PLAN_NEWER,
  usage: Exit.USAGE,
  interrupted: Exit.INTERRUPTED,
  terminated: Exit.TERMINATED,
};

/** The exit code a command ends with for a failure of this kind. */
export function exitCodeOf(kind: FailureKind): ExitCode {
  return EXIT_CODE_OF[kind];
}
