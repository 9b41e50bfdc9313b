/**
 * What the forms of `pravo import` share (`import ADDR ID`, its
 * `--generate-config`, and `--from terraform`): the root read, the state
 * opened and closed, and the inputs every import takes from the command's
 * context, with a warning for a lock taken over from a dead holder.
 *
 * @module
 */

import { type Context, emitWarnings } from "../cli/command.ts";
import { DiagnosticsError } from "../diag/diag.ts";
import { readRoot, type Sources } from "../cue/loader.ts";
import { openStore } from "../state/open.ts";
import type { StateStore } from "../state/store.ts";
import { tookOverWarning } from "../state/lock/message.ts";
import type { ImportRun } from "../import/import.ts";

/** Reads the root, opens the state, runs `fn` with them and the run's inputs, closes the state. */
export async function importing<T>(
  ctx: Context,
  fn: (sources: Sources, store: StateStore, run: ImportRun) => Promise<T>,
): Promise<T> {
  const sources = readRoot(ctx.root, ctx.workspace);
  if (!sources.ok) throw new DiagnosticsError(sources.diagnostics, "invalid");
  const store = await openStore(ctx);
  try {
    return await fn(sources.value, store, {
      root: ctx.root,
      workspace: ctx.workspace,
      tags: ctx.tags,
      actor: ctx.actor,
      reason: ctx.reason,
      signal: ctx.interrupts.signal,
      onLocked: (l) => {
        if (l.tookOver) emitWarnings(ctx, [tookOverWarning(l.tookOver)]);
      },
    });
  } finally {
    await store.close();
  }
}
