/**
 * `pravo state mv FROM TO`: moves a record, or every record under an
 * address, to another address, without touching the objects: a node
 * renamed in the configuration keeps its object (Terraform's `state mv`;
 * a `moved` declaration in the root does the same at the next apply, for
 * everyone who applies it). Recorded in the log with the actor and reason;
 * refused while another run holds the state lock. There is no MCP tool for
 * it: no tool edits the state.
 *
 * @module
 */

import { type CommandRun, emit } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { openStore } from "../state/open.ts";
import { moveRecords, normalAddress } from "../state/edit.ts";
import { STATE_FORMAT_VERSION } from "../state/view.ts";

export const run: CommandRun = async (ctx, _opts, args) => {
  const from = normalAddress(args[0], "FROM");
  const to = normalAddress(args[1], "TO");
  const store = await openStore(ctx);
  try {
    const { moves, serial } = await moveRecords(store, from, to, {
      actor: ctx.actor,
      reason: ctx.reason,
      command: "state mv",
    });
    const doc = {
      format_version: STATE_FORMAT_VERSION,
      moved: moves,
      actor: ctx.actor,
      reason: ctx.reason,
      serial,
    };
    emit(ctx, doc, () =>
      [
        ...moves.map((m) => `Moved ${m.from} to ${m.to}`),
        `Successfully moved ${moves.length} ${moves.length === 1 ? "record" : "records"}; ` +
        `recorded in the log (serial ${serial}) as done by ${JSON.stringify(ctx.actor)}` +
        (ctx.reason ? `: ${ctx.reason}.` : "."),
        "Rename the node in the configuration too, or add a `moved` entry, before the next plan.",
      ].join("\n"));
    return Exit.OK;
  } finally {
    await store.close();
  }
};
