/**
 * `pravo state unlock LOCK_ID`: an operator releases the state lock that a
 * run left behind (Terraform's `force-unlock`). It asks on a terminal, and
 * without one it refuses unless `--force` is given. The release is recorded
 * in the log with the operator's actor and reason. There is no MCP tool for
 * it: releasing someone's lock is the operators' decision.
 *
 * @module
 */

import { type CommandRun, type Context, emit, emitWarnings } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { answerIsYes } from "../cli/prompt.ts";
import { DiagnosticsError, error, warning } from "../diag/diag.ts";
import { openStore } from "../state/open.ts";
import { lockDocument, STATE_FORMAT_VERSION } from "../state/view.ts";
import type { LockInfo } from "../state/store.ts";

function describe(l: LockInfo): string {
  const host = l.hostname === "" ? "an unnamed host" : `host "${l.hostname}"`;
  const reason = l.reason === "" ? "" : `, reason "${l.reason}"`;
  return `"${l.actor}" (command "${l.command}"${reason}), process ${l.pid} on ${host}, ` +
    `since ${l.since}`;
}

/** Asks on the terminal; anything but `yes`, or an interrupt, is a no. */
async function confirm(ctx: Context, lock: LockInfo): Promise<boolean> {
  const state = lock.stale === undefined
    ? `pravo cannot tell that its holder is gone: its lease runs until ${lock.expires}. If that ` +
      "run is still going, releasing the lock lets another run change the state under it."
    : `It no longer binds anyone: ${lock.stale}.`;
  ctx.streams.stdout(
    `The state lock ${lock.id} is held by ${describe(lock)}.\n${state}\n\n` +
      "Do you really want to release it?\n  Only 'yes' will be accepted to confirm.\n\n" +
      "  Enter a value: ",
  );
  return await answerIsYes({ signal: ctx.interrupts.signal });
}

function noSuchLock(id: string, locks: LockInfo[]): DiagnosticsError {
  const now = locks.length
    ? `The state lock is ${locks[0].id}, held by ${describe(locks[0])}.`
    : "The state is not locked.";
  return new DiagnosticsError([
    error(
      `No state lock "${id}"`,
      `${now} Nothing was changed. Run \`pravo state locks\` to see the lock and its id.`,
    ),
  ], "error");
}

export const run: CommandRun = async (ctx, opts, args) => {
  const id = args[0];
  const force = Boolean(opts.force);
  if (!force && !(ctx.streams.isTerminal && Deno.stdin.isTerminal())) {
    throw new DiagnosticsError([
      error(
        "state unlock needs a terminal, or --force",
        "Releasing a state lock is an operator's decision, confirmed on a terminal. There is " +
          "none here to ask on. Run it on a terminal, or pass --force (also -force) where you " +
          "have checked that the lock's holder is gone.",
      ),
    ], "usage");
  }
  const store = await openStore(ctx);
  try {
    const locks = await store.listLocks();
    const lock = locks.find((l) => l.id === id);
    if (!lock) throw noSuchLock(id, locks);
    if (!force && !(await confirm(ctx, lock))) {
      ctx.interrupts.throwIfInterrupted("The lock is still held: nothing was changed.");
      ctx.streams.stderr("Unlock cancelled: the lock is still held.\n");
      return Exit.ERROR;
    }
    const removed = await store.unlock(id, {
      actor: ctx.actor,
      reason: ctx.reason,
      command: "state unlock",
    });
    if (!removed) throw noSuchLock(id, await store.listLocks());
    const serial = (await store.identity()).serial;
    if (removed.stale === undefined) {
      emitWarnings(ctx, [
        warning(
          "The lock's holder may still be running",
          `pravo could not tell that ${describe(removed)} is gone. If it is still running, ` +
            "its next write to the state is refused once another run takes the lock. Check " +
            "`pravo state log` and plan again before applying.",
        ),
      ]);
    }
    const doc = {
      format_version: STATE_FORMAT_VERSION,
      unlocked: lockDocument(removed),
      unlocked_by: ctx.actor,
      because: ctx.reason,
      serial,
    };
    emit(
      ctx,
      doc,
      () =>
        `Released the state lock ${removed.id} of ${describe(removed)}. ` +
        `Recorded in the log (serial ${serial}) as done by ${JSON.stringify(ctx.actor)}` +
        (ctx.reason ? `: ${ctx.reason}.` : ".") +
        "\nWhat that run committed is in the state; work it had in flight may have changed " +
        "the real world unrecorded. Run `pravo plan` to see what is left.",
    );
    return Exit.OK;
  } finally {
    await store.close();
  }
};
