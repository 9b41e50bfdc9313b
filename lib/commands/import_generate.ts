/**
 * `pravo import ADDR ID --generate-config FILE.cue [--type TYPE] [--provider
 * NAME]`: writes the CUE of an object the root does not declare yet, read
 * from its provider, into a new file of the root, then imports it
 * (lib/import/generate_config.ts). Exit 0 when it is imported; 3 when the
 * file was written and not imported (a secret to fill in, or the provider
 * refuses it as written: the root does not validate until it is
 * corrected). There is no MCP tool for it: no tool edits the state.
 *
 * @module
 */

import { type CommandRun, emit, emitWarnings } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { DiagnosticsError } from "../diag/diag.ts";
import { UsageError } from "../diag/usage.ts";
import { readRoot } from "../cue/loader.ts";
import { openStore } from "../state/open.ts";
import { generateConfig } from "../import/generate_config.ts";
import { tookOverWarning } from "../state/lock/message.ts";
import { diagnosticsJson } from "../render/diagnostics.ts";
import { type GeneratedDoc, renderGenerated } from "../render/import_generate.ts";
import { STATE_FORMAT_VERSION } from "../state/view.ts";
import { REDACTED, SENSITIVE_TEXT } from "../secrets/paths.ts";
import type { Diagnostic } from "../diag/diag.ts";

export const run: CommandRun = async (ctx, opts, args) => {
  const file = opts["generate-config"] as string | undefined;
  if (file === undefined) {
    throw new UsageError(
      `--${opts.type !== undefined ? "type" : "provider"} goes with --generate-config FILE: ` +
        "without it, import reads the type and the provider from the node the root declares",
      "import",
    );
  }
  if (args.length !== 2) {
    throw new UsageError(
      "import --generate-config FILE.cue takes an address and an ID (pravo import ADDR ID " +
        "--generate-config FILE.cue)",
      "import",
    );
  }
  const [address, id] = args;
  const sources = readRoot(ctx.root, ctx.workspace);
  if (!sources.ok) throw new DiagnosticsError(sources.diagnostics, "invalid");
  const store = await openStore(ctx);
  try {
    const done = await generateConfig(sources.value, store, address, id, {
      root: ctx.root,
      workspace: ctx.workspace,
      tags: ctx.tags,
      actor: ctx.actor,
      reason: ctx.reason,
      signal: ctx.interrupts.signal,
      onLocked: (l) => {
        if (l.tookOver) emitWarnings(ctx, [tookOverWarning(l.tookOver)]);
      },
      file,
      type: opts.type as string | undefined,
      provider: opts.provider as string | undefined,
    });
    const imported = done.imported;
    const diagnostics: Diagnostic[] = [...done.diagnostics, ...(imported?.diagnostics ?? [])];
    emitWarnings(ctx, diagnostics);
    // The ID of a secret (a password's value) is not printed.
    const secret = done.idIsSecret;
    const doc: GeneratedDoc = {
      format_version: STATE_FORMAT_VERSION,
      generated: {
        file: done.file,
        address: done.address,
        type: done.type,
        provider: done.provider,
        provider_instance: done.providerInstance,
        attributes: done.attributes,
        left_out: done.leftOut,
        secrets: done.secrets,
        changes: done.changes,
      },
      imported: imported
        ? {
          address: imported.address,
          mode: imported.mode,
          type: imported.type,
          provider: imported.provider,
          id: secret ? REDACTED : id,
        }
        : null,
      actor: ctx.actor,
      reason: ctx.reason,
      serial: imported?.serial ?? null,
      diagnostics: diagnosticsJson(diagnostics) as Diagnostic[],
    };
    emit(ctx, doc, () =>
      renderGenerated(doc, ctx.style, {
        place: ctx.place ?? [],
        idWord: secret ? "ID" : id,
        idShown: secret ? SENSITIVE_TEXT : JSON.stringify(id),
      }));
    return imported ? Exit.OK : Exit.INVALID;
  } finally {
    await store.close();
  }
};
