/**
 * `pravo validate`: checks the specification and counts what it declares.
 *
 * @module
 */

import { type CommandRun, emit, emitWarnings } from "../cli/command.ts";
import { hasErrors } from "../diag/diag.ts";
import { validateNodes } from "../plan/validate_nodes.ts";
import { Exit } from "../cli/exit.ts";
import { diagnosticsJson, renderDiagnostics, stableJson } from "../cli/output.ts";
import { loadRoot, type Spec } from "../cue/loader.ts";

/** The counts document of `validate --json`. */
export function counts(spec: Spec) {
  const by = (mode: string) => spec.nodes.filter((n) => n.mode === mode).length;
  return {
    calls: by("call"),
    data_sources: by("data"),
    ephemeral: by("ephemeral"),
    outputs: Object.keys(spec.outputs).length,
    providers: spec.providers.length,
    resources: by("managed"),
    valid: true,
  };
}

function plural(n: number, one: string, many = one + "s"): string {
  return `${n} ${n === 1 ? one : many}`;
}

export const run: CommandRun = async (ctx) => {
  const res = await loadRoot(ctx.root, { tags: ctx.tags, trace: false });
  // The providers' checks of the values belong to the specification too.
  const checked = res.ok ? validateNodes(res.value, ctx.root) : [];
  const diagnostics = res.ok ? checked : res.diagnostics;
  if (!res.ok || hasErrors(checked)) {
    if (ctx.json) {
      ctx.streams.stdout(
        stableJson({ diagnostics: diagnosticsJson(diagnostics), valid: false }) + "\n",
      );
    } else {
      ctx.streams.stderr(renderDiagnostics(diagnostics, ctx.style));
    }
    return Exit.INVALID;
  }
  const warnings = checked.length ? { diagnostics: diagnosticsJson(checked) } : {};
  emitWarnings(ctx, checked);
  const doc = { ...counts(res.value), ...warnings };
  emit(ctx, doc, () =>
    ctx.style.green("The specification is valid: ") +
    [
      plural(doc.providers, "provider"),
      plural(doc.resources, "resource"),
      plural(doc.data_sources, "data source"),
      `${doc.ephemeral} ephemeral`,
      plural(doc.calls, "call"),
      plural(doc.outputs, "output"),
    ].join(", ") + ".");
  return Exit.OK;
};
