/**
 * `pravo state rm ADDR...`: forgets records without destroying their
 * objects (Terraform's `state rm`): pravo no longer manages them. All the
 * addresses are removed in one transaction, or none; each is recorded in
 * the log as `forget`, with the actor and reason. Refused while another run
 * holds the state lock. `--dry-run` lists what would be removed. There is no
 * MCP tool for it: no tool edits the state.
 *
 * @module
 */

import { type CommandRun, emit } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { openStore } from "../state/open.ts";
import { forgetRecords, normalAddress } from "../state/edit.ts";
import { STATE_FORMAT_VERSION } from "../state/view.ts";

export const run: CommandRun = async (ctx, opts, args) => {
  const addresses = args.map((a) => normalAddress(a, "ADDR"));
  const dryRun = Boolean(opts["dry-run"]);
  const store = await openStore(ctx, { readOnly: dryRun });
  try {
    const { forgotten, serial } = await forgetRecords(store, addresses, {
      actor: ctx.actor,
      reason: ctx.reason,
      command: "state rm",
    }, { dryRun });
    const doc = {
      format_version: STATE_FORMAT_VERSION,
      removed: forgotten.map((r) => ({ address: r.address, mode: r.mode, type: r.type })),
      dry_run: dryRun,
      actor: ctx.actor,
      reason: ctx.reason,
      serial,
    };
    const n = forgotten.length;
    const what = `${n} ${n === 1 ? "record" : "records"}`;
    emit(
      ctx,
      doc,
      () =>
        dryRun
          ? [...forgotten.map((r) => `Would remove ${r.address}`), `Would remove ${what}.`].join(
            "\n",
          )
          : [
            ...forgotten.map((r) => `Removed ${r.address}`),
            `Successfully removed ${what} from the state; the objects are left as they are. ` +
            `Recorded in the log (serial ${serial}) as done by ${JSON.stringify(ctx.actor)}` +
            (ctx.reason ? `: ${ctx.reason}.` : "."),
            "If the root still declares them, the next plan creates them anew: remove them from " +
            "the configuration to stop managing them.",
          ].join("\n"),
    );
    return Exit.OK;
  } finally {
    await store.close();
  }
};
