/**
 * `DynamicValue` in msgpack, typed: how every value travels to and from a
 * provider (cty's msgpack encoding).
 *
 * - Unknown is msgpack extension 0 (`d4 00 00`); extension 12 is an unknown
 *   with refinements (a map: 1 nullness, 2 string prefix, 3/4 number bounds
 *   as `[number, inclusive]`, 5/6 length bounds). Any other extension with
 *   at most one byte is unknown too, as cty reads it.
 * - A `"dynamic"` value is `[type JSON as bytes, value]`; null and unknown
 *   stay bare.
 * - Numbers: integers as msgpack integers, fractions as float64, and a
 *   number too large or too precise for either as its decimal string. A
 *   decoded integer beyond 2^53 is a `bigint`.
 * - Objects are maps holding every attribute (null where unset); maps are
 *   maps; lists, sets and tuples are arrays.
 *
 * Encoding converts primitives as Terraform does for configuration (`5` to
 * `"5"` for a string, `"true"` to `true` for a bool, `"1.5"` to 1.5 for a
 * number) and throws a {@link ValueError} with the path where a value does
 * not fit its type. Decoding throws the same on a malformed answer.
 *
 * @module
 */

import { decode as mpDecode, encode as mpEncode, ExtData } from "@msgpack/msgpack";
import {
  type CtyType,
  inferType,
  parseType,
  type PathStep,
  type Refinements,
  Typed,
  UNKNOWN,
  Unknown,
  type Value,
  ValueError,
} from "./value.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

/** Encodes a value of a type as msgpack. */
export function encodeMsgpack(value: Value, type: CtyType): Uint8Array {
  return mpEncode(toWire(value, type, []), { useBigInt64: true });
}

