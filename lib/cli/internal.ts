/**
 * The last resort of `main.ts`: an error that no command caught. Some are
 * not bugs (a full disk, a read-only file system, a damaged state file
 * reached from an unexpected place) and become diagnostics with exit 1; the
 * rest are bugs, reported as such.
 *
 * @module
 */

import { DiagnosticsError } from "../diag/diag.ts";
import { ioFailure } from "../diag/io.ts";

/** The diagnostics for an uncaught error that is not a bug, or undefined for a bug. */
export function internalErrorDiagnostics(e: unknown): DiagnosticsError | undefined {
  const d = ioFailure(e);
  return d ? new DiagnosticsError([d], "error") : undefined;
}
