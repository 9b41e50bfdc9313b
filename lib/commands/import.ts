/**
 * `pravo import ADDR ID`: brings an existing object into the state at a node
 * the root declares, as `terraform import` does (lib/import/import.ts); with
 * `--from terraform FILE.tfstate`, every object of a Terraform state
 * (`_import_terraform.ts`). The
 * record and an `import` entry in the log, with the actor and the reason,
 * are written in one transaction under the state lock. There is no MCP tool
 * for it: no tool edits the state.
 *
 * @module
 */

import { type CommandRun, emit, emitWarnings } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { DiagnosticsError } from "../diag/diag.ts";
import { UsageError } from "../diag/usage.ts";
import { readRoot } from "../cue/loader.ts";
import { openStore } from "../state/open.ts";
import { importNode } from "../import/import.ts";
import { tookOverWarning } from "../state/lock/message.ts";
import { diagnosticsJson } from "../render/diagnostics.ts";
import { STATE_FORMAT_VERSION } from "../state/view.ts";
import { REDACTED, SENSITIVE_TEXT } from "../secrets/paths.ts";

export const run: CommandRun = async (ctx, opts, args) => {
  const generating = opts["generate-config"] !== undefined || opts.type !== undefined ||
    opts.provider !== undefined;
  if (opts.from !== undefined) {
    if (generating) {
      throw new UsageError(
        "import --from terraform takes over a whole state file: it takes no --generate-config, " +
          "--type or --provider (those are for pravo import ADDR ID)",
        "import",
      );
    }
    return (await import("./_import_terraform.ts")).run(ctx, opts, args);
  }
  if (generating) return await (await import("./import_generate.ts")).run(ctx, opts, args);
  if (args.length !== 2) {
    throw new UsageError(
      "import takes an address and an ID (pravo import ADDR ID), or --from terraform and a " +
        "state file (pravo import --from terraform FILE.tfstate)",
      "import",
    );
  }
  const [address, id] = args;
  const sources = readRoot(ctx.root, ctx.workspace);
  if (!sources.ok) throw new DiagnosticsError(sources.diagnostics, "invalid");
  const store = await openStore(ctx);
  try {
    const done = await importNode(sources.value, store, address, id, {
      root: ctx.root,
      workspace: ctx.workspace,
      tags: ctx.tags,
      actor: ctx.actor,
      reason: ctx.reason,
      signal: ctx.interrupts.signal,
      onLocked: (l) => {
        if (l.tookOver) emitWarnings(ctx, [tookOverWarning(l.tookOver)]);
      },
    });
    emitWarnings(ctx, done.diagnostics);
    // The ID of a secret (a password's value) is not printed.
    const secret = done.sensitive.some((k) => {
      const v = done.attributes[k];
      return typeof v === "string" && id !== "" && v.includes(id);
    });
    const shownId = secret ? REDACTED : id;
    const doc = {
      format_version: STATE_FORMAT_VERSION,
      imported: {
        address: done.address,
        mode: done.mode,
        type: done.type,
        provider: done.provider,
        id: shownId,
      },
      actor: ctx.actor,
      reason: ctx.reason,
      serial: done.serial,
      diagnostics: diagnosticsJson(done.diagnostics),
    };
    emit(
      ctx,
      doc,
      () =>
        `${done.address}: imported ${done.type} from ID ${
          secret ? SENSITIVE_TEXT : JSON.stringify(id)
        }.\n\n` +
        ctx.style.bold(ctx.style.green("Import successful!")) +
        ` ${done.address} is in the state and managed by pravo from now on; recorded in the log ` +
        `(serial ${done.serial}) as done by ${JSON.stringify(ctx.actor)}` +
        (ctx.reason ? `: ${ctx.reason}.` : ".") +
        "\nRun `pravo plan` to compare it with the configuration.",
    );
    return Exit.OK;
  } finally {
    await store.close();
  }
};
