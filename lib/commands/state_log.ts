/**
 * `pravo state log`: the transaction log, newest first. The human view names
 * the attributes each change touched and never prints a value; `--json`
 * carries the before and after of each change, with sensitive values as the
 * store's markers.
 *
 * @module
 */

import { type CommandRun, emit } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { openStore } from "../state/open.ts";
import { entriesByRun, logEntryDocument, parseLimit, STATE_FORMAT_VERSION } from "../state/view.ts";
import { renderLog } from "../render/state.ts";
import { sensitiveStrings } from "../secrets/paths.ts";

/** How many entries are shown without `--limit`. */
export const DEFAULT_LOG_LIMIT = 20;

export const run: CommandRun = async (ctx, opts) => {
  const limit = parseLimit(opts.limit, DEFAULT_LOG_LIMIT);
  const address = typeof opts.address === "string" ? opts.address : undefined;
  const store = await openStore(ctx, { readOnly: true });
  try {
    // One entry per run: an apply's nodes, each committed on its own, together.
    const all = entriesByRun(await store.readLog(address === undefined ? {} : { address }));
    const secrets = sensitiveStrings(await store.listRecords(), ctx.workspace.registry.findType);
    const entries = (limit === 0 ? all : all.slice(0, limit)).map((e) =>
      logEntryDocument(e, secrets)
    );
    const doc = {
      format_version: STATE_FORMAT_VERSION,
      address: address ?? null,
      limit,
      total: all.length,
      truncated: entries.length < all.length,
      entries,
    };
    emit(ctx, doc, () => renderLog(doc, ctx.style));
    return Exit.OK;
  } finally {
    await store.close();
  }
};
