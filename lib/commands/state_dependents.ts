/**
 * `pravo state dependents ADDR`: the nodes in the state that depend on ADDR,
 * directly or through others, each with its depth.
 *
 * @module
 */

import { type CommandRun, emit } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { openStore } from "../state/open.ts";
import { dependentsOf, STATE_FORMAT_VERSION, unknownAddress } from "../state/view.ts";
import { renderDependents } from "../render/state.ts";

export const run: CommandRun = async (ctx, _opts, args) => {
  const address = args[0];
  const store = await openStore(ctx, { readOnly: true });
  try {
    const records = await store.listRecords();
    if (!records.some((r) => r.address === address)) {
      throw unknownAddress(address, records.map((r) => r.address));
    }
    const doc = {
      format_version: STATE_FORMAT_VERSION,
      address,
      dependents: dependentsOf(records, address),
    };
    emit(ctx, doc, () => renderDependents(doc, ctx.style));
    return Exit.OK;
  } finally {
    await store.close();
  }
};
