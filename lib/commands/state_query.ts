/**
 * `pravo state query EXPRESSION`: a CUE expression evaluated over the state
 * document, sensitive values redacted before CUE sees them. The answer is
 * printed as JSON, cut to `--limit` elements.
 *
 * @module
 */

import { type CommandRun, emit } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { stableJson } from "../json.ts";
import { DiagnosticsError } from "../diag/diag.ts";
import { openStore } from "../state/open.ts";
import { checkExpression, evaluateQuery, limitResult } from "../state/query.ts";
import { parseLimit, STATE_FORMAT_VERSION, stateDocument } from "../state/view.ts";

/** How many elements of a list (or fields of a struct) are shown without `--limit`. */
export const DEFAULT_QUERY_LIMIT = 100;

export const run: CommandRun = async (ctx, opts, args) => {
  const expression = args[0];
  const limit = parseLimit(opts.limit, DEFAULT_QUERY_LIMIT);
  checkExpression(expression); // refuse a bad expression before opening anything
  const store = await openStore(ctx, { readOnly: true });
  let state;
  try {
    state = stateDocument(await store.identity(), await store.listRecords(), {
      types: ctx.workspace.registry.findType,
    });
  } finally {
    await store.close();
  }
  const res = await evaluateQuery(state, expression);
  if (!res.ok) throw new DiagnosticsError(res.diagnostics, "error");
  const cut = limitResult(res.value, limit);
  const doc = {
    format_version: STATE_FORMAT_VERSION,
    expression,
    result: cut.value,
    truncated: cut.total === undefined ? undefined : { shown: cut.shown, total: cut.total },
  };
  emit(ctx, doc, () => stableJson(doc.result));
  if (cut.total !== undefined && !ctx.json) {
    const what = Array.isArray(res.value) ? "elements" : "fields";
    ctx.streams.stderr(
      `Showed ${cut.shown} of ${cut.total} ${what}; pass --limit ${cut.total} (or --limit 0) ` +
        `for all, or narrow the expression.\n`,
    );
  }
  return Exit.OK;
};
