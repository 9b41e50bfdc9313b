/**
 * Values known only after apply, traced through the configuration.
 *
 * Before apply, a computed attribute of a new node has no value. Each one
 * holds a default of its type in the provider's package (`*"⟦pravo:?⟧" |
 * string`), so the package evaluates to concrete JSON at the cost of one
 * plain evaluation. Where unknowns are, the loader evaluates a second time
 * with a distinct sentinel in each unknown computed attribute (a string
 * `⟦pravo:N⟧`, an integer between 8e15 and 2^53 a step of 1,000,003 apart, a
 * `true` for a bool). A value that differs between the two evaluations
 * depends on something unknown. Where it holds sentinels, it is a template
 * that apply fills in once the values exist, without evaluating CUE again;
 * where it does not (arithmetic on an unknown number, say), apply evaluates
 * again. A number sentinel interpolated into a string (`"\(x.result)"`)
 * shows there in decimal: such a string is a template only when putting the
 * defaults back in place of its sentinels gives exactly the plain
 * evaluation's string (so the digits are the number itself, not a part of
 * another one or of arithmetic on it), and apply fills it in only with a
 * whole number, written as CUE writes one.
 *
 * @module
 */

import { UNKNOWN, type Value } from "./program.ts";
import type { AttrType } from "../providers/schema.ts";

const DEFAULT_STRING = "⟦pravo:?⟧";
const DEFAULT_NUMBER = 7_000_000_000_000_000;

/** The default a computed attribute holds until it is known, as CUE. */
export function unknownDefault(t: AttrType): string {
  if (typeof t === "object" && "cty" in t) {
    throw new Error("bug: a plugin type's default comes from plugin_cue.ts");
  }
  if (t === "string") return JSON.stringify(DEFAULT_STRING);
  if (t === "int" || t === "number") return String(DEFAULT_NUMBER);
  if (t === "bool") return "false";
  if ("map" in t) return "{}";
  return `[${unknownDefault("list" in t ? t.list : t.set)}]`;
}

/** A distinct sentinel of the type, as CUE: what the second evaluation unifies in. */
export function sentinelFor(t: AttrType, i: number): string {
  if (typeof t === "object" && "cty" in t) {
    throw new Error("bug: a plugin type's sentinel comes from plugin_cue.ts");
  }
  if (t === "string") return JSON.stringify(sentinelString(i));
  if (t === "int" || t === "number") return String(sentinelNumber(i));
  if (t === "bool") return "true";
  if ("map" in t) return `{${JSON.stringify(sentinelString(i))}: ${sentinelFor(t.map, i)}}`;
  return `[${sentinelFor("list" in t ? t.list : t.set, i)}]`;
}

/** True when `v` is the default a computed attribute of type `t` holds while unknown. */
export function isUnknownDefault(v: unknown, t: AttrType): boolean {
  return JSON.stringify(v) === unknownDefault(t);
}

/**
 * True for a label made from what stands for an unknown value: the
 * default, a sentinel or a mark (a string holding `⟦pravo`), or a number
 * of their range written in decimal.
 */
export function isUnknownLabel(label: string): boolean {
  if (label.includes(DEFAULT_STRING.slice(0, 6))) return true;
  if (!/^\d{16}$/.test(label)) return false;
  const n = Number(label);
  return n >= DEFAULT_NUMBER && n <= Number.MAX_SAFE_INTEGER;
}

/** True when a value of the first evaluation holds an unknown's default anywhere. */
export function hasUnknownDefault(v: unknown): boolean {
  if (typeof v === "string") return v.includes(DEFAULT_STRING);
  if (typeof v === "number") return v === DEFAULT_NUMBER;
  if (Array.isArray(v)) return v.some(hasUnknownDefault);
  if (v && typeof v === "object") {
    return Object.entries(v).some(([k, e]) => k.includes(DEFAULT_STRING) || hasUnknownDefault(e));
  }
  return false;
}

/**
 * The value of the first evaluation with UNKNOWN wherever the second differs
 * (or, without a second, wherever an unknown's default shows).
 */
