/**
 * Helpers for the tests that write provider schemas: as a provider sends
 * them (the protocol's `Schema` message, as protobufjs decodes it: an
 * attribute with its type as JSON bytes, and a nested block), and as pravo
 * reads them (schema.ts's `Attribute`, `Block` and `NestedBlock`). Not used
 * by pravo itself.
 *
 * @module
 */

import type { Attribute, Block, NestedBlock } from "./schema.ts";
import type { CtyType } from "./value.ts";

const enc = new TextEncoder();

/** An attribute of a schema: optional, of `type` (none for a nested attribute), unless `flags` say otherwise. */
export function attr(type: CtyType | undefined, flags: Partial<Attribute> = {}): Attribute {
  return {
    type,
    description: "",
    descriptionKind: "plain",
    required: false,
    optional: true,
    computed: false,
    sensitive: false,
    deprecated: false,
    writeOnly: false,
    ...flags,
  };
}

/** A block of a schema with these attributes and nested blocks, undocumented. */
export function block(
  attributes: Record<string, Attribute>,
  blockTypes: Record<string, NestedBlock> = {},
  deprecated = false,
): Block {
  return { attributes, blockTypes, description: "", descriptionKind: "plain", deprecated };
}

/** A nested block of a schema, with no bounds on its number. */
export function nested(nesting: NestedBlock["nesting"], b: Block): NestedBlock {
  return { nesting, block: b, minItems: 0, maxItems: 0 };
}

/** An attribute of a schema message: its type as the JSON bytes of a cty type, its flags. */
export function attrMessage(
  name: string,
  type: unknown,
  flags: Record<string, unknown> = {},
): Record<string, unknown> {
  return { name, type: enc.encode(JSON.stringify(type)), ...flags };
}

/** The protocol's numbers for the nesting of a block. */
const NESTING = { single: 1, list: 2, set: 3, map: 4, group: 5 } as const;

/** A nested block of a schema message, its nesting by name and the attributes of its block. */
export function blockMessage(
  typeName: string,
  block: {
    nesting: keyof typeof NESTING;
    attributes: Record<string, unknown>[];
    maxItems?: number;
  },
): Record<string, unknown> {
  return {
    type_name: typeName,
    nesting: NESTING[block.nesting],
    ...(block.maxItems === undefined ? {} : { max_items: block.maxItems }),
    block: { attributes: block.attributes },
  };
}
