/**
 * What reading or evaluating a root gives: a value with the diagnostics met
 * on the way, or only diagnostics.
 *
 * @module
 */

import type { Diagnostic } from "../diag/diag.ts";

/** A value and its warnings, or the diagnostics that stopped it. */
export type Result<T> = { ok: true; value: T; diagnostics: Diagnostic[] } | {
  ok: false;
  diagnostics: Diagnostic[];
};
