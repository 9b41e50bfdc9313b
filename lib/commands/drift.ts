/**
 * `pravo drift`: reads the real world for every managed record whose type
 * can be read and reports how it differs from the state (exit 2 on drift).
 * It records the refresh time of the records found as the state holds them,
 * and changes no attributes: a plan and an apply put things back.
 *
 * `pravo drift --due [--limit N]` lists the records past their refresh age
 * (or whose value expired), the longest overdue first, from the state alone:
 * it reads nothing of the real world and writes nothing.
 *
 * @module
 */

import { readOnlyRun } from "../workspace/pinned.ts";
import { UsageError } from "../diag/usage.ts";
import { type CommandRun, emit, emitWarnings, fail } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { DiagnosticsError } from "../diag/diag.ts";
import { driftDocument, dueDocument } from "../drift/document.ts";
import { renderDrift, renderDue } from "../render/drift.ts";
import { dueRecords } from "../drift/due.ts";
import { readDrift, recordRefresh } from "../drift/read.ts";
import { openStore } from "../state/open.ts";
import { rootSession } from "../plan/session.ts";

/** How many due records `--due` lists without `--limit`. */
export const DEFAULT_DUE_LIMIT = 20;

/** Reads `--limit`: a whole number above zero, and only with `--due`. */
export function dueLimit(value: unknown, due: boolean): number {
  if (value === undefined) return DEFAULT_DUE_LIMIT;
  if (!due) {
    throw new UsageError(
      "--limit is used only with --due: add --due to list at most N records past their " +
        "refresh age (drift without --due reads every record)",
      "drift",
    );
  }
  const text = String(value);
  if (!/^\d+$/.test(text) || Number(text) === 0) {
    throw new UsageError(
      `--limit "${text}" is not a whole number above zero: give how many records to list, ` +
        "such as --limit 10",
      "drift",
    );
  }
  return Number(text);
}

export const run: CommandRun = async (ctx, opts) => {
  const due = Boolean(opts.due);
  const limit = dueLimit(opts.limit, due);
  // --due only reads the state.
  const store = await openStore(ctx, { readOnly: due || readOnlyRun(ctx.workspace.pinned) });
  try {
    const records = await store.listRecords();
    if (due) {
      const doc = dueDocument(dueRecords(records, new Date()), limit);
      emit(ctx, doc, () => renderDue(doc, ctx.style));
      return Exit.OK;
    }
    const at = new Date();
    const report = await readDrift(records, {
      root: ctx.root,
      workspace: ctx.workspace,
      signal: ctx.interrupts.signal,
      session: rootSession(ctx.workspace, ctx.tags, records),
    });
    // Under pravo mcp --read-only nothing is written: the refresh times stay.
    if (!readOnlyRun(ctx.workspace.pinned)) {
      await recordRefresh(
        store,
        report,
        { actor: ctx.actor, reason: ctx.reason, command: "drift" },
        at,
      );
    }
    const doc = driftDocument(report, records, ctx.workspace.registry);
    emit(ctx, doc, () => renderDrift(doc, ctx.style, ctx.workspace.registry));
    emitWarnings(ctx, report.diagnostics);
    const errors = report.diagnostics.filter((d) => d.severity === "error");
    if (errors.length) return fail(ctx, new DiagnosticsError(errors, "error"));
    return doc.summary.drifted + doc.summary.gone > 0 ? Exit.CHANGES : Exit.OK;
  } finally {
    await store.close();
  }
};
