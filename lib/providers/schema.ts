/**
 * Provider schemas: the types, attributes and flags that a provider offers.
 *
 * Schemas are plain data in TypeScript so that commands that need no CUE
 * (`schema`, `providers`) read them without loading cue-wasm, and so that the
 * CUE package of each provider is generated from the same source.
 *
 * @module
 */

import type { Block } from "../plugin/schema.ts";
import { type CtyType, typeName } from "../plugin/value.ts";

/**
 * An attribute's type, in the manner of Terraform's type system. The
 * built-in providers use the simple forms; a plugin provider's attribute
 * carries its type expression as the provider gave it (`{cty: ...}`:
 * objects, tuples and `dynamic` included).
 */
export type AttrType =
  | "string"
  | "number"
  | "int"
  | "bool"
  | { list: AttrType }
  | { set: AttrType }
  | { map: AttrType }
  | { cty: CtyType };

/** The mode of a node: what kind of object its type describes. */
export type Mode = "managed" | "data" | "ephemeral" | "call";

export interface Attribute {
  type: AttrType;
  /** What the attribute means; shown by `pravo schema`. */
  description: string;
  /** The configuration must set it. */
  required?: boolean;
  /** The configuration may set it. */
  optional?: boolean;
  /** The provider sets it (alone when neither required nor optional). */
  computed?: boolean;
  /** Its value is redacted in every view. */
  sensitive?: boolean;
  /** The value used when the configuration leaves it unset. */
  default?: unknown;
  /** Changing it replaces the object instead of updating it in place. */
  forceNew?: boolean;
  /** Sent to the provider and never stored: null in every plan and state (plugins). */
  writeOnly?: boolean;
  /** The provider says not to use it any more (plugins). */
  deprecated?: boolean;
  /**
   * A nested block of a plugin type, written as in Terraform's JSON syntax:
   * an object for `single` and `group`, a list of objects for `list` and
   * `set`, an object of objects for `map`.
   */
  block?: {
    nesting: "single" | "group" | "list" | "set" | "map";
    minItems: number;
    maxItems: number;
  };
}

export interface TypeSchema {
  /** The type name, with the provider's prefix: `random_integer`. */
  name: string;
  mode: Mode;
  description: string;
  attributes: Record<string, Attribute>;
  /**
   * How long a refreshed value stays fresh before a plan reads the real
   * world again, as a duration (`"24h"`, `"0s"` for every plan). Absent: the
   * value never needs reading again (it lives only in the state).
   */
  refreshAge?: string;
  /**
   * A plugin provider's type: its schema as the provider gave it (nested
   * blocks and attributes, every flag) and its version. The provider plans
   * changes to it; `attributes` are its top-level attributes and blocks.
   */
  plugin?: { block: Block; version: number };
}

export interface ProviderSchema {
  /** `namespace/name`, as in the import path `pravo.dev/providers/<source>`. */
  source: string;
  version: string;
  description: string;
  /** The provider's own configuration (`#Provider`). */
  config: Record<string, Attribute>;
  types: TypeSchema[];
  /**
   * A plugin provider (a Terraform/OpenTofu provider binary that the root's
   * lock pins): its full address, and its configuration's schema.
   */
  plugin?: { address: string; config: Block };
}

/** A plugin attribute's type expression; undefined for a built-in one. */
export function ctyOf(a: Pick<Attribute, "type"> | undefined): CtyType | undefined {
  const t = a?.type;
  return typeof t === "object" && "cty" in t ? t.cty : undefined;
}

/** The import path of a provider package. */
export function importPath(source: string): string {
  return `pravo.dev/providers/${source}`;
}

/** `list(string)`, `map(number)`, `string`: a type as Terraform writes it. */
export function typeString(t: AttrType): string {
  if (typeof t === "string") return t;
  if ("cty" in t) return typeName(t.cty);
  if ("list" in t) return `list(${typeString(t.list)})`;
  if ("set" in t) return `set(${typeString(t.set)})`;
  return `map(${typeString(t.map)})`;
}
