/**
 * `pravo state locks`: the state lock (held while an apply runs) and the
 * reservations made by `plan --reserve`, with who holds them and why.
 *
 * @module
 */

import { type CommandRun, emit } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { openStore } from "../state/open.ts";
import { lockDocument, reservationDocument, STATE_FORMAT_VERSION } from "../state/view.ts";
import { renderLocks } from "../render/state.ts";

export const run: CommandRun = async (ctx) => {
  const store = await openStore(ctx, { readOnly: true });
  try {
    const locks = await store.listLocks();
    const reservations = await store.listReservations();
    const doc = {
      format_version: STATE_FORMAT_VERSION,
      lock: locks.length ? lockDocument(locks[0]) : null,
      reservations: reservations.map(reservationDocument),
    };
    emit(ctx, doc, () => renderLocks(doc, ctx.style));
    return Exit.OK;
  } finally {
    await store.close();
  }
};
