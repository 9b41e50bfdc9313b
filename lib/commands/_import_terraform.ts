/**
 * `pravo import --from terraform FILE.tfstate`: takes over a Terraform or
 * OpenTofu state (lib/terraform/tfstate_import.ts). FILE is read as given,
 * from the current directory. Exit 0 when every object is in the state (or
 * the state held none); 3 when FILE is not a Terraform state of format 4 or
 * the root is invalid; 1 when an object cannot be taken over (the root does
 * not declare it, declares another type or provider, pravo's state holds
 * it, its provider cannot upgrade it, it is tainted or deposed) or FILE
 * cannot be read; 4 when the state is locked. Nothing is written unless
 * everything can be.
 *
 * @module
 */

import { resolve } from "node:path";
import { type CommandRun, emit, emitWarnings, type OptionValues } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { DiagnosticsError, error } from "../diag/diag.ts";
import { UsageError } from "../diag/usage.ts";
import { diagnosticsJson } from "../render/diagnostics.ts";
import { STATE_FORMAT_VERSION } from "../state/view.ts";
import { renderTfImport, type TfImportDoc } from "../render/import_terraform.ts";
import { parseTfState, type TfState } from "../terraform/tfstate.ts";
import { importTerraformState } from "../terraform/tfstate_import.ts";
import { importing } from "./_import.ts";

/** The state file named on the command line, read; or why it cannot be. */
async function readStateFile(given: string): Promise<{ state: TfState; writtenAt?: string }> {
  const path = resolve(Deno.cwd(), given);
  let text: string;
  let writtenAt: string | undefined;
  try {
    text = await Deno.readTextFile(path);
    const mtime = (await Deno.stat(path)).mtime;
    if (mtime) writtenAt = mtime.toISOString();
  } catch (e) {
    throw new DiagnosticsError([
      error(
        `Cannot read ${given}`,
        `${(e as Error).message}. Give the path of a state file that Terraform or OpenTofu ` +
          "wrote (`terraform.tfstate`), from the current directory.",
      ),
    ], "error");
  }
  const r = parseTfState(text, given);
  if ("diagnostics" in r) throw new DiagnosticsError(r.diagnostics, "invalid");
  return { state: r.state, ...(writtenAt ? { writtenAt } : {}) };
}

export const run: CommandRun = async (ctx, opts: OptionValues, args) => {
  if (opts.from !== "terraform") {
    throw new UsageError(
      `--from takes "terraform" (a Terraform or OpenTofu state file), not "${opts.from}"`,
      "import",
    );
  }
  if (args.length !== 1) {
    throw new UsageError(
      "import --from terraform takes one argument, the state file: " +
        "pravo import --from terraform FILE.tfstate",
      "import",
    );
  }
  const { state, writtenAt } = await readStateFile(args[0]);
  return await importing(ctx, async (sources, store, run) => {
    const done = await importTerraformState(sources, store, state, {
      ...run,
      workspace: ctx.workspace,
      ...(writtenAt ? { writtenAt } : {}),
    });
    emitWarnings(ctx, done.diagnostics);
    const doc: TfImportDoc = {
      format_version: STATE_FORMAT_VERSION,
      from: "terraform",
      terraform: {
        file: state.file,
        terraform_version: state.terraformVersion,
        lineage: state.lineage,
        serial: state.serial,
        outputs: Object.keys(state.outputs).sort(),
      },
      outputs: done.outputs,
      imported: done.imported,
      skipped: done.skipped,
      not_in_state: done.not_in_state,
      actor: ctx.actor,
      reason: ctx.reason,
      serial: done.serial,
      diagnostics: diagnosticsJson(done.diagnostics),
    };
    emit(ctx, doc, () => renderTfImport(doc, ctx.style));
    return Exit.OK;
  });
};
