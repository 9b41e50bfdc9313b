/**
 * `pravo validate`: checks the specification and counts what it declares.
 *
 * @module
 */

import { type CommandRun, emit, emitWarnings } from "../cli/command.ts";
import { type Diagnostic, hasErrors, warning } from "../diag/diag.ts";
import { escapeOf, invisibleCharacters } from "../diag/visible.ts";
import { validateNodes } from "../plan/validate_nodes.ts";
import { Exit } from "../cli/exit.ts";
import { diagnosticsJson, renderDiagnostics } from "../render/diagnostics.ts";
import { stableJson } from "../json.ts";
import { loadRoot, readRoot, type Spec } from "../cue/loader.ts";
import type { Workspace } from "../workspace/workspace.ts";

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

/**
 * A warning for each `.cue` file of the root (its packages too) that holds a
 * character which makes it read differently from what it is: a bidi control
 * or an invisible one (lib/diag/visible.ts), in a label, a string or a
 * comment. CUE accepts them; a reviewer would not see them.
 */
function hiddenCharacters(ws: Workspace): Diagnostic[] {
  const sources = readRoot(ws.root, ws);
  if (!sources.ok) return [];
  const out: Diagnostic[] = [];
  const files = [...sources.value.files, ...(sources.value.packages ?? []).flatMap((p) => p.files)];
  for (const f of files) {
    const found = invisibleCharacters(f.src);
    if (found.length === 0) continue;
    const first = found[0];
    const kinds = [...new Set(found.map((x) => escapeOf(x.char)))].join(", ");
    out.push(
      warning(
        `${f.name} holds ${
          found.length === 1 ? "a character" : `${found.length} characters`
        } that read differently from what ${found.length === 1 ? "it is" : "they are"}`,
        `${kinds}: a bidirectional control or an invisible character, which can make the text on screen differ from the bytes pravo reads (in a label, a string or a comment). pravo's views show it as an escape. Remove it, or write it as the escape ${
          escapeOf(first.char)
        } inside a string if it is meant.`,
        { range: { file: f.name, line: first.line, column: first.column } },
      ),
    );
  }
  return out;
}

function plural(n: number, one: string, many = one + "s"): string {
  return `${n} ${n === 1 ? one : many}`;
}

export const run: CommandRun = async (ctx) => {
  // Traced, so that a value computed from one known only after apply
  // (`min: base.result + 10`) is unknown to the providers' checks, as it is
  // to plan's, and not the stand-in number the evaluation put in its place.
  const res = await loadRoot(ctx.root, ctx.workspace, { tags: ctx.tags });
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
  checked.push(...hiddenCharacters(ctx.workspace));
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
