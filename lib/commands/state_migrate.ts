/**
 * `pravo state migrate --to URL`: copies the root's state to another store
 * (SQLite to PostgreSQL, back, or another database) and verifies the copy.
 * The source is left as it was; pointing the root at the copy (pravo.jsonc,
 * --state or $PRAVO_STATE) is the operator's next step.
 *
 * @module
 */

import { type CommandRun, emit } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { UsageError } from "../diag/usage.ts";
import { migrateState } from "../state/migrate.ts";
import { postgresLocation, stateLocation, withoutPassword } from "../state/open.ts";
import { type StateLocation } from "../config/location.ts";
import type { Workspace } from "../workspace/workspace.ts";
import { type MigrateDoc, renderMigrated } from "../render/migrate.ts";

export const run: CommandRun = async (ctx, opts) => {
  const to = opts.to as string | undefined;
  if (to === undefined || to === "") {
    throw new UsageError(
      "state migrate needs --to URL: sqlite:PATH or postgres://USER@HOST:PORT/DATABASE?root=KEY",
      "state migrate",
    );
  }
  const from = await stateLocation(ctx);
  const target = await targetLocation(ctx.workspace, to, from);
  const r = await migrateState(from, target, {
    actor: ctx.actor,
    reason: ctx.reason,
    root: ctx.root,
    interrupts: ctx.interrupts,
  });
  const doc: MigrateDoc = {
    format_version: "1.0",
    from: { backend: from.backend, path: from.path },
    to: { backend: target.backend, path: target.path },
    lineage: r.lineage,
    serial: r.serial,
    copied: { records: r.records, log_entries: r.logEntries, reservations: r.reservations },
    verified: true,
  };
  emit(ctx, doc, () => renderMigrated(doc));
  return Exit.OK;
};

/**
 * Where `--to` points. A PostgreSQL URL without `?root=` takes the root key
 * of pravo.jsonc, else the source's own key.
 */
async function targetLocation(
  ws: Workspace,
  to: string,
  from: StateLocation,
): Promise<StateLocation> {
  if (/^postgres(ql)?:\/\//i.test(to) && from.backend === "postgres") {
    const cfg = ws.config.config.state ?? {};
    return postgresLocation(to, {
      root: cfg.root ?? from.rootKey,
      schema: cfg.schema,
      lineage: cfg.lineage,
      source: `--to "${withoutPassword(to)}"`,
    });
  }
  return await stateLocation({ root: ws.root, state: to, workspace: ws });
}
