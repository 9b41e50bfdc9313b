/**
 * `pravo state release ID`: an operator releases a reservation. There is no
 * MCP tool for it: a reservation is the operators' decision.
 *
 * @module
 */

import { type CommandRun, emit } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { DiagnosticsError, error } from "../diag/diag.ts";
import { openStore } from "../state/open.ts";

export const run: CommandRun = async (ctx, _opts, args) => {
  const id = args[0];
  const store = await openStore(ctx);
  try {
    const all = await store.listReservations({ includeExpired: true });
    const r = all.find((x) => x.id === id);
    if (!r || !(await store.releaseReservation(id))) {
      const ids = all.map((x) => x.id);
      throw new DiagnosticsError([
        error(
          `No reservation "${id}"`,
          `The state has no reservation with that id${
            ids.length ? `; the reservations are: ${ids.join(", ")}` : ""
          }. Run \`pravo state locks\` to list them with their ids.`,
        ),
      ], "error");
    }
    emit(
      ctx,
      {
        format_version: "1.0",
        released: { ...r, released_by: ctx.actor, released_because: ctx.reason },
      },
      () => `Released reservation ${r.id} of ${r.actor} (${r.addresses.join(", ")}).`,
    );
    return Exit.OK;
  } finally {
    await store.close();
  }
};
