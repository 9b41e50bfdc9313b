/**
 * The human view of `pravo output`, drawn from the document that `--json`
 * prints: `name = value` lines, names aligned, in name order, where an
 * output not known yet or one that needs a tag not given says so in place
 * of its value. `pravo apply` shows its outputs in the same lines.
 *
 * @module
 */

import { tagFlags } from "../cue/missing_tags.ts";
import type { Style } from "../diag/style.ts";
import { stableJson } from "../json.ts";
import { REDACTED, SENSITIVE_TEXT } from "../secrets/paths.ts";

/** The document that `pravo output --json` prints. */
export interface OutputDoc {
  format_version: string;
  /** The known outputs by name; a sensitive one `"(sensitive)"` unless it was asked to be shown. */
  outputs: Record<string, unknown>;
  /** The outputs known only after apply. */
  unknown: string[];
  /** The outputs that hold a sensitive value. */
  sensitive: string[];
  /** The outputs that depend on tags that were not given, and those tags. */
  needs_tags?: { outputs: string[]; tags: string[] };
}

/** What stands in the human view for an output not known yet. */
const UNKNOWN_TEXT = "(known after apply)";

/** The view of `pravo output`: every output, or a sentence when the root declares none. */
export function renderOutputs(doc: OutputDoc, style: Style): string {
  const extra: Record<string, string> = {};
  for (const k of doc.unknown) extra[k] = UNKNOWN_TEXT;
  const needs = doc.needs_tags;
  for (const k of needs?.outputs ?? []) extra[k] = `(needs ${tagFlags(needs!.tags)})`;
  if (Object.keys(doc.outputs).length + Object.keys(extra).length === 0) {
    return "The root declares no outputs.";
  }
  return renderOutputLines(doc.outputs, style, extra);
}

/**
 * Outputs as `name = value` lines, names aligned, in name order; `extra`
 * holds the text that stands for a value not shown (dimmed).
 */
export function renderOutputLines(
  outputs: Record<string, unknown>,
  style: Style,
  extra: Record<string, string> = {},
): string {
  const all = [...Object.keys(outputs), ...Object.keys(extra)].sort();
  const width = Math.max(...all.map((k) => k.length));
  return all.map((k) => {
    const v = k in outputs ? _valueText(outputs[k]) : style.dim(extra[k]);
    return `${k.padEnd(width)} = ${v === SENSITIVE_TEXT ? style.dim(v) : v}`;
  }).join("\n");
}

function _valueText(v: unknown): string {
  return v === REDACTED ? SENSITIVE_TEXT : stableJson(v);
}
