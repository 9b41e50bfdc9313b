/**
 * `pravo state list [ADDR...]`: the addresses in the state, one a line, as
 * `terraform state list`; with addresses, only the records at them or under
 * them; with `--id ID`, only the records whose `id` attribute is ID.
 *
 * @module
 */

import { type CommandRun, emit } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { DiagnosticsError } from "../diag/diag.ts";
import { openStore } from "../state/open.ts";
import { normalAddress, select, selectsNothing } from "../state/edit.ts";
import { STATE_FORMAT_VERSION } from "../state/view.ts";
import type { StateRecord } from "../state/store.ts";

export const run: CommandRun = async (ctx, opts, args) => {
  const wanted = args.map((a) => normalAddress(a, "ADDR"));
  const id = opts.id as string | undefined;
  const store = await openStore(ctx, { readOnly: true });
  try {
    const records = await store.listRecords();
    let chosen: StateRecord[] = records;
    if (wanted.length) {
      const problems = wanted.filter((a) => select(records, a).length === 0)
        .map((a) => selectsNothing(a, records, "listed"));
      if (problems.length) throw new DiagnosticsError(problems, "error");
      const keep = new Set(wanted.flatMap((a) => select(records, a)).map((r) => r.address));
      chosen = records.filter((r) => keep.has(r.address));
    }
    if (id !== undefined) chosen = chosen.filter((r) => r.attributes.id === id);
    const doc = {
      format_version: STATE_FORMAT_VERSION,
      nodes: chosen.map((r) => ({
        address: r.address,
        mode: r.mode,
        type: r.type,
        provider: r.provider,
      })),
    };
    emit(ctx, doc, () => chosen.map((r) => r.address).join("\n"));
    return Exit.OK;
  } finally {
    await store.close();
  }
};
