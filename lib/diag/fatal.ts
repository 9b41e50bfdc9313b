/**
 * Failures the process cannot survive, raised off the call stack (a database
 * driver's socket closing under it, a signal while providers run), are
 * handed to `main.ts` as an event: it alone ends the process, with the exit
 * code of the failure's kind.
 *
 * The event is cancelable: the listener that ends the process cancels it.
 * When nobody listens (the library used from a test or a script), the
 * raiser is told so and lets the failure take its ordinary course.
 *
 * @module
 */

import type { DiagnosticsError } from "./diag.ts";

/** The event's type on `globalThis`. */
export const FATAL_EVENT = "pravo:fatal";

/** What ended the process: diagnostics with a kind, or a signal's number. */
export type Fatal = { error: DiagnosticsError } | { signal: number };

/** The event `main.ts` listens for. */
export class FatalEvent extends Event {
  readonly fatal: Fatal;
  constructor(fatal: Fatal) {
    super(FATAL_EVENT, { cancelable: true });
    this.fatal = fatal;
  }
}

/**
 * Asks the program to end now for `fatal`. Returns false when no listener
 * took it (nothing ends the process then: the caller decides what follows).
 */
export function endProcess(fatal: Fatal): boolean {
  return !globalThis.dispatchEvent(new FatalEvent(fatal));
}
