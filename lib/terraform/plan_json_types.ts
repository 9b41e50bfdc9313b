/**
 * The types of a node's attributes as Terraform's JSON plan needs them: the
 * shape of a value that is not known yet (an unknown list is `[]` in
 * `after_sensitive`, an unknown map `{}`, an unknown string nothing), which
 * attributes exist (Terraform writes every one, `null` where unset), and
 * which are sensitive at any depth (a block's attribute marked sensitive
 * in the provider's schema).
 *
 * Read from a provider's schema: a plugin type's blocks and attribute types
 * (`TypeSchema.plugin`), a built-in type's attributes.
 *
 * @module
 */

import type { Attribute as PluginAttribute, Block } from "../plugin/schema.ts";
import type { CtyType } from "../plugin/value.ts";
import type { AttrType, TypeSchema } from "../providers/schema.ts";

/** A type, reduced to what the JSON plan needs. */
export type TfType =
  | { kind: "primitive" }
  | { kind: "list"; elem: TfType }
  | { kind: "tuple"; elems: TfType[] }
  | { kind: "map"; elem: TfType }
  | { kind: "object"; attrs: Record<string, TfType>; sensitive: ReadonlySet<string> };

/** One step into a value: an attribute or map key, or a list index. */
export type PathStep = string | number;
export type Path = PathStep[];

const PRIMITIVE: TfType = { kind: "primitive" };

/** A cty type expression as a {@linkcode TfType}. */
export function ctyToType(t: CtyType): TfType {
  if (typeof t === "string") return PRIMITIVE;
  switch (t[0]) {
    case "list":
    case "set":
      return { kind: "list", elem: ctyToType(t[1]) };
    case "map":
      return { kind: "map", elem: ctyToType(t[1]) };
    case "tuple":
      return { kind: "tuple", elems: t[1].map(ctyToType) };
    case "object": {
      const attrs: Record<string, TfType> = {};
      for (const [k, v] of Object.entries(t[1])) attrs[k] = ctyToType(v);
      return { kind: "object", attrs, sensitive: new Set() };
    }
  }
}

function pluginAttribute(a: PluginAttribute): TfType {
  if (a.nestedType) {
    const obj = objectOf(a.nestedType.attributes, {});
    switch (a.nestedType.nesting) {
      case "single":
        return obj;
      case "map":
        return { kind: "map", elem: obj };
      default:
        return { kind: "list", elem: obj };
    }
  }
  return a.type ? ctyToType(a.type) : PRIMITIVE;
}

function objectOf(
  attributes: Record<string, PluginAttribute>,
  blocks: Block["blockTypes"],
): TfType {
  const attrs: Record<string, TfType> = {};
  const sensitive = new Set<string>();
  for (const [k, a] of Object.entries(attributes)) {
    attrs[k] = pluginAttribute(a);
    if (a.sensitive) sensitive.add(k);
  }
  for (const [k, b] of Object.entries(blocks)) {
    const obj = blockType(b.block);
    attrs[k] = b.nesting === "single" || b.nesting === "group"
      ? obj
      : b.nesting === "map"
      ? { kind: "map", elem: obj }
      : { kind: "list", elem: obj };
  }
  return { kind: "object", attrs, sensitive };
}

/** A plugin schema's block as an object type. */
export function blockType(b: Block): TfType {
  return objectOf(b.attributes, b.blockTypes);
}

function builtinType(t: AttrType): TfType {
  if (typeof t === "string") return PRIMITIVE;
  if ("cty" in t) return ctyToType(t.cty);
  if ("list" in t) return { kind: "list", elem: builtinType(t.list) };
  if ("set" in t) return { kind: "list", elem: builtinType(t.set) };
  return { kind: "map", elem: builtinType(t.map) };
}

/** The object type of a node's attributes, from its type's schema. */
export function typeOfSchema(t: TypeSchema): TfType {
  if (t.plugin) return blockType(t.plugin.block);
  const attrs: Record<string, TfType> = {};
  const sensitive = new Set<string>();
  for (const [k, a] of Object.entries(t.attributes)) {
    attrs[k] = builtinType(a.type);
    if (a.sensitive) sensitive.add(k);
  }
  return { kind: "object", attrs, sensitive };
}

/** The type of what is at `step` inside a value of type `t`; undefined when not known. */
export function childType(t: TfType | undefined, step: PathStep): TfType | undefined {
  if (!t) return undefined;
  switch (t.kind) {
    case "list":
    case "map":
      return t.elem;
    case "tuple":
      return typeof step === "number" ? t.elems[step] : undefined;
    case "object":
      return typeof step === "string" ? t.attrs[step] : undefined;
    default:
      return undefined;
  }
}

/** The type at a path; undefined when not known. */
export function typeAt(t: TfType | undefined, path: readonly PathStep[]): TfType | undefined {
  let cur = t;
  for (const s of path) cur = childType(cur, s);
  return cur;
}

/**
 * The paths the schema marks sensitive inside a value of type `t`: each
 * sensitive attribute of an object, and those inside every element of its
 * lists and maps that the value holds.
 */
export function schemaSensitivePaths(t: TfType | undefined, value: unknown, at: Path = []): Path[] {
  const out: Path[] = [];
  if (!t) return out;
  if (t.kind === "object") {
    const obj = isObject(value) ? value : {};
    for (const [k, ct] of Object.entries(t.attrs)) {
      if (t.sensitive.has(k)) out.push([...at, k]);
      else if (obj[k] !== undefined && obj[k] !== null) {
        out.push(...schemaSensitivePaths(ct, obj[k], [...at, k]));
      }
    }
  } else if ((t.kind === "list" || t.kind === "tuple") && Array.isArray(value)) {
    value.forEach((e, i) => out.push(...schemaSensitivePaths(childType(t, i), e, [...at, i])));
  } else if (t.kind === "map" && isObject(value)) {
    for (const [k, e] of Object.entries(value)) {
      out.push(...schemaSensitivePaths(t.elem, e, [...at, k]));
    }
  }
  return out;
}

/** True for a JSON object (not null, not an array). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
