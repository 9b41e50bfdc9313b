/**
 * Provider schemas as the protocol gives them, in TypeScript: blocks of
 * attributes (typed by their JSON type expressions, or, in version 6, by a
 * nested attribute type) and nested blocks (single, group, list, set, map,
 * with min/max items), with every flag kept: required, optional, computed,
 * sensitive, write-only, deprecated, and descriptions.
 *
 * A schema is plain JSON-able data, so that the engine can cache it by the
 * provider binary's hash and hand it back without asking the provider.
 *
 * {@link blockType} is the object type a block's values have;
 * {@link blockValue} shapes a configuration (plain JSON, as CUE gives it, in
 * Terraform's JSON syntax for blocks) into a value of that type: every
 * attribute and nested block present, null where unset, an absent list or
 * set block `[]`, an absent map block `{}`, an absent group block an object
 * of nulls. Providers require exactly that shape.
 *
 * @module
 */

import {
  type CtyType,
  parseType,
  type PathStep,
  Unknown,
  type Value,
  ValueError,
} from "./value.ts";

export type DescriptionKind = "plain" | "markdown";

export interface Attribute {
  /** The type; absent when the attribute has a nested type (version 6). */
  type?: CtyType;
  /** A nested attribute type (version 6 only). */
  nestedType?: NestedObject;
  description: string;
  descriptionKind: DescriptionKind;
  required: boolean;
  optional: boolean;
  computed: boolean;
  sensitive: boolean;
  deprecated: boolean;
  /** Sent by the configuration, never stored: always null in state and plan. */
  writeOnly: boolean;
}

export type ObjectNesting = "single" | "list" | "set" | "map";

/** A version 6 nested attribute type: attributes in an object, or a collection of them. */
export interface NestedObject {
  nesting: ObjectNesting;
  attributes: Record<string, Attribute>;
}

export type BlockNesting = "single" | "group" | "list" | "set" | "map";

export interface NestedBlock {
  nesting: BlockNesting;
  block: Block;
  /** 0 when not limited. */
  minItems: number;
  /** 0 when not limited. */
  maxItems: number;
}

export interface Block {
  attributes: Record<string, Attribute>;
  blockTypes: Record<string, NestedBlock>;
  description: string;
  descriptionKind: DescriptionKind;
  deprecated: boolean;
}

/** The schema of the provider's configuration or of one type. */
export interface Schema {
  /** The schema version: a state written with an older one needs an upgrade. */
  version: number;
  block: Block;
}

// --- From the protocol's messages -------------------------------------------------

/** An int64 as protobufjs decodes it: a number, or a Long. */
export function toNumber(v: unknown): number {
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "string") return Number(v);
  if (v && typeof v === "object" && "toNumber" in v) {
    return (v as { toNumber(): number }).toNumber();
  }
  if (v && typeof v === "object" && "low" in v && "high" in v) {
    const l = v as { low: number; high: number };
    return l.high * 2 ** 32 + (l.low >>> 0);
  }
  return 0;
}

const BLOCK_NESTING: Record<number, BlockNesting> = {
  1: "single",
  2: "list",
  3: "set",
  4: "map",
  5: "group",
};
const OBJECT_NESTING: Record<number, ObjectNesting> = {
  1: "single",
  2: "list",
  3: "set",
  4: "map",
};

const dec = new TextDecoder();

// deno-lint-ignore no-explicit-any
type Msg = any;

function kind(v: unknown): DescriptionKind {
  return v === 1 || v === "MARKDOWN" ? "markdown" : "plain";
}

function attributeFrom(a: Msg, path: PathStep[]): Attribute {
  const out: Attribute = {
    description: a.description ?? "",
    descriptionKind: kind(a.description_kind),
    required: !!a.required,
    optional: !!a.optional,
    computed: !!a.computed,
    sensitive: !!a.sensitive,
    deprecated: !!a.deprecated,
    writeOnly: !!a.write_only,
  };
  if (a.nested_type) {
    const nesting = OBJECT_NESTING[Number(a.nested_type.nesting)];
    if (!nesting) throw new ValueError(path, "a nested attribute type has no nesting mode");
    const attributes: Record<string, Attribute> = {};
    for (const n of a.nested_type.attributes ?? []) {
      attributes[n.name] = attributeFrom(n, [...path, { name: n.name }]);
    }
    out.nestedType = { nesting, attributes };
  } else {
    const text = a.type instanceof Uint8Array ? dec.decode(a.type) : String(a.type ?? "");
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ValueError(path, `the attribute's type is not JSON: ${text.slice(0, 80)}`);
    }
    out.type = parseType(json, path);
  }
  return out;
}

/** A `Schema.Block` message as a {@link Block}. */
export function blockFrom(b: Msg, path: PathStep[] = []): Block {
  const attributes: Record<string, Attribute> = {};
  for (const a of b?.attributes ?? []) {
    attributes[a.name] = attributeFrom(a, [...path, { name: a.name }]);
  }
  const blockTypes: Record<string, NestedBlock> = {};
  for (const n of b?.block_types ?? []) {
    const nesting = BLOCK_NESTING[Number(n.nesting)];
    if (!nesting) {
      throw new ValueError([...path, { name: n.type_name }], "a block has no nesting mode");
    }
    blockTypes[n.type_name] = {
      nesting,
      block: blockFrom(n.block, [...path, { name: n.type_name }]),
      minItems: toNumber(n.min_items),
      maxItems: toNumber(n.max_items),
    };
  }
  return {
    attributes,
    blockTypes,
    description: b?.description ?? "",
    descriptionKind: kind(b?.description_kind),
    deprecated: !!b?.deprecated,
  };
}

