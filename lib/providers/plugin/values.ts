/**
 * Values between the engine and a plugin provider.
 *
 * - The engine's inputs (plain JSON from CUE, with the loader's unknown
 *   marker) become the provider's values (lib/plugin/value.ts: `Unknown`).
 * - An object in the state is JSON in Terraform's state form (every
 *   attribute present, null where unset; a dynamic value as `{value,
 *   type}`), read back with the type's schema.
 * - A planned object becomes what the plan shows: the values known now by
 *   top-level attribute, and the paths of what only apply will know.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import { decodeJSON } from "../../plugin/json.ts";
import type { Block } from "../../plugin/schema.ts";
import { blockType } from "../../plugin/schema.ts";
import {
  formatPath,
  type PathStep,
  stringifyValue,
  Typed,
  UNKNOWN,
  Unknown,
  type Value,
} from "../../plugin/value.ts";
import { type Attrs, UNKNOWN_INPUT } from "../resource_provider.ts";

/** The engine's inputs as a provider's configuration value: unknowns as `Unknown`. */
export function toProviderValue(v: unknown): Value {
  if (v === UNKNOWN_INPUT) return UNKNOWN;
  if (v === undefined) return null;
  if (Array.isArray(v)) return v.map(toProviderValue);
  if (v && typeof v === "object") {
    const out: Record<string, Value> = {};
    for (const [k, x] of Object.entries(v)) out[k] = toProviderValue(x);
    return out;
  }
  return v as Value;
}

/** An object of the state (JSON, Terraform's state form) as a value of its type. */
export function fromState(attrs: Attrs, block: Block): Value {
  return decodeJSON(stringifyValue(attrs as Value), blockType(block));
}

/** A provider's (known) value as state JSON: dynamic values in their `{value, type}` form. */
export function toState(v: Value): Attrs {
  return JSON.parse(stringifyValue(v)) as Attrs;
}

function isObj(v: Value): v is Record<string, Value> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Unknown) &&
    !(v instanceof Typed);
}

/**
 * A planned object as the plan shows it: the known values (an unknown
 * inside a value is null there), and what only apply will know: a whole
 * attribute by its name, a part by its path (`versioning[0].mfa_delete`).
 */
export function plannedView(v: Value): { after: Attrs; afterUnknown: string[] } {
  const after: Attrs = {};
  const afterUnknown: string[] = [];
  if (!isObj(v)) return { after, afterUnknown };
  const strip = (x: Value, path: PathStep[]): Value => {
    if (x instanceof Unknown) {
      afterUnknown.push(formatPath(path));
      return null;
    }
    if (x instanceof Typed) return new Typed(x.type, strip(x.value, path));
    if (Array.isArray(x)) return x.map((e, i) => strip(e, [...path, { index: i }]));
    if (isObj(x)) {
      const out: Record<string, Value> = {};
      for (const [k, e] of Object.entries(x)) out[k] = strip(e, [...path, { name: k }]);
      return out;
    }
    return x;
  };
  for (const [k, x] of Object.entries(v)) {
    if (x instanceof Unknown) {
      afterUnknown.push(k);
      continue;
    }
    after[k] = stateOf(strip(x, [{ name: k }]));
  }
  return { after, afterUnknown: afterUnknown.sort() };
}

function stateOf(v: Value): unknown {
  return JSON.parse(stringifyValue(v));
}

/** True when a value holds an unknown anywhere. */
export function hasUnknownValue(v: Value): boolean {
  if (v instanceof Unknown) return true;
  if (v instanceof Typed) return hasUnknownValue(v.value);
  if (Array.isArray(v)) return v.some(hasUnknownValue);
  if (isObj(v)) return Object.values(v).some(hasUnknownValue);
  return false;
}

/** The value at a path, or undefined where there is none. */
export function valueAt(v: Value, path: readonly PathStep[]): Value | undefined {
  let cur: Value | undefined = v;
  for (const s of path) {
    if (cur instanceof Typed) cur = cur.value;
    if (cur instanceof Unknown) return cur;
    if ("name" in s) cur = isObj(cur!) ? cur[s.name] : undefined;
    else if ("key" in s) cur = isObj(cur!) ? cur[s.key] : undefined;
    else cur = Array.isArray(cur) ? cur[s.index] : undefined;
    if (cur === undefined) return undefined;
  }
  return cur;
}

/**
 * Whether a planned value keeps what the configuration sets: equal where
 * both are known; an unknown in either, at any depth, accepts what the other
 * holds there (`{v: (unknown)}` planned as a whole unknown map, or as `{v: "x"}`
 * by a provider that knows more).
 */
export function agrees(config: Value | undefined, planned: Value | undefined): boolean {
  if (config instanceof Typed) config = config.value;
  if (planned instanceof Typed) planned = planned.value;
  if (config instanceof Unknown || planned instanceof Unknown) return true;
  if (!hasUnknownValue(config ?? null) && !hasUnknownValue(planned ?? null)) {
    return sameValue(config, planned);
  }
  if (Array.isArray(config) && Array.isArray(planned)) {
    return config.length === planned.length && config.every((x, i) => agrees(x, planned[i]));
  }
  if (config && planned && isObj(config) && isObj(planned)) {
    const keys = new Set([...Object.keys(config), ...Object.keys(planned)]);
    return [...keys].every((k) => agrees(config[k] ?? null, planned[k] ?? null));
  }
  return false;
}

/** Equality of two values: an unknown equals nothing. */
export function sameValue(a: Value | undefined, b: Value | undefined): boolean {
  if (a instanceof Unknown || b instanceof Unknown) return false;
  if (hasUnknownValue(a ?? null) || hasUnknownValue(b ?? null)) return false;
  return isDeepStrictEqual(stateOf(a ?? null), stateOf(b ?? null));
}
