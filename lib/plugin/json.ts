/**
 * `DynamicValue` in JSON, typed (cty's JSON encoding), for what travels as
 * JSON: the raw state sent to UpgradeResourceState and MoveResourceState,
 * and a response a provider answers in JSON instead of msgpack.
 *
 * A `"dynamic"` value is `{"value": ..., "type": ...}`, which is also what a
 * {@link Typed} value writes with `JSON.stringify`; JSON has no unknowns.
 *
 * @module
 */

import { parseNumber } from "./msgpack.ts";
import {
  type CtyType,
  parseType,
  type PathStep,
  stringifyValue,
  Typed,
  type Value,
  ValueError,
} from "./value.ts";

/** A stored state (known values) as JSON bytes. */
export function encodeJSON(value: Value): Uint8Array {
  return new TextEncoder().encode(stringifyValue(value));
}

/** JSON text or bytes as a value of a type. */
export function decodeJSON(json: string | Uint8Array, type: CtyType): Value {
  const text = typeof json === "string" ? json : new TextDecoder().decode(json);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ValueError([], "not valid JSON");
  }
  return fromJSON(raw, type, []);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function fromJSON(raw: unknown, type: CtyType, path: PathStep[]): Value {
  if (raw === null || raw === undefined) return null;
  if (type === "dynamic") {
    if (!isRecord(raw) || !("type" in raw)) {
      throw new ValueError(path, 'a dynamic value is {"value": ..., "type": ...}');
    }
    const t = parseType(raw.type, path);
    return new Typed(t, fromJSON(raw.value, t, path));
  }
  if (typeof type === "string") {
    switch (type) {
      case "string":
        if (typeof raw === "string") return raw;
        break;
      case "bool":
        if (typeof raw === "boolean") return raw;
        break;
      case "number":
        if (typeof raw === "number") return raw;
        if (typeof raw === "string") {
          const n = parseNumber(raw);
          if (n !== undefined) return n;
        }
        break;
    }
    throw new ValueError(path, `a ${type} is required`);
  }
  switch (type[0]) {
    case "list":
    case "set":
    case "tuple": {
      if (!Array.isArray(raw)) throw new ValueError(path, `a ${type[0]} is required`);
      if (type[0] === "tuple" && raw.length !== type[1].length) {
        throw new ValueError(path, `a tuple of ${type[1].length} elements is required`);
      }
      return raw.map((x, i) =>
        fromJSON(x, type[0] === "tuple" ? type[1][i] : type[1], [...path, { index: i }])
      );
    }
    case "map": {
      if (!isRecord(raw)) throw new ValueError(path, "a map is required");
      const out: Record<string, Value> = {};
      for (const [k, x] of Object.entries(raw)) {
        out[k] = fromJSON(x, type[1], [...path, { key: k }]);
      }
      return out;
    }
    case "object": {
      if (!isRecord(raw)) throw new ValueError(path, "an object is required");
      const out: Record<string, Value> = {};
      for (const k of Object.keys(raw)) {
        if (!(k in type[1])) throw new ValueError([...path, { name: k }], "unsupported attribute");
      }
      for (const [k, t] of Object.entries(type[1])) {
        out[k] = fromJSON(raw[k], t, [...path, { name: k }]);
      }
      return out;
    }
  }
}
