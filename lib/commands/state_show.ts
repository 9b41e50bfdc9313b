/**
 * `pravo state show ADDR`: one record of the state, sensitive values
 * redacted unless `--show-sensitive` is given on a terminal.
 *
 * @module
 */

import { type CommandRun, emit } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { openStore } from "../state/open.ts";
import {
  recordDocument,
  showSensitive,
  STATE_FORMAT_VERSION,
  unknownAddress,
} from "../state/view.ts";
import { renderRecord } from "../render/state.ts";
import { sensitiveStrings } from "../secrets/paths.ts";

export const run: CommandRun = async (ctx, opts, args) => {
  const address = args[0];
  const reveal = showSensitive(opts["show-sensitive"], ctx.streams.isTerminal);
  const store = await openStore(ctx, { readOnly: true });
  try {
    const rec = await store.getRecord(address);
    if (!rec) throw unknownAddress(address, await store.listAddresses());
    const secrets = reveal
      ? new Set<string>()
      : sensitiveStrings(await store.listRecords(), ctx.workspace.registry.findType);
    const doc = {
      format_version: STATE_FORMAT_VERSION,
      record: recordDocument(rec, {
        showSensitive: reveal,
        secrets,
        types: ctx.workspace.registry.findType,
      }),
    };
    emit(ctx, doc, () => renderRecord(doc.record, ctx.style));
    return Exit.OK;
  } finally {
    await store.close();
  }
};
