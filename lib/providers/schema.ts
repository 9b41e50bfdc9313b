/**
 * Provider schemas: the types, attributes and flags that a provider offers.
 *
 * Schemas are plain data in TypeScript so that commands that need no CUE
 * (`schema`, `providers`) read them without loading cue-wasm, and so that the
 * CUE package of each provider is generated from the same source.
 *
 * @module
 */

/** An attribute's type, in the manner of Terraform's type system. */
export type AttrType =
  | "string"
  | "number"
  | "int"
  | "bool"
  | { list: AttrType }
  | { set: AttrType }
  | { map: AttrType };

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
}

export interface ProviderSchema {
  /** `namespace/name`, as in the import path `pravo.dev/providers/<source>`. */
  source: string;
  version: string;
  description: string;
  /** The provider's own configuration (`#Provider`). */
  config: Record<string, Attribute>;
  types: TypeSchema[];
}

/** The import path of a provider package. */
export function importPath(source: string): string {
  return `pravo.dev/providers/${source}`;
}

/** `list(string)`, `map(number)`, `string`: a type as Terraform writes it. */
export function typeString(t: AttrType): string {
  if (typeof t === "string") return t;
  if ("list" in t) return `list(${typeString(t.list)})`;
  if ("set" in t) return `set(${typeString(t.set)})`;
  return `map(${typeString(t.map)})`;
}
