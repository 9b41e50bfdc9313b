/**
 * The human view of `pravo schema`, drawn from the document that `--json` prints.
 *
 * @module
 */

import type { Style } from "../diag/style.ts";
import type { Mode } from "../providers/schema.ts";

/** One attribute as `--json` prints it. */
export interface AttributeDoc {
  type: string;
  description: string;
  required: boolean;
  optional: boolean;
  computed: boolean;
  sensitive: boolean;
  force_new: boolean;
  default?: unknown;
  /** Sent to the provider and never stored (plugin types). */
  write_only?: boolean;
  /** The provider says not to use it any more (plugin types). */
  deprecated?: boolean;
  /** A nested block (plugin types): its nesting and how many it takes (0: no limit). */
  block?: { nesting: string; min_items: number; max_items: number };
}

/** One type as `--json` prints it. */
export interface TypeDoc {
  name: string;
  mode: Mode;
  provider: string;
  description: string;
  refresh_age?: string;
  attributes: Record<string, AttributeDoc>;
}

/** The document that `pravo schema --json` prints. */
export interface SchemaDoc {
  format_version: "1.0";
  types: TypeDoc[];
}

/** The human view: per type a heading, its description, then aligned attribute rows. */
export function renderSchema(doc: SchemaDoc, style: Style): string {
  return doc.types.map((t) => renderType(t, style)).join("\n");
}

function renderType(t: TypeDoc, style: Style): string {
  const lines = [`${style.bold(t.name)} (${t.mode}, ${t.provider})`, t.description];
  if (t.refresh_age === "0s") lines.push("Refresh: read on every plan.");
  else if (t.refresh_age !== undefined) {
    lines.push(`Refresh: read again when the last read is older than ${t.refresh_age}.`);
  }
  lines.push("");
  const names = Object.keys(t.attributes);
  if (names.length === 0) {
    lines.push("  (no required attributes)");
    return lines.join("\n") + "\n";
  }
  const rows = [["ATTRIBUTE", "TYPE", "FLAGS", "DESCRIPTION"]];
  for (const name of names) {
    const a = t.attributes[name];
    rows.push([name, a.type, attributeFlags(a), a.description]);
  }
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length)));
  rows.forEach((r, i) => {
    // No trailing blanks when the description is empty (plugin providers often give none).
    const line = ("  " + r.slice(0, 3).map((c, j) => c.padEnd(widths[j])).join("  ") + "  " + r[3])
      .trimEnd();
    lines.push(i === 0 ? style.dim(line) : line);
  });
  return lines.join("\n") + "\n";
}

/** The flags column of an attribute: `optional, forces replacement, default true`. */
export function attributeFlags(a: AttributeDoc): string {
  const flags: string[] = [];
  if (a.required) flags.push("required");
  if (a.optional) flags.push("optional");
  if (a.computed) flags.push("computed");
  if (a.sensitive) flags.push("sensitive");
  if (a.force_new) flags.push("forces replacement");
  if (a.write_only) flags.push("write-only");
  if (a.deprecated) flags.push("deprecated");
  if (a.block) {
    const n = a.block;
    const items = n.min_items === n.max_items && n.max_items > 0 ? `exactly ${n.min_items}` : [
      n.min_items > 0 ? `at least ${n.min_items}` : "",
      n.max_items > 0 ? `at most ${n.max_items}` : "",
    ]
      .filter(Boolean).join(", ");
    flags.push(`${n.nesting} block${items ? ` (${items})` : ""}`);
  }
  if (a.default !== undefined) flags.push(`default ${JSON.stringify(a.default)}`);
  return flags.join(", ");
}
