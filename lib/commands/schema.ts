/**
 * `pravo schema TYPE... [--required]`: the attributes of one or more types,
 * read from the TypeScript schemas (no CUE is loaded).
 *
 * @module
 */

import { type CommandRun, emit } from "../cli/command.ts";
import type { Style } from "../cli/output.ts";
import { Exit } from "../cli/exit.ts";
import { type Diagnostic, DiagnosticsError, error, nearest } from "../diag/diag.ts";
import { allTypeNames, findTypes, MODES, PROVIDERS } from "../providers/registry.ts";
import {
  type Attribute,
  type Mode,
  type ProviderSchema,
  type TypeSchema,
  typeString,
} from "../providers/schema.ts";

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

type Found = { provider: ProviderSchema; type: TypeSchema };

export const run: CommandRun = (ctx, opts, args) => {
  const found: Found[] = [];
  const diags: Diagnostic[] = [];
  const seen = new Set<TypeSchema>();
  for (const arg of args) {
    const r = resolve(arg);
    if ("diag" in r) {
      diags.push(r.diag);
      continue;
    }
    for (const f of r.found) {
      if (seen.has(f.type)) continue;
      seen.add(f.type);
      found.push(f);
    }
  }
  if (diags.length > 0) throw new DiagnosticsError(diags, Exit.USAGE);
  const doc = schemaDoc(found, { requiredOnly: Boolean(opts.required) });
  emit(ctx, doc, () => renderSchema(doc, ctx.style));
  return Promise.resolve(Exit.OK);
};

/** Builds the document for the types found, all attributes or the required ones. */
export function schemaDoc(found: readonly Found[], options: { requiredOnly: boolean }): SchemaDoc {
  return {
    format_version: "1.0",
    types: found.map(({ provider, type }) => {
      const attributes: Record<string, AttributeDoc> = {};
      for (const name of Object.keys(type.attributes).sort()) {
        const a = type.attributes[name];
        if (options.requiredOnly && !a.required) continue;
        attributes[name] = attributeDoc(a);
      }
      const t: TypeDoc = {
        name: type.name,
        mode: type.mode,
        provider: provider.source,
        description: type.description,
        attributes,
      };
      if (type.refreshAge !== undefined) t.refresh_age = type.refreshAge;
      return t;
    }),
  };
}

function attributeDoc(a: Attribute): AttributeDoc {
  const d: AttributeDoc = {
    type: typeString(a.type),
    description: a.description,
    required: a.required === true,
    optional: a.optional === true,
    computed: a.computed === true,
    sensitive: a.sensitive === true,
    force_new: a.forceNew === true,
  };
  if (a.default !== undefined) d.default = a.default;
  return d;
}

/**
 * The types an argument names: `local_file` (every mode), or with a mode
 * prefix `data.local_file`; else a diagnostic that says what exists.
 */
function resolve(arg: string): { found: Found[] } | { diag: Diagnostic } {
  const dot = arg.indexOf(".");
  const prefix = dot > 0 ? arg.slice(0, dot) : "";
  const mode = (MODES as readonly string[]).includes(prefix) ? prefix as Mode : undefined;
  const name = mode ? arg.slice(dot + 1) : arg;
  const all = findTypes(name);
  const found = mode ? all.filter((f) => f.type.mode === mode) : all;
  if (found.length > 0) return { found };
  const listHint = "Run `pravo providers` to list every type.";
  let detail: string;
  if (mode && all.length > 0) {
    const others = all.map((f) => `"${f.type.mode}.${name}"`);
    detail = `No provider offers a type named "${name}" in mode ${mode}; it exists as ` +
      `${others.join(" and ")}. ${listHint}`;
  } else if (mode) {
    const inMode = PROVIDERS.flatMap((p) => p.types).filter((t) => t.mode === mode);
    const near = nearest(name, inMode.map((t) => t.name));
    detail = `No provider offers a type named "${name}" in mode ${mode}` +
      (near ? `; did you mean "${mode}.${near}"?` : ".") + ` ${listHint}`;
  } else {
    // Mode-qualified names are candidates too, so that a typo in the mode
    // (`dat.local_file`) finds `data.local_file`.
    const qualified = PROVIDERS.flatMap((p) => p.types).map((t) => `${t.mode}.${t.name}`);
    const near = nearest(name, [...allTypeNames(), ...qualified]);
    detail = `No provider offers a type named "${name}"` +
      (near ? `; did you mean "${near}"?` : ".") + ` ${listHint}`;
  }
  return { diag: error(`Unknown type "${arg}"`, detail) };
}

/** The flags column of an attribute: `optional, forces replacement, default true`. */
export function attributeFlags(a: AttributeDoc): string {
  const flags: string[] = [];
  if (a.required) flags.push("required");
  if (a.optional) flags.push("optional");
  if (a.computed) flags.push("computed");
  if (a.sensitive) flags.push("sensitive");
  if (a.force_new) flags.push("forces replacement");
  if (a.default !== undefined) flags.push(`default ${JSON.stringify(a.default)}`);
  return flags.join(", ");
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
    const line = "  " + r.slice(0, 3).map((c, j) => c.padEnd(widths[j])).join("  ") + "  " + r[3];
    lines.push(i === 0 ? style.dim(line) : line);
  });
  return lines.join("\n") + "\n";
}
