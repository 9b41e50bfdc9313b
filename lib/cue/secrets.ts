/**
 * Tracing secrets through the configuration.
 *
 * A value computed from a sensitive value is sensitive, however it was
 * computed (`strings.ToUpper`, `base64.Encode`, `strings.Split`, string
 * interpolation, arithmetic). The loader finds such values by evaluating the
 * configuration once more with each secret replaced by a stand-in that
 * differs from it: whatever differs between the two evaluations depends on a
 * secret.
 *
 * A stand-in ({@linkcode standIn}) is of the same type and, where the secret
 * has one, of the same format (decimal digits, hexadecimal, base64, JSON), so
 * that decoding it still evaluates; it differs from the secret in every
 * character (also after changing case) and in length, and holds every
 * printable ASCII character where the format allows, so that slicing,
 * searching, casing and measuring the secret all give another result.
 *
 * A stand-in is made from the secret, so it says something about it: it is
 * compared, never shown. Messages are computed with {@linkcode neutral}
 * values instead, which depend on the secret's type and format only.
 *
 * @module
 */

/** A path inside a node's attributes: object keys and list indexes. */
export type AttrPath = (string | number)[];

/** Printable ASCII, without the space: what a generic stand-in is made of. */
const POOL = Array.from({ length: 94 }, (_, i) => String.fromCharCode(0x21 + i));
/** Characters outside ASCII and without case, for stand-ins longer than the pool. */
const FILLERS = ["¤", "§", "¶", "±", "¦"];
const HEX = [..."0123456789abcdef"];
const BASE64 = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"];

/** What stands, in messages and views, for a sensitive value. */
export const NEUTRAL_TEXT = "(sensitive)";

/** True when `c` and `d` differ, also after either is upper- or lower-cased. */
function apart(c: string, d: string | undefined): boolean {
  if (d === undefined) return true;
  return c !== d && c.toLowerCase() !== d.toLowerCase() && c.toUpperCase() !== d.toUpperCase() &&
    c.toLowerCase() !== d.toUpperCase() && c.toUpperCase() !== d.toLowerCase();
}

function utf8Length(s: string): number {
  return new TextEncoder().encode(s).length;
}

/**
 * Fills `positions` characters from `alphabet`, each apart from the secret's
 * character at that place, using every character of the alphabet once
 * before any is used again; then the unused ones.
 */
function spread(
  secret: string[],
  alphabet: readonly string[],
  fillers: readonly string[],
): string[] {
  const unused = [...alphabet];
  const out: string[] = [];
  for (let j = 0; j < secret.length; j++) {
    const i = unused.findIndex((c) => apart(c, secret[j]));
    if (i >= 0) out.push(unused.splice(i, 1)[0]);
    else out.push([...alphabet, ...fillers].find((c) => apart(c, secret[j]))!);
  }
  return [...out, ...unused];
}

/** The format of a secret string, for a stand-in that decodes as it does. */
export type TextFormat = "digits" | "hex" | "base64" | "json" | "text";

export function textFormat(s: string): TextFormat {
  if (/^[0-9]+$/.test(s)) return "digits";
  if (/^[0-9a-f]+$/.test(s) && s.length % 2 === 0) return "hex";
  if (/^[0-9A-F]+$/.test(s) && s.length % 2 === 0) return "hex";
  if (s.length > 0 && s.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(s)) return "base64";
  if (/^\s*[[{]/.test(s)) {
    try {
      JSON.parse(s);
      return "json";
    } catch {
      // not JSON
    }
  }
  return "text";
}

/** A string of the same format that differs from `s` in every character and in length. */
export function standInText(s: string): string {
  const chars = [...s];
  switch (textFormat(s)) {
    case "digits": {
      const out = chars.map((d, j) => String((Number(d) + 1 + (j % 9)) % 10));
      return out.join("") + "7";
    }
    case "hex": {
      const upper = s !== s.toLowerCase();
      let out = spread(chars.map((c) => c.toLowerCase()), HEX, []).join("");
      while (out.length <= s.length || out.length % 2) out += "a";
      return upper ? out.toUpperCase() : out;
    }
    case "base64": {
      // No padding: a multiple of 4 characters, longer than `s`.
      const body = spread(chars, BASE64, []);
      while (body.length <= s.length || body.length % 4) body.push("Q");
      return body.join("");
    }
    case "json":
      return JSON.stringify(standInValue(JSON.parse(s)), null, 1);
    default: {
      let out = spread(chars, POOL, FILLERS).join("");
      while ([...out].length === chars.length || utf8Length(out) === utf8Length(s)) {
        out += FILLERS.find((c) => apart(c, chars[[...out].length]))!;
      }
      return out;
    }
  }
}

/** A number of the same kind (whole or not) that differs from `n`, in sign too. */
export function standInNumber(n: number): number {
  if (!Number.isInteger(n)) return n >= 0 ? -(n * 3 + 1.5) : -n * 3 + 1.5;
  const digits = String(Math.abs(n));
  if (digits.length >= 15) return n >= 0 ? -n - 1 : -n + 1;
  let out = "";
  for (let j = 0; j < digits.length; j++) {
    const d = Number(digits[j]);
    out += String(j === 0 ? (d === 1 ? 2 : 1) : (d + 1 + (j % 9)) % 10);
  }
  const v = Number(out + "7");
  return n > 0 ? -v : v;
}

/**
 * A stand-in for a secret: same type, same keys, another value at every
 * leaf. Strings go through {@linkcode standInText}; booleans are negated.
 */
export function standIn(v: unknown): unknown {
  return standInValue(v);
}

function standInValue(v: unknown): unknown {
  if (typeof v === "string") return standInText(v);
  if (typeof v === "number") return standInNumber(v);
  if (typeof v === "boolean") return !v;
  if (Array.isArray(v)) return v.map(standInValue);
  if (v !== null && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, standInValue(x)]));
  }
  return v;
}

