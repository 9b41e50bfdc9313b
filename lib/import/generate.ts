/**
 * The CUE that declares an object read from its provider, for `pravo
 * import ADDR ID --generate-config FILE.cue` (Terraform's
 * `-generate-config-out`): which attributes to write, and the file.
 *
 * What is written, by the type's schema, and why (Terraform's generator
 * decides the same way where a rule says "as Terraform"):
 * - computed-only attributes are left out, at every depth (as Terraform):
 *   the provider sets them;
 * - the `id` of a plugin type that is optional and computed is left out at
 *   the top level (as Terraform: the old SDK adds one to every type);
 * - null is unset (pravo's `null`), so is an optional empty string (as
 *   Terraform: the old SDK reads "" for unset), an optional empty list, set
 *   or map, an absent block and a write-only attribute (never read back);
 * - a value equal to the attribute's default is left out: a built-in
 *   type's schema says its defaults; the plugin protocol carries none, so
 *   the engine (generate_config.ts) asks the provider which of the
 *   {@link Chosen.removable} ones it plans the same without;
 * - deprecated attributes and blocks are removable too (Terraform leaves
 *   them all out, even where that changes the object);
 * - an optional and computed attribute is written (as Terraform: `bucket`
 *   names the bucket), unless the provider computes the same value from
 *   the rest (`tags_all` from `tags`, a rotation time from its base and
 *   period): removable, the engine asks the provider's plan of a create;
 * - a sensitive value is never written: the field gets its type and a
 *   comment saying to fill it (Terraform writes `null # sensitive`, which
 *   validates and then plans the secret away); validate stops there until
 *   it is filled;
 * - a string that holds compact JSON is `json.Marshal({...})` where CUE
 *   gives the same string back (Terraform writes `jsonencode({...})`).
 *
 * @module
 */

import type { Attribute as PluginAttribute, Block, NestedBlock } from "../plugin/schema.ts";
import { attributeType } from "../plugin/schema.ts";
import { type CtyType, typeName } from "../plugin/value.ts";
import type { Attribute, AttrType, TypeSchema } from "../providers/schema.ts";
import { typeString } from "../providers/schema.ts";
import { cueJsonMarshal, cueLabel, cueValue } from "../cue/literal.ts";
import { formatSource } from "../cue/format/mod.ts";

/** What is written for a value: a plain value, JSON marshalled, a secret left to fill, or nested. */
export type Out =
  | { kind: "value"; value: unknown }
  | { kind: "json"; value: string; cue: string }
  | { kind: "secret"; value: unknown; type: string; standIn: unknown; path: string }
  | { kind: "struct"; fields: OutField[] }
  | { kind: "list"; items: Out[] };

export interface OutField {
  name: string;
  out: Out;
}

/** Why a top-level attribute is not written. */
export type LeftOut = "computed" | "id" | "unset" | "default" | "deprecated" | "derived";

/** Why a top-level attribute written may go: the engine asks the provider. */
export type Removable = "default" | "deprecated" | "derived";

/** The attributes chosen for the file. */
export interface Chosen {
  /** The top-level attributes written, sorted by name. */
  fields: OutField[];
  /** Why each other top-level attribute is left out. */
  leftOut: Record<string, LeftOut>;
  /**
   * Top-level attributes written that may go, and why: optional and not
   * computed (the provider's default may give the same), deprecated, or
   * optional and computed (the provider may compute the same from the
   * rest). The engine asks the provider.
   */
  removable: Record<string, Removable>;
}

/** The flags the choice reads, of a built-in or a plugin attribute. */
interface Flags {
  required?: boolean;
  optional?: boolean;
  computed?: boolean;
  sensitive?: boolean;
  deprecated?: boolean;
  writeOnly?: boolean;
}

function isEmpty(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === "object") return Object.keys(v).length === 0;
  return false;
}

/** Unset as the configuration would say it: null, or an optional "", [] or {}. */
function isUnset(a: Flags, v: unknown): boolean {
  if (v === null || v === undefined || a.writeOnly) return true;
  return Boolean(a.optional) && (v === "" || isEmpty(v));
}

/** A value that stands for a secret's type where the file is checked, never written. */
function standInOf(t: CtyType): unknown {
  if (typeof t === "string") return t === "number" ? 0 : t === "bool" ? false : "";
  return t[0] === "map" || t[0] === "object" ? {} : [];
}

function ctyOfBuiltin(t: AttrType): CtyType {
  if (typeof t === "string") return t === "int" ? "number" : t;
  if ("cty" in t) return t.cty;
  if ("list" in t) return ["list", ctyOfBuiltin(t.list)];
  if ("set" in t) return ["set", ctyOfBuiltin(t.set)];
  return ["map", ctyOfBuiltin(t.map)];
}

function plainOut(v: unknown): Out {
  if (typeof v === "string") {
    const cue = cueJsonMarshal(v);
    if (cue !== undefined) return { kind: "json", value: v, cue };
  }
  return { kind: "value", value: v };
}

function step(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}