/** Decodes msgpack into a value of a type. */
export function decodeMsgpack(bytes: Uint8Array, type: CtyType): Value {
  let raw: unknown;
  try {
    raw = mpDecode(bytes, { useBigInt64: true });
  } catch (e) {
    throw new ValueError([], `not valid msgpack: ${(e as Error).message}`);
  }
  return fromWire(raw, type, []);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) &&
    !(v instanceof Unknown) && !(v instanceof Typed) && !(v instanceof Uint8Array) &&
    !(v instanceof ExtData);
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (v instanceof Uint8Array) return "bytes";
  if (typeof v === "object") return "an object";
  if (typeof v === "string") {
    return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + "…" : v)}`;
  }
  return `${typeof v} ${String(v)}`;
}

// --- Numbers ---------------------------------------------------------------------

const NUMBER_TEXT = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$/;

/** A number's value from JSON or text: a bigint for integers beyond 2^53. */
export function parseNumber(text: string): number | bigint | undefined {
  const s = text.trim();
  if (!NUMBER_TEXT.test(s)) return undefined;
  if (/^-?[0-9]+$/.test(s)) {
    const b = BigInt(s);
    const n = Number(b);
    return Number.isSafeInteger(n) ? n : b;
  }
  return Number(s);
}

function normalizeInt(b: bigint): number | bigint {
  const n = Number(b);
  return Number.isSafeInteger(n) ? n : b;
}

const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;

// --- Encoding --------------------------------------------------------------------

function unknownWire(u: Unknown, type: CtyType): ExtData {
  const r = u.refinements;
  if (!r || type === "dynamic") return new ExtData(0, Uint8Array.of(0));
  const entries: [number, unknown][] = [];
  if (r.notNull) entries.push([1, false]);
  if (type === "string" && r.stringPrefix) entries.push([2, r.stringPrefix]);
  if (type === "number") {
    if (r.numberMin) entries.push([3, [r.numberMin.value, r.numberMin.inclusive]]);
    if (r.numberMax) entries.push([4, [r.numberMax.value, r.numberMax.inclusive]]);
  }
  if (Array.isArray(type) && (type[0] === "list" || type[0] === "set" || type[0] === "map")) {
    if (r.lengthMin) entries.push([5, r.lengthMin]);
    if (r.lengthMax !== undefined) entries.push([6, r.lengthMax]);
  }
  if (!entries.length) return new ExtData(0, Uint8Array.of(0));
  // A map with small integer keys: built by hand, as @msgpack/msgpack writes
  // object keys as strings.
  const parts: Uint8Array[] = [Uint8Array.of(0x80 | entries.length)];
  for (const [k, v] of entries) parts.push(Uint8Array.of(k), mpEncode(v));
  const body = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    body.set(p, at);
    at += p.length;
  }
  return new ExtData(12, body);
}

function toWire(v: Value, type: CtyType, path: PathStep[]): unknown {
  if (v === undefined) v = null;
  if (v instanceof Unknown) return unknownWire(v, type);
  if (type === "dynamic") {
    if (v === null) return null;
    const t = inferType(v);
    const inner = v instanceof Typed ? v.value : v;
    return [enc.encode(JSON.stringify(t)), toWire(inner, t, path)];
  }
  if (v instanceof Typed) return toWire(v.value, type, path);
  if (v === null) return null;
  if (typeof type === "string") return primitiveWire(v, type, path);
  switch (type[0]) {
    case "list":
    case "set": {
      if (!Array.isArray(v)) {
        throw new ValueError(path, `a ${type[0]} is required, not ${describe(v)}`);
      }
      return v.map((x, i) => toWire(x, type[1], [...path, { index: i }]));
    }
    case "tuple": {
      if (!Array.isArray(v) || v.length !== type[1].length) {
        throw new ValueError(
          path,
          `a tuple of ${type[1].length} elements is required, not ${describe(v)}`,
        );
      }
      return v.map((x, i) => toWire(x, type[1][i], [...path, { index: i }]));
    }
    case "map": {
      if (!isRecord(v)) throw new ValueError(path, `a map is required, not ${describe(v)}`);
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = toWire(x, type[1], [...path, { key: k }]);
      return out;
    }
    case "object": {
      if (!isRecord(v)) throw new ValueError(path, `an object is required, not ${describe(v)}`);
      const attrs = type[1];
      for (const k of Object.keys(v)) {
        if (!(k in attrs)) throw new ValueError([...path, { name: k }], "unsupported attribute");
      }
      const out: Record<string, unknown> = {};
      for (const [k, t] of Object.entries(attrs)) {
        out[k] = toWire((v as Record<string, Value>)[k] ?? null, t, [...path, { name: k }]);
      }
      return out;
    }
  }
}

function primitiveWire(v: Value, type: "string" | "number" | "bool", path: PathStep[]): unknown {
  switch (type) {
    case "string":
      if (typeof v === "string") return v;
      if (typeof v === "number" || typeof v === "bigint" || typeof v === "boolean") {
        return String(v);
      }
      throw new ValueError(path, `a string is required, not ${describe(v)}`);
    case "bool":
      if (typeof v === "boolean") return v;
      if (v === "true" || v === "false") return v === "true";
      throw new ValueError(path, `a bool is required, not ${describe(v)}`);
    case "number": {
      let n: unknown = v;
      if (typeof v === "string") {
        n = parseNumber(v);
        if (n === undefined) throw new ValueError(path, `a number is required, not ${describe(v)}`);
      }
      if (typeof n === "bigint") {
        if (n >= INT64_MIN && n <= UINT64_MAX) return n;
        return n.toString();
      }
      if (typeof n === "number") {
        if (Number.isNaN(n)) throw new ValueError(path, "a number is required, not NaN");
        return n;
      }
      throw new ValueError(path, `a number is required, not ${describe(v)}`);
    }
  }
}

// --- Decoding --------------------------------------------------------------------

function refinementsOf(ext: ExtData, type: CtyType, path: PathStep[]): Unknown {
  const data = typeof ext.data === "function" ? ext.data(0) : ext.data;
  if (data.length <= 1 || type === "dynamic") return UNKNOWN;
  if (ext.type !== 12) {
    throw new ValueError(path, `unsupported msgpack extension ${ext.type} of ${data.length} bytes`);
  }
  if (data.length > 1024) throw new ValueError(path, "oversize unknown value refinement");
  let map: unknown;
  try {
    map = mpDecode(data, { useBigInt64: true });
  } catch {
    throw new ValueError(path, "unknown value refinements are not valid msgpack");
  }
  if (!isRecord(map)) throw new ValueError(path, "unknown value refinements are not a map");
  const r: Refinements = {};
  for (const [key, val] of Object.entries(map)) {
    switch (Number(key)) {
      case 1:
        if (val === false) r.notNull = true;
        break;
      case 2:
        if (typeof val === "string") r.stringPrefix = val;
        break;
      case 3:
      case 4: {
        if (!Array.isArray(val) || val.length !== 2) break;
        const n = fromWire(val[0], "number", path);
        const bound = { value: Number(n), inclusive: val[1] === true };
        if (Number(key) === 3) r.numberMin = bound;
        else r.numberMax = bound;
        break;
      }
      case 5:
        r.lengthMin = Number(val);
        break;
      case 6:
        r.lengthMax = Number(val);
        break;
        // Keys not known yet are skipped, as cty does.
    }
  }
  return new Unknown(r);
}

function fromWire(raw: unknown, type: CtyType, path: PathStep[]): Value {
  if (raw instanceof ExtData) return refinementsOf(raw, type, path);
  if (type === "dynamic") {
    if (raw === null) return null;
    if (!Array.isArray(raw) || raw.length !== 2) {
      throw new ValueError(path, "a dynamic value is [type, value]");
    }
    const [tj, inner] = raw;
    const text = tj instanceof Uint8Array
      ? dec.decode(tj)
      : typeof tj === "string"
      ? tj
      : undefined;
    if (text === undefined) throw new ValueError(path, "a dynamic value's type is not JSON");
    let t: CtyType;
    try {
      t = parseTypeJSON(text, path);
    } catch (e) {
      if (e instanceof ValueError) throw e;
      throw new ValueError(path, `a dynamic value's type is not JSON: ${text.slice(0, 80)}`);
    }
    return new Typed(t, fromWire(inner, t, path));
  }
  if (raw === null) return null;
  if (typeof type === "string") {
    switch (type) {
      case "string":
        if (typeof raw === "string") return raw;
        throw new ValueError(path, `a string is required, not ${describe(raw)}`);
      case "bool":
        if (typeof raw === "boolean") return raw;
        throw new ValueError(path, `a bool is required, not ${describe(raw)}`);
      case "number":
        if (typeof raw === "number") return raw;
        if (typeof raw === "bigint") return normalizeInt(raw);
        if (typeof raw === "string") {
          const n = parseNumber(raw);
          if (n !== undefined) return n;
        }
        throw new ValueError(path, `a number is required, not ${describe(raw)}`);
    }
  }
  switch (type[0]) {
    case "list":
    case "set":
      if (!Array.isArray(raw)) {
        throw new ValueError(path, `a ${type[0]} is required, not ${describe(raw)}`);
      }
      return raw.map((x, i) => fromWire(x, type[1], [...path, { index: i }]));
    case "tuple":
      if (!Array.isArray(raw) || (raw.length !== type[1].length && raw.length !== 0)) {
        throw new ValueError(path, `a tuple of ${type[1].length} elements is required`);
      }
      return raw.map((x, i) => fromWire(x, type[1][i], [...path, { index: i }]));
    case "map": {
      if (!isRecord(raw)) throw new ValueError(path, `a map is required, not ${describe(raw)}`);
      const out: Record<string, Value> = {};
      for (const [k, x] of Object.entries(raw)) {
        out[k] = fromWire(x, type[1], [...path, { key: k }]);
      }
      return out;
    }
    case "object": {
      if (!isRecord(raw)) throw new ValueError(path, `an object is required, not ${describe(raw)}`);
      const attrs = type[1];
      const out: Record<string, Value> = {};
      for (const k of Object.keys(raw)) {
        if (!(k in attrs)) throw new ValueError([...path, { name: k }], "unsupported attribute");
      }
      for (const [k, t] of Object.entries(attrs)) {
        out[k] = k in raw ? fromWire(raw[k], t, [...path, { name: k }]) : null;
      }
      return out;
    }
  }
}

function parseTypeJSON(text: string, path: PathStep[]): CtyType {
  return parseType(JSON.parse(text), path);
}
