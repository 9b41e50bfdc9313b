/**
 * The human views of `pravo drift` and `pravo drift --due`, drawn from the
 * documents that `--json` prints (lib/drift/document.ts).
 *
 * @module
 */

import type { Style } from "../diag/style.ts";
import { changedText, type DriftDocument, type DueDocument, plural } from "../drift/document.ts";
import { BUILTIN_REGISTRY, type Registry } from "../providers/registry.ts";

/** The human view of `pravo drift`: the records that differ, one line each. */
export function renderDrift(
  doc: DriftDocument,
  style: Style,
  registry: Pick<Registry, "findTypes"> = BUILTIN_REGISTRY,
): string {
  const s = doc.summary;
  const lines: string[] = [];
  const differ = s.drifted + s.gone;
  if (differ === 0) {
    lines.push(
      s.read === 0
        ? "Nothing compared: no record in the state can be read from the real world."
        : `No drift: the real world matches the state for the ${
          plural(s.read, "record", "records")
        } read.`,
    );
  } else {
    lines.push(
      `Drift: ${differ} of ${plural(s.read, "record", "records")} read ` +
        `${differ === 1 ? "differs" : "differ"}:`,
      "",
    );
    for (const e of doc.drift) {
      lines.push(
        e.status === "gone"
          ? `  ${style.red("-")} ${style.bold(e.address)}: gone`
          : `  ${style.yellow("~")} ${style.bold(e.address)}: ${changedText(e, registry)}`,
      );
    }
    lines.push("");
  }
  if (s.not_readable > 0) {
    const types = doc.not_readable.map((t) => `${t.type} (${t.count})`).join(", ");
    lines.push(
      `${plural(s.not_readable, "record was", "records were")} not compared, as ` +
        `${s.not_readable === 1 ? "its type" : "their types"} cannot be read: ${types}.`,
    );
  }
  if (s.failed > 0) {
    lines.push(
      `${plural(s.failed, "record", "records")} could not be read: ` +
        `${doc.failed.map((f) => f.address).join(", ")}.`,
    );
  }
  if (differ > 0) {
    lines.push(
      style.dim(
        "`pravo plan --refresh all` reads them again and shows how apply would put them back.",
      ),
    );
  }
  return lines.join("\n");
}

/** The human view of `drift --due`. */
export function renderDue(doc: DueDocument, style: Style): string {
  if (doc.total_due === 0) return "No record is due for a refresh.";
  const rows = [
    ["address", "type", "refreshed", "refresh age", "due since"],
    ...doc.due.map((d) => [
      d.address,
      d.type,
      d.refreshed_at,
      d.refresh_age ?? "none",
      d.due_since + (d.because.includes("expired") ? " (expired)" : ""),
    ]),
  ];
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => widths[i] = Math.max(widths[i] ?? 0, c.length));
  const lines = [
    `${plural(doc.total_due, "record is", "records are")} due for a refresh, ` +
    "the longest overdue first:",
    ...rows.map((r, n) => {
      const line = "  " +
        r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join("  ");
      return n === 0 ? style.dim(line) : line;
    }),
  ];
  const more = doc.total_due - doc.due.length;
  if (more > 0) {
    lines.push(
      "",
      style.dim(`${more} more not shown; pass --limit ${doc.total_due} to see all.`),
    );
  }
  return lines.join("\n");
}