/** A value of a plugin attribute: nested attribute types walked like blocks. */
function pluginValue(a: PluginAttribute, v: unknown, path: string): Out {
  const t = attributeType(a);
  if (a.sensitive) {
    return { kind: "secret", value: v, type: typeName(t), standIn: standInOf(t), path };
  }
  const n = a.nestedType;
  if (!n) return plainOut(v);
  const one = (x: unknown, p: string): Out =>
    x === null ? { kind: "value", value: null } : {
      kind: "struct",
      fields: attributeFields(n.attributes, x as Record<string, unknown>, p).fields,
    };
  switch (n.nesting) {
    case "single":
      return one(v, path);
    case "map":
      return {
        kind: "struct",
        fields: Object.entries(v as Record<string, unknown>).map(([k, x]) => ({
          name: k,
          out: one(x, `${path}[${JSON.stringify(k)}]`),
        })),
      };
    default:
      return {
        kind: "list",
        items: (v as unknown[]).map((x, i) => one(x, `${path}[${i}]`)),
      };
  }
}

/** The attributes of a plugin block (or nested object) that are written, and why the others are not. */
function attributeFields(
  attrs: Record<string, PluginAttribute>,
  obj: Record<string, unknown>,
  path: string,
): { fields: OutField[]; leftOut: Record<string, LeftOut> } {
  const fields: OutField[] = [];
  const leftOut: Record<string, LeftOut> = {};
  for (const name of Object.keys(attrs).sort()) {
    const a = attrs[name];
    const v = obj?.[name];
    if (!a.required && !a.optional) leftOut[name] = "computed";
    else if (path === "" && name === "id" && a.optional && a.computed) leftOut[name] = "id";
    else if (isUnset(a, v)) leftOut[name] = "unset";
    else fields.push({ name, out: pluginValue(a, v, step(path, name)) });
  }
  return { fields, leftOut };
}

/** A nested block's value: its attributes and blocks, the same rules inside. */
function blockOut(n: NestedBlock, v: unknown, path: string): Out | undefined {
  const one = (x: unknown, p: string): Out => ({
    kind: "struct",
    fields: blockFields(n.block, x as Record<string, unknown>, p).fields,
  });
  switch (n.nesting) {
    case "single":
    case "group":
      return isEmpty(v) ? undefined : one(v, path);
    case "map": {
      const m = (v ?? {}) as Record<string, unknown>;
      if (isEmpty(m)) return undefined;
      return {
        kind: "struct",
        fields: Object.entries(m).map(([k, x]) => ({
          name: k,
          out: one(x, `${path}[${JSON.stringify(k)}]`),
        })),
      };
    }
    default: {
      const l = (v ?? []) as unknown[];
      if (l.length === 0) return undefined;
      return { kind: "list", items: l.map((x, i) => one(x, `${path}[${i}]`)) };
    }
  }
}

/** The attributes and nested blocks of a plugin block that are written. */
function blockFields(
  b: Block,
  obj: Record<string, unknown>,
  path: string,
): { fields: OutField[]; leftOut: Record<string, LeftOut> } {
  const { fields, leftOut } = attributeFields(b.attributes, obj, path);
  for (const name of Object.keys(b.blockTypes).sort()) {
    const n = b.blockTypes[name];
    const out = blockOut(n, obj?.[name], step(path, name));
    if (out) fields.push({ name, out });
    else leftOut[name] = "unset";
  }
  fields.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  return { fields, leftOut };
}

function isDefault(a: Attribute, v: unknown): boolean {
  return a.default !== undefined && JSON.stringify(a.default) === JSON.stringify(v);
}

/** A built-in type: flat attributes of simple types, with defaults in the schema. */
function builtinChoice(t: TypeSchema, attrs: Record<string, unknown>): Chosen {
  const fields: OutField[] = [];
  const leftOut: Record<string, LeftOut> = {};
  for (const name of Object.keys(t.attributes).sort()) {
    const a = t.attributes[name];
    const v = attrs[name];
    if (!a.required && !a.optional) leftOut[name] = "computed";
    else if (isUnset(a, v)) leftOut[name] = "unset";
    else if (isDefault(a, v)) leftOut[name] = "default";
    else if (a.sensitive) {
      const c = ctyOfBuiltin(a.type);
      fields.push({
        name,
        out: {
          kind: "secret",
          value: v,
          type: typeString(a.type),
          standIn: standInOf(c),
          path: name,
        },
      });
    } else fields.push({ name, out: plainOut(v) });
  }
  return { fields, leftOut, removable: derivable(fields, (k) => t.attributes[k]) };
}

/** The optional and computed attributes among the fields, but secrets. */
function derivable(fields: readonly OutField[], flags: (k: string) => Flags | undefined) {
  const out: Record<string, Removable> = {};
  for (const f of fields) {
    const a = flags(f.name);
    if (a?.optional && a.computed && !a.sensitive && f.out.kind !== "secret") {
      out[f.name] = "derived";
    }
  }
  return out;
}