/** A `Schema` message as a {@link Schema}; an absent one is an empty block. */
export function schemaFrom(s: Msg): Schema {
  return { version: toNumber(s?.version), block: blockFrom(s?.block) };
}

// --- Types and values --------------------------------------------------------------

function nestedObjectType(n: NestedObject): CtyType {
  const attrs: Record<string, CtyType> = {};
  for (const [k, a] of Object.entries(n.attributes)) attrs[k] = attributeType(a);
  const obj: CtyType = ["object", attrs];
  return n.nesting === "single" ? obj : [n.nesting, obj];
}

/** The type of an attribute's values. */
export function attributeType(a: Attribute): CtyType {
  if (a.nestedType) return nestedObjectType(a.nestedType);
  return a.type ?? "dynamic";
}

/** The object type of a block's values: its attributes and nested blocks. */
export function blockType(b: Block): CtyType {
  const attrs: Record<string, CtyType> = {};
  for (const [k, a] of Object.entries(b.attributes)) attrs[k] = attributeType(a);
  for (const [k, n] of Object.entries(b.blockTypes)) {
    const obj = blockType(n.block);
    attrs[k] = n.nesting === "single" || n.nesting === "group" ? obj : [n.nesting, obj];
  }
  return ["object", attrs];
}

function isRecord(v: unknown): v is Record<string, Value> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Unknown) &&
    Object.getPrototypeOf(v) === Object.prototype;
}

function nestedObjectValue(v: Value, n: NestedObject, path: PathStep[]): Value {
  if (v === null || v === undefined || v instanceof Unknown) return v ?? null;
  const one = (x: Value, p: PathStep[]) => attributesValue(x, n.attributes, {}, p);
  switch (n.nesting) {
    case "single":
      return one(v, path);
    case "list":
    case "set":
      if (!Array.isArray(v)) throw new ValueError(path, `a ${n.nesting} of objects is required`);
      return v.map((x, i) => one(x, [...path, { index: i }]));
    case "map": {
      if (!isRecord(v)) throw new ValueError(path, "a map of objects is required");
      const out: Record<string, Value> = {};
      for (const [k, x] of Object.entries(v)) out[k] = one(x, [...path, { key: k }]);
      return out;
    }
  }
}

function attributesValue(
  v: Value,
  attributes: Record<string, Attribute>,
  blocks: Record<string, NestedBlock>,
  path: PathStep[],
): Value {
  if (v === null || v === undefined || v instanceof Unknown) return v ?? null;
  if (!isRecord(v)) throw new ValueError(path, "an object is required");
  for (const k of Object.keys(v)) {
    if (!(k in attributes) && !(k in blocks)) {
      throw new ValueError([...path, { name: k }], "unsupported argument or block");
    }
  }
  const out: Record<string, Value> = {};
  for (const [k, a] of Object.entries(attributes)) {
    const x = v[k] ?? null;
    out[k] = a.nestedType ? nestedObjectValue(x, a.nestedType, [...path, { name: k }]) : x;
  }
  for (const [k, n] of Object.entries(blocks)) {
    out[k] = nestedBlockValue(v[k] ?? null, n, [...path, { name: k }]);
  }
  return out;
}

function nestedBlockValue(v: Value, n: NestedBlock, path: PathStep[]): Value {
  if (v instanceof Unknown) return v;
  const one = (x: Value, p: PathStep[]) => blockValue(x, n.block, p);
  switch (n.nesting) {
    case "single":
      return v === null ? null : one(v, path);
    case "group":
      return one(v ?? {}, path);
    case "list":
    case "set":
      if (v === null) return [];
      // Terraform's JSON syntax allows one block as a lone object.
      if (isRecord(v)) return [one(v, [...path, { index: 0 }])];
      if (!Array.isArray(v)) throw new ValueError(path, `a ${n.nesting} of blocks is required`);
      return v.map((x, i) => one(x, [...path, { index: i }]));
    case "map": {
      if (v === null) return {};
      if (!isRecord(v)) throw new ValueError(path, "an object of blocks by key is required");
      const out: Record<string, Value> = {};
      for (const [k, x] of Object.entries(v)) out[k] = one(x, [...path, { key: k }]);
      return out;
    }
  }
}

/**
 * Shapes a configuration or state into a value of {@link blockType}: every
 * attribute and block present. Null stays null (no object at all), unknown
 * stays unknown. Throws a {@link ValueError} for an attribute or block the
 * schema does not have.
 */
export function blockValue(v: Value, b: Block, path: PathStep[] = []): Value {
  return attributesValue(v, b.attributes, b.blockTypes, path);
}

/**
 * The attributes a schema marks with a flag (`sensitive`, `writeOnly`),
 * through nested blocks and nested attribute types, as schema paths: names
 * only, with no element steps (`versioning.enabled` stands for the
 * attribute in every element of the `versioning` block).
 */
export function flaggedPaths(b: Block, flag: "sensitive" | "writeOnly"): PathStep[][] {
  const out: PathStep[][] = [];
  const attrs = (as: Record<string, Attribute>, path: PathStep[]) => {
    for (const [k, a] of Object.entries(as)) {
      const p = [...path, { name: k }];
      if (a[flag]) out.push(p);
      else if (a.nestedType) attrs(a.nestedType.attributes, p);
    }
  };
  const walk = (blk: Block, path: PathStep[]) => {
    attrs(blk.attributes, path);
    for (const [k, n] of Object.entries(blk.blockTypes)) walk(n.block, [...path, { name: k }]);
  };
  walk(b, []);
  return out;
}
