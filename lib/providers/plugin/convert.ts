/**
 * A plugin provider's schema (lib/plugin/schema.ts, as the provider gave
 * it) seen as the engine's types (`TypeSchema`): one attribute per
 * top-level attribute and per nested block, with the provider's type
 * expression, its flags, and the whole block kept beside them for what
 * needs the nesting (the CUE package, `pravo schema`, the provider calls).
 *
 * An attribute is sensitive here when it, or anything nested inside it, is
 * sensitive or write-only: the engine redacts and seals values by top-level
 * attribute, so a block with one sensitive attribute inside is redacted
 * whole.
 *
 * @module
 */

import type {
  Attribute as PluginAttribute,
  Block,
  NestedBlock,
  Schema,
} from "../../plugin/schema.ts";
import { attributeType, blockType } from "../../plugin/schema.ts";
import type { CtyType } from "../../plugin/value.ts";
import type { Attribute, Mode, TypeSchema } from "../schema.ts";

/**
 * How long a plugin resource's value stays fresh by default before a plan
 * reads the real world again (`lifecycle.refresh_age` changes it per node):
 * a plan within the hour after an apply starts no provider when nothing
 * changed; `pravo plan --refresh all` and `pravo drift` read everything.
 */
export const PLUGIN_REFRESH_AGE = "1h";

function nestedFlag(a: PluginAttribute, flag: "sensitive" | "writeOnly"): boolean {
  if (a[flag]) return true;
  return Object.values(a.nestedType?.attributes ?? {}).some((x) => nestedFlag(x, flag));
}

function blockFlag(b: Block, flag: "sensitive" | "writeOnly"): boolean {
  return Object.values(b.attributes).some((a) => nestedFlag(a, flag)) ||
    Object.values(b.blockTypes).some((n) => blockFlag(n.block, flag));
}

/** The type of a nested block's value, in Terraform's JSON syntax. */
export function nestedBlockType(n: NestedBlock): CtyType {
  const obj = blockType(n.block);
  switch (n.nesting) {
    case "single":
    case "group":
      return obj;
    case "map":
      return ["map", obj];
    default:
      return ["list", obj];
  }
}

/** One top-level attribute of a plugin type as the engine's attribute. */
export function attributeOf(a: PluginAttribute): Attribute {
  const out: Attribute = {
    type: { cty: attributeType(a) },
    description: a.description,
  };
  if (a.required) out.required = true;
  if (a.optional) out.optional = true;
  if (a.computed) out.computed = true;
  if (nestedFlag(a, "sensitive") || nestedFlag(a, "writeOnly")) out.sensitive = true;
  if (a.writeOnly) out.writeOnly = true;
  if (a.deprecated) out.deprecated = true;
  return out;
}

/** One nested block of a plugin type as the engine's attribute: an input. */
export function blockAttributeOf(n: NestedBlock): Attribute {
  const out: Attribute = {
    type: { cty: nestedBlockType(n) },
    description: n.block.description,
    block: { nesting: n.nesting, minItems: n.minItems, maxItems: n.maxItems },
  };
  if (n.minItems > 0 && n.nesting !== "group") out.required = true;
  else out.optional = true;
  if (blockFlag(n.block, "sensitive") || blockFlag(n.block, "writeOnly")) out.sensitive = true;
  if (n.block.deprecated) out.deprecated = true;
  return out;
}

/** The attributes of a block: its attributes, then its nested blocks. */
export function attributesOf(b: Block): Record<string, Attribute> {
  const out: Record<string, Attribute> = {};
  for (const [k, a] of Object.entries(b.attributes)) out[k] = attributeOf(a);
  for (const [k, n] of Object.entries(b.blockTypes)) out[k] = blockAttributeOf(n);
  return out;
}

/** A plugin type as the engine's type. */
export function typeSchemaOf(name: string, mode: Mode, schema: Schema): TypeSchema {
  const t: TypeSchema = {
    name,
    mode,
    description: schema.block.description,
    attributes: attributesOf(schema.block),
    plugin: { block: schema.block, version: schema.version },
  };
  if (mode === "managed") t.refreshAge = PLUGIN_REFRESH_AGE;
  return t;
}

/**
 * The names of the top-level attributes whose values are never to be shown
 * or stored in clear: sensitive or write-only, themselves or inside.
 */
export function sensitiveNames(t: TypeSchema): string[] {
  return Object.entries(t.attributes).filter(([, a]) => a.sensitive).map(([k]) => k).sort();
}
