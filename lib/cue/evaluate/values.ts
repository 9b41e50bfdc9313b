/**
 * Small readers and writers of values that the passes of an evaluation
 * share: a value written as a CUE declaration at a path, the value at a
 * path of an evaluated tree, whether a value holds one known only after
 * apply.
 *
 * @module
 */

import { ctyOf, type TypeSchema } from "../../providers/schema.ts";
import { UNKNOWN, type Value, WRAP } from "../program.ts";

/** A struct of values. */
export type Tree = Record<string, Value>;

/** `"a": "b": value` for a path. */
export function nested(path: string[], lit: string): string {
  return path.map((l) => JSON.stringify(l)).join(": ") + ": " + lit;
}

/** Whether a value is a struct. */
export function isObject(v: Value | undefined): v is { [k: string]: Value } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Whether a value is, or holds, one known only after apply. */
export function hasUnknown(v: Value): boolean {
  if (v === UNKNOWN) return true;
  if (Array.isArray(v)) return v.some(hasUnknown);
  if (isObject(v)) return Object.values(v).some(hasUnknown);
  return false;
}

/** The value at `path` of a value, or undefined where a label is missing. */
export function valueAt(v: Value | undefined, path: string[]): Value | undefined {
  for (const k of path) v = isObject(v) ? v[k] : undefined;
  return v;
}

/** The root's package in an evaluation's JSON: the program wraps it (program.ts). */
export function packageOf(json: string): Tree | undefined {
  return (JSON.parse(json) as Record<string, Tree>)[WRAP];
}

/** A value from the state as CUE sees it: a dynamic value's own value, not its `{value, type}` form. */
export function cueView(v: unknown, a: TypeSchema["attributes"][string] | undefined): unknown {
  if (ctyOf(a) === "dynamic" && v && typeof v === "object" && "value" in v) {
    return (v as { value: unknown }).value;
  }
  return v;
}
