/**
 * `pravo convert --from terraform DIR`: writes the CUE of the Terraform
 * configuration in DIR into the root (lib/terraform/convert.ts). DIR is
 * read as given, from the current directory. Exit 0 when written; 3 when a
 * construct cannot be converted, and then nothing is written (the
 * diagnostics say what to change; convert again); 1 when the root holds
 * `.cue` files it would write over or beside, without `--force`.
 *
 * @module
 */

import { resolve } from "node:path";
import { type CommandRun, emit, emitWarnings, fail } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { DiagnosticsError, error, hasErrors } from "../diag/diag.ts";
import { diagnosticsJson } from "../render/diagnostics.ts";
import { type ConvertDoc, renderConvert } from "../render/convert.ts";

export const run: CommandRun = async (ctx, opts, args) => {
  if (opts.from !== "terraform") {
    return fail(
      ctx,
      new DiagnosticsError([
        error(
          "Say what DIR holds",
          "pravo convert reads Terraform configurations: run pravo convert --from terraform DIR.",
        ),
      ], "usage"),
    );
  }
  const dir = resolve(Deno.cwd(), args[0]);
  const { convertTerraform } = await import("../terraform/convert.ts");
  const { rootNames, writeConversion } = await import("../terraform/convert_write.ts");
  const conv = await convertTerraform({ dir, ...rootNames(ctx.root) });
  if (hasErrors(conv.diagnostics)) {
    return fail(ctx, new DiagnosticsError(conv.diagnostics, "invalid"));
  }
  let written;
  try {
    written = writeConversion(ctx.root, conv, { force: Boolean(opts.force) });
  } catch (e) {
    if (e instanceof DiagnosticsError) return fail(ctx, e);
    throw e;
  }
  const warnings = [...conv.diagnostics, ...written.diagnostics];
  const doc: ConvertDoc = {
    format_version: "1.0",
    from: "terraform",
    dir: args[0],
    files: written.files,
    reads: conv.reads,
    imports: conv.imports,
    diagnostics: diagnosticsJson(warnings),
  };
  emitWarnings(ctx, warnings);
  emit(ctx, doc, () => renderConvert(doc, ctx.style));
  return Exit.OK;
};