/** The attributes of the object to write, and those the provider may plan the same without. */
export function chooseAttributes(t: TypeSchema, attrs: Record<string, unknown>): Chosen {
  if (!t.plugin) return builtinChoice(t, attrs);
  const b = t.plugin.block;
  const { fields, leftOut } = blockFields(b, attrs, "");
  const removable = derivable(fields, (k) => b.attributes[k]);
  for (const f of fields) {
    const a = b.attributes[f.name];
    const n = b.blockTypes[f.name];
    if (a?.deprecated || n?.block.deprecated) removable[f.name] = "deprecated";
    else if (a && a.optional && !a.computed && !a.required && !a.sensitive) {
      removable[f.name] = "default";
    }
  }
  return { fields, leftOut, removable };
}

/** The configuration's value of what is written: what CUE gives the provider (secrets as read). */
export function configValue(out: Out): unknown {
  switch (out.kind) {
    case "value":
    case "json":
    case "secret":
      return out.value;
    case "struct":
      return Object.fromEntries(out.fields.map((f) => [f.name, configValue(f.out)]));
    case "list":
      return out.items.map(configValue);
  }
}

/** The configuration of the fields: top-level attribute → value. */
export function configOf(fields: readonly OutField[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((f) => [f.name, configValue(f.out)]));
}

/** The paths of the secrets among the fields, left to fill. */
export function secretsOf(fields: readonly OutField[]): string[] {
  const out: string[] = [];
  const walk = (o: Out) => {
    if (o.kind === "secret") out.push(o.path);
    else if (o.kind === "struct") o.fields.forEach((f) => walk(f.out));
    else if (o.kind === "list") o.items.forEach(walk);
  };
  fields.forEach((f) => walk(f.out));
  return out;
}

function usesJson(fields: readonly OutField[]): boolean {
  const walk = (o: Out): boolean =>
    o.kind === "json" ||
    (o.kind === "struct" && o.fields.some((f) => walk(f.out))) ||
    (o.kind === "list" && o.items.some(walk));
  return fields.some((f) => walk(f.out));
}

/** A label in the file: `json` quoted too, so that no field hides the import. */
function fileLabel(name: string): string {
  return name === "json" ? '"json"' : cueLabel(name);
}

interface Print {
  /** Stand-ins in place of the secrets' placeholders: the text that is checked, never written. */
  standIns: boolean;
  /** The comment above each secret. */
  secretNote: string;
}

function printOut(o: Out, depth: number, p: Print): string {
  const pad = "\t".repeat(depth + 1);
  const end = "\t".repeat(depth);
  switch (o.kind) {
    case "value":
      return cueValue(o.value, depth);
    case "json":
      return o.cue;
    case "secret":
      return p.standIns ? cueValue(o.standIn, depth) : secretCue(o.type);
    case "list":
      if (o.items.length === 0) return "[]";
      return `[\n${o.items.map((x) => `${pad}${printOut(x, depth + 1, p)},`).join("\n")}\n${end}]`;
    case "struct":
      if (o.fields.length === 0) return "{}";
      return `{\n${printFields(o.fields, depth + 1, p)}\n${end}}`;
  }
}

/**
 * The CUE written for a secret: its type where that is a scalar, else `_`
 * (`[...string]` or `{[string]: string}` would be a concrete empty value,
 * and validate would let it pass).
 */
function secretCue(type: string): string {
  return ["string", "number", "int", "bool"].includes(type) ? type : "_";
}

/** Text as comment lines of at most `width` characters (a longer word stays whole). */
export function commentLines(text: string, width = 80): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

function printFields(fields: readonly OutField[], depth: number, p: Print): string {
  const pad = "\t".repeat(depth);
  return fields.map((f) => {
    const note = f.out.kind === "secret" && !p.standIns
      ? commentLines(p.secretNote.replace("TYPE", f.out.type)).map((l) => `${pad}// ${l}\n`)
        .join("")
      : "";
    return `${note}${pad}${fileLabel(f.name)}: ${printOut(f.out, depth, p)}`;
  }).join("\n");
}

/** What the file declares. */
export interface NodeFile {
  packageName: string;
  /** The node's address, as labels. */
  path: string[];
  /** The provider configuration's field: `$aws`. */
  instance: string;
  type: string;
  fields: readonly OutField[];
  /** The comment at the top of the file. */
  header: string;
  /** The comment above each secret's field; `TYPE` is replaced by the attribute's type. */
  secretNote: string;
}

/**
 * The text of the file, formatted as `pravo fmt` writes it. With
 * `standIns`, each secret has a value of its type instead of the type
 * alone: the text pravo checks against the root, never written.
 */
export function nodeFileText(f: NodeFile, opts: { standIns?: boolean } = {}): string {
  const p: Print = { standIns: Boolean(opts.standIns), secretNote: f.secretNote };
  const lines = [
    ...commentLines(f.header, 96).map((l) => `// ${l}`),
    `package ${f.packageName}`,
    "",
  ];
  if (usesJson(f.fields)) lines.push('import "encoding/json"', "");
  const labels = f.path.map(fileLabel).join(": ");
  const body = f.fields.length ? `{\n${printFields(f.fields, 1, p)}\n}` : "{}";
  lines.push(`${labels}: ${f.instance}.#Resource.${f.type} & ${body}`);
  return formatSource(lines.join("\n") + "\n");
}
