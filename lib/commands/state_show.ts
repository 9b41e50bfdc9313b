/**
 * `pravo state show ADDR`: one record of the state, sensitive values
 * redacted unless `--show-sensitive` is given on a terminal.
 *
 * @module
 */

import { type CommandRun, emit } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { DiagnosticsError, error } from "../diag/diag.ts";
import { openStore } from "../state/open.ts";
import {
  recordDocument,
  renderRecord,
  sensitiveStrings,
  STATE_FORMAT_VERSION,
  unknownAddress,
} from "../state/view.ts";

export const run: CommandRun = async (ctx, opts, args) => {
  const address = args[0];
  const showSensitive = Boolean(opts["show-sensitive"]);
  if (showSensitive && !ctx.streams.isTerminal) {
    throw new DiagnosticsError([
      error(
        "--show-sensitive needs a terminal",
        "Sensitive values are shown only when standard output is a terminal, so that they do " +
          "not end up in a file, a pipe or a log. Run the command in a terminal without " +
          "redirecting its output, or leave out --show-sensitive.",
      ),
    ], Exit.USAGE);
  }
  const store = await openStore(ctx);
  try {
    const rec = await store.getRecord(address);
    if (!rec) throw unknownAddress(address, await store.listAddresses());
    const secrets = showSensitive ? new Set<string>() : sensitiveStrings(await store.listRecords());
    const doc = {
      format_version: STATE_FORMAT_VERSION,
      record: recordDocument(rec, { showSensitive, secrets }),
    };
    emit(ctx, doc, () => renderRecord(doc.record, ctx.style));
    return Exit.OK;
  } finally {
    await store.close();
  }
};
