/**
 * Helpers for the tests that write provider schemas as a provider sends
 * them (the protocol's `Schema` message, as protobufjs decodes it): an
 * attribute with its type as JSON bytes, and a nested block. Not used by
 * pravo itself.
 *
 * @module
 */

const enc = new TextEncoder();

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