export function markUnknown(d: unknown, u: unknown | undefined): Value {
  if (u === undefined) {
    if (Array.isArray(d)) return d.map((e) => markUnknown(e, undefined));
    if (d && typeof d === "object") {
      if (Object.keys(d).some((k) => k.includes(DEFAULT_STRING))) return UNKNOWN;
      return Object.fromEntries(Object.entries(d).map(([k, e]) => [k, markUnknown(e, undefined)]));
    }
    return hasUnknownDefault(d) ? UNKNOWN : (d as Value);
  }
  if (Array.isArray(d)) {
    if (!Array.isArray(u) || u.length !== d.length) return UNKNOWN;
    return d.map((e, i) => markUnknown(e, u[i]));
  }
  if (d && typeof d === "object") {
    if (!u || typeof u !== "object" || Array.isArray(u)) return UNKNOWN;
    const dk = Object.keys(d).sort(), uk = Object.keys(u).sort();
    if (dk.join("\u0000") !== uk.join("\u0000")) return UNKNOWN;
    return Object.fromEntries(
      dk.map((
        k,
      ) => [k, markUnknown((d as Record<string, unknown>)[k], (u as Record<string, unknown>)[k])]),
    );
  }
  // The same in both, but what stands for unknown (a default the traced
  // evaluation did not replace with a sentinel): unknown, never a value.
  return d === u && !hasUnknownDefault(d) ? (d as Value) : UNKNOWN;
}

/** What a sentinel stands for: a computed attribute of a node. */
export interface SentinelRef {
  address: string;
  attr: string;
}

const NUMBER_BASE = 8_000_000_000_000_000;
/** Sentinels are this far apart, so that arithmetic on one does not make another. */
const NUMBER_STEP = 1_000_003;
/**
 * A number sentinel written in decimal inside a string: 16 digits (8e15 up
 * to 2^53), not part of a longer number.
 */
const DECIMAL_RE = /(?<![\d.])\d{16}(?![\d.])/g;
/** Either kind in a string, in one pass (so that a value put in is never read again). */
const ANY_RE = /⟦pravo:(\d+)⟧|(?<![\d.])\d{16}(?![\d.])/g;

export function sentinelString(i: number): string {
  return `⟦pravo:${i}⟧`;
}

export function sentinelNumber(i: number): number {
  return NUMBER_BASE + i * NUMBER_STEP;
}

function numberIndex(v: number, table: readonly SentinelRef[]): number | undefined {
  const near = nearSentinel(v, table);
  return near && near.offset === 0 ? near.index : undefined;
}

/**
 * The most a whole number may be off a number sentinel and still be read as
 * that sentinel plus a constant (`x.result + 1`): under half their spacing.
 */
const MAX_OFFSET = Math.floor(NUMBER_STEP / 2);

/**
 * The number sentinel `v` is, or is a whole constant off: its index and the
 * offset. Arithmetic that adds a known constant to an unknown number keeps
 * the sum a template; whether it is such a sum is checked against the plain
 * evaluation (see {@link explains}), where the default stands instead.
 */
function nearSentinel(
  v: number,
  table: readonly SentinelRef[],
): { index: number; offset: number } | undefined {
  if (!Number.isSafeInteger(v)) return undefined;
  const index = Math.round((v - NUMBER_BASE) / NUMBER_STEP);
  if (index < 0 || index >= table.length) return undefined;
  const offset = v - sentinelNumber(index);
  return Math.abs(offset) <= MAX_OFFSET ? { index, offset } : undefined;
}

/** A number sentinel written in decimal in a string (plus a constant, maybe). */
function decimalNear(digits: string, table: readonly SentinelRef[]) {
  return nearSentinel(Number(digits), table);
}

function hasDecimalSentinel(s: string, table: readonly SentinelRef[]): boolean {
  for (const m of s.matchAll(DECIMAL_RE)) if (decimalNear(m[0], table)) return true;
  return false;
}

/**
 * True when the string `template`, with the default of an unknown in place
 * of each sentinel, is `plain`: the sentinels stand where the values go.
 */
function reproduces(template: string, plain: unknown, table: readonly SentinelRef[]): boolean {
  if (typeof plain !== "string") return false;
  const back = template.replace(ANY_RE, (m, n) => {
    if (n !== undefined) return DEFAULT_STRING;
    const near = decimalNear(m, table);
    return near ? String(DEFAULT_NUMBER + near.offset) : m;
  });
  return back === plain;
}

