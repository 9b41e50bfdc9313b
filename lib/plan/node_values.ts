/**
 * A node's values as the planner sees them: its inputs, those known now
 * (values known only after apply are {@linkcode UNKNOWN}), its sensitive
 * attributes, the provider configuration it is planned with, and which
 * attributes differ between two sets of values.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import type { Node, Spec } from "../cue/loader.ts";
import { UNKNOWN, type Value } from "../cue/program.ts";
import type { TypeSchema } from "../providers/schema.ts";
import { isInput } from "./known.ts";
import type { Attrs } from "./types.ts";

/** True when the value is, or holds, a value known only after apply. */
export function hasUnknown(v: unknown): boolean {
  if (v === UNKNOWN) return true;
  if (Array.isArray(v)) return v.some(hasUnknown);
  if (v && typeof v === "object") return Object.values(v).some(hasUnknown);
  return false;
}

/** The entries whose values are known now. */
export function withoutUnknown(v: Readonly<Record<string, unknown>>): Attrs {
  const out: Attrs = {};
  for (const [k, x] of Object.entries(v)) if (!hasUnknown(x)) out[k] = x;
  return out;
}

/** The inputs the configuration sets for a node. */
export function inputsOf(n: Pick<Node, "schema" | "config">): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const [k, a] of Object.entries(n.schema.attributes)) {
    if (isInput(a) && n.config[k] !== undefined) out[k] = n.config[k];
  }
  return out;
}

/** The known values of the configuration of the provider instance a node's type comes from. */
export function providerConfigOf(
  spec: Pick<Spec, "providers">,
  n: Pick<Node, "providerInstance">,
): Attrs {
  const inst = spec.providers.find((p) => p.address === n.providerInstance);
  return inst ? withoutUnknown(inst.config) : {};
}

/** The attributes a type's schema marks sensitive, sorted. */
export function sensitiveOf(type: TypeSchema): string[] {
  return Object.entries(type.attributes).filter(([, a]) => a.sensitive).map(([k]) => k).sort();
}

/**
 * The sensitive attributes of a data source: those its schema marks and
 * those whose inputs are computed from a secret; when an input is, every
 * attribute is (what is read depends on the secret).
 */
export function dataSensitive(n: Pick<Node, "schema" | "sensitiveInputs">, read: Attrs): string[] {
  const out = new Set([...sensitiveOf(n.schema), ...n.sensitiveInputs]);
  if (n.sensitiveInputs.length) {
    for (const k of [...Object.keys(n.schema.attributes), ...Object.keys(read)]) out.add(k);
  }
  return [...out].sort();
}

/** The attributes whose values differ between `a` and `b` (absent counts as null), sorted. */
export function changedKeys(a: Attrs, b: Attrs): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => !isDeepStrictEqual(a[k] ?? null, b[k] ?? null)).sort();
}
