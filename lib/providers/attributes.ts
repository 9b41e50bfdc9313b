/**
 * Writing the built-in providers' schemas: an attribute by who sets it (the
 * configuration must, the configuration may, the provider does), its type
 * and its description; the rest (`forceNew`, `default`, `sensitive`, ...) as
 * options, in the order they are given.
 *
 * @module
 */

import type { Attribute, AttrType } from "./schema.ts";

/** What an attribute says beside its type, its description and who sets it. */
export type More = Omit<Attribute, "type" | "description">;

/** An attribute the configuration must set. */
export function required(type: AttrType, description: string, more: More = {}): Attribute {
  return { type, description, required: true, ...more };
}

/** An attribute the configuration may set. */
export function optional(type: AttrType, description: string, more: More = {}): Attribute {
  return { type, description, optional: true, ...more };
}

/** An attribute the provider sets. */
export function computed(type: AttrType, description: string, more: More = {}): Attribute {
  return { type, description, computed: true, ...more };
}
