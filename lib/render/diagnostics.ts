/**
 * Diagnostics for a human, in the manner of OpenTofu, and as `--json`
 * documents carry them.
 *
 * @module
 */

import type { Diagnostic } from "../diag/diag.ts";
import { asInvoked } from "../diag/hint.ts";
import type { Style } from "../diag/style.ts";

/** Renders diagnostics for a human, in the manner of OpenTofu. */
export function renderDiagnostics(
  diags: readonly Diagnostic[],
  style: Style,
): string {
  const parts: string[] = [];
  for (const d of diags) {
    const head = d.severity === "error"
      ? style.red(style.bold("Error: "))
      : style.yellow(style.bold("Warning: "));
    let s = head + style.bold(asInvoked(d.summary)) + "\n";
    if (d.range) {
      s += `\n  on ${d.range.file} line ${d.range.line}, column ${d.range.column}`;
      s += d.address ? `, in ${d.address}:\n` : ":\n";
    } else if (d.address) {
      s += `\n  with ${d.address}:\n`;
    }
    if (d.detail) s += `\n${asInvoked(d.detail)}\n`;
    parts.push(s);
  }
  return parts.join("\n");
}

/** The JSON form of diagnostics, as carried in `--json` documents. */
export function diagnosticsJson(diags: readonly Diagnostic[]): unknown[] {
  return diags.map((d) => ({ ...d }));
}