/** True when `v` holds a sentinel anywhere. */
export function hasSentinel(v: unknown, table: readonly SentinelRef[]): boolean {
  if (typeof v === "string") return v.includes("⟦pravo:") || hasDecimalSentinel(v, table);
  if (typeof v === "number") return numberIndex(v, table) !== undefined;
  if (Array.isArray(v)) return v.some((e) => hasSentinel(e, table));
  if (v && typeof v === "object") return Object.values(v).some((e) => hasSentinel(e, table));
  return false;
}

/**
 * True when every unknown leaf of `a` (the plain evaluation, marked) holds a
 * sentinel in `b` (the evaluation with sentinels): then `b` is a template.
 * `plain` is the plain evaluation's value itself, unmarked: a string holding
 * a number sentinel in decimal counts only when it is reproduced from `plain`.
 */
export function explains(
  a: Value | undefined,
  b: unknown,
  table: readonly SentinelRef[],
  plain?: unknown,
): boolean {
  if (a === UNKNOWN) {
    if (typeof b === "string" && hasDecimalSentinel(b, table)) return reproduces(b, plain, table);
    if (typeof b === "number") {
      // A sentinel itself, or a constant off one where the plain evaluation
      // is the same constant off the default: the sum of the two.
      // (Without the plain value, only a sentinel itself.)
      const near = nearSentinel(b, table);
      if (!near) return false;
      return plain === undefined ? near.offset === 0 : plain === DEFAULT_NUMBER + near.offset;
    }
    return hasSentinel(b, table);
  }
  const sub = (k: string | number) =>
    plain && typeof plain === "object" ? (plain as Record<string, unknown>)[k] : undefined;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length &&
      a.every((e, i) => explains(e, b[i], table, sub(i)));
  }
  if (a && typeof a === "object") {
    if (!b || typeof b !== "object" || Array.isArray(b)) return false;
    return Object.entries(a).every(([k, e]) =>
      explains(e, (b as Record<string, unknown>)[k], table, sub(k))
    );
  }
  return true;
}

/**
 * Replaces the sentinels in a template with the values `lookup` gives. The
 * result is complete when every sentinel had a value.
 */
export function substitute(
  template: unknown,
  table: readonly SentinelRef[],
  lookup: (ref: SentinelRef) => unknown,
): { value: unknown; complete: boolean } {
  let complete = true;
  const walk = (v: unknown): unknown => {
    if (typeof v === "number") {
      const near = nearSentinel(v, table);
      if (!near) return v;
      const got = lookup(table[near.index]);
      if (near.offset === 0) {
        if (got === undefined) complete = false;
        return got;
      }
      // A sum of a whole number and a constant; anything else is evaluated again.
      if (typeof got !== "number" || !Number.isSafeInteger(got + near.offset)) {
        complete = false;
        return undefined;
      }
      return got + near.offset;
    }
    if (typeof v === "string") {
      const whole = /^⟦pravo:(\d+)⟧$/.exec(v);
      if (whole) {
        const got = lookup(table[Number(whole[1])]);
        if (got === undefined) complete = false;
        return got;
      }
      return v.replace(ANY_RE, (m, n) => {
        if (n !== undefined) {
          const got = lookup(table[Number(n)]);
          if (got === undefined) {
            complete = false;
            return "";
          }
          return typeof got === "string" ? got : JSON.stringify(got);
        }
        const near = decimalNear(m, table);
        if (!near) return m;
        const got = lookup(table[near.index]);
        // CUE writes a whole number in decimal; anything else is evaluated again.
        if (typeof got !== "number" || !Number.isSafeInteger(got + near.offset)) {
          complete = false;
          return "";
        }
        return String(got + near.offset);
      });
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, walk(e)]));
    }
    return v;
  };
  const value = walk(template);
  return { value, complete };
}

/** The nodes whose values a template waits for. */
export function sentinelRefs(template: unknown, table: readonly SentinelRef[]): SentinelRef[] {
  const out: SentinelRef[] = [];
  substitute(template, table, (r) => {
    out.push(r);
    return "";
  });
  return out;
}