/**
 * How long a neutral stand-in is (the other one is longer still): long
 * enough that the slices configurations take of a password or a key
 * evaluate.
 */
const NEUTRAL_LENGTH = 64;

/**
 * A value that stands for a secret in an evaluation whose messages may be
 * shown: of the secret's type and format, and otherwise independent of it.
 */
export function neutral(v: unknown): unknown {
  if (typeof v === "string") {
    switch (textFormat(v)) {
      case "digits":
        return "0".repeat(NEUTRAL_LENGTH);
      case "hex":
        return "0a".repeat(NEUTRAL_LENGTH / 2);
      case "base64":
        return "Ag".repeat(NEUTRAL_LENGTH / 2);
      case "json":
        return JSON.stringify(neutral(JSON.parse(v)));
      default:
        return NEUTRAL_TEXT.padEnd(NEUTRAL_LENGTH, ".");
    }
  }
  if (typeof v === "number") return 0;
  if (typeof v === "boolean") return false;
  if (Array.isArray(v)) return v.map(neutral);
  if (v !== null && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, neutral(x)]));
  }
  return v;
}

/**
 * A second value that stands for a secret at plan time, beside
 * {@linkcode neutral}: of the same type and format, and otherwise
 * independent of the secret; it differs from the neutral value in every
 * character, in case and in length, so that what a configuration computes
 * from a secret differs between the two. What differs depends on a secret.
 */
export function alternate(v: unknown): unknown {
  if (typeof v === "string") {
    switch (textFormat(v)) {
      case "digits":
        return "97531".repeat(16);
      case "hex":
        return "fedcba98".repeat(10);
      case "base64":
        return "QmNkZWZn".repeat(10);
      case "json":
        return JSON.stringify(alternate(JSON.parse(v)), null, 1);
      default:
        return ALTERNATE_TEXT;
    }
  }
  if (typeof v === "number") return Number.isInteger(v) ? 7 : -2.5;
  if (typeof v === "boolean") return true;
  if (Array.isArray(v)) return v.map(alternate);
  if (v !== null && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, alternate(x)]));
  }
  return v;
}

/** Every printable ASCII character but the space, once, then a few without case. */
const ALTERNATE_TEXT = [...POOL.filter((c) => !NEUTRAL_TEXT.includes(c)), ...FILLERS].join("");

/** A copy of `attrs` with the value at each path replaced by `f` of it; null and absent stay. */
export function replaceAt(
  attrs: Record<string, unknown>,
  paths: readonly AttrPath[],
  f: (v: unknown) => unknown,
): Record<string, unknown> {
  if (paths.some((p) => p.length === 0)) return f(attrs) as Record<string, unknown>;
  const copy = structuredClone(attrs);
  for (const path of paths) {
    let parent: unknown = copy;
    for (const k of path.slice(0, -1)) {
      parent = parent !== null && typeof parent === "object"
        ? (parent as Record<string | number, unknown>)[k]
        : undefined;
    }
    if (parent === null || typeof parent !== "object") continue;
    const container = parent as Record<string | number, unknown>;
    const last = path[path.length - 1];
    if (container[last] === undefined || container[last] === null) continue;
    container[last] = f(container[last]);
  }
  return copy;
}

/** True when some path of `paths` holds a value (neither absent nor null) in `attrs`. */
export function holdsSecret(attrs: Record<string, unknown>, paths: readonly AttrPath[]): boolean {
  for (const path of paths) {
    let v: unknown = attrs;
    for (const k of path) {
      v = v !== null && typeof v === "object"
        ? (v as Record<string | number, unknown>)[k]
        : undefined;
    }
    if (v !== undefined && v !== null) return true;
  }
  return false;
}
