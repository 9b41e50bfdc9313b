/**
 * Values known only after apply, traced through the configuration.
 *
 * Before apply, a computed attribute of a new node has no value, and CUE
 * leaves whatever refers to it incomplete. To learn how such an input will
 * be made once the value exists, the loader evaluates a second time with a
 * sentinel in each unknown computed attribute: a string `⟦pravo:N⟧` or an
 * integer between 8e15 and 2^53, a step of 1,000,003 apart. An input that comes out holding sentinels is a
 * template: apply replaces each sentinel with the value once it is known,
 * without evaluating CUE again. An input whose unknown parts hold no
 * sentinel (arithmetic on an unknown number, say) needs a new evaluation at
 * apply.
 *
 * @module
 */

import { UNKNOWN, type Value } from "./program.ts";

/** What a sentinel stands for: a computed attribute of a node. */
export interface SentinelRef {
  address: string;
  attr: string;
}

const NUMBER_BASE = 8_000_000_000_000_000;
/** Sentinels are this far apart, so that arithmetic on one does not make another. */
const NUMBER_STEP = 1_000_003;
const STRING_RE = /⟦pravo:(\d+)⟧/g;

export function sentinelString(i: number): string {
  return `⟦pravo:${i}⟧`;
}

export function sentinelNumber(i: number): number {
  return NUMBER_BASE + i * NUMBER_STEP;
}

function numberIndex(v: number, table: readonly SentinelRef[]): number | undefined {
  const i = (v - NUMBER_BASE) / NUMBER_STEP;
  return Number.isInteger(i) && i >= 0 && i < table.length ? i : undefined;
}

/** True when `v` holds a sentinel anywhere. */
export function hasSentinel(v: unknown, table: readonly SentinelRef[]): boolean {
  if (typeof v === "string") return v.includes("⟦pravo:");
  if (typeof v === "number") return numberIndex(v, table) !== undefined;
  if (Array.isArray(v)) return v.some((e) => hasSentinel(e, table));
  if (v && typeof v === "object") return Object.values(v).some((e) => hasSentinel(e, table));
  return false;
}

/**
 * True when every unknown leaf of `a` (the plain evaluation) holds a
 * sentinel in `b` (the evaluation with sentinels): then `b` is a template.
 */
export function explains(a: Value | undefined, b: unknown, table: readonly SentinelRef[]): boolean {
  if (a === UNKNOWN) return hasSentinel(b, table);
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((e, i) => explains(e, b[i], table));
  }
  if (a && typeof a === "object") {
    if (!b || typeof b !== "object" || Array.isArray(b)) return false;
    return Object.entries(a).every(([k, e]) =>
      explains(e, (b as Record<string, unknown>)[k], table)
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
      const i = numberIndex(v, table);
      if (i === undefined) return v;
      const got = lookup(table[i]);
      if (got === undefined) complete = false;
      return got;
    }
    if (typeof v === "string") {
      const whole = /^⟦pravo:(\d+)⟧$/.exec(v);
      if (whole) {
        const got = lookup(table[Number(whole[1])]);
        if (got === undefined) complete = false;
        return got;
      }
      return v.replace(STRING_RE, (_, n) => {
        const got = lookup(table[Number(n)]);
        if (got === undefined) {
          complete = false;
          return "";
        }
        return typeof got === "string" ? got : JSON.stringify(got);
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
