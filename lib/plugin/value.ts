/**
 * Values as providers see them: Terraform's type system (cty) in TypeScript.
 *
 * A type is its JSON type expression, checked: `"string"`, `"number"`,
 * `"bool"`, `"dynamic"`, `["list", T]`, `["set", T]`, `["map", T]`,
 * `["tuple", [T...]]`, `["object", {name: T}]` and `["object", {name: T},
 * ["optional", ...]]`. A value is plain data: `null`, booleans, numbers
 * (`bigint` for integers beyond 2^53), strings, arrays (lists, sets and
 * tuples), plain objects (maps and objects), and two classes:
 *
 * - {@link Unknown}: a value known only after apply, with the refinements a
 *   provider may attach (not null, a string prefix, number or length bounds);
 * - {@link Typed}: a value of a `"dynamic"` attribute with the type it came
 *   with, so that it goes back to the provider exactly as it came. Its JSON
 *   form is Terraform's state form `{"value": ..., "type": ...}`.
 *
 * @module
 */

import type { AttributeStep } from "../diag/diag.ts";

/** A cty type as its JSON type expression. */
export type CtyType =
  | "string"
  | "number"
  | "bool"
  | "dynamic"
  | ["list", CtyType]
  | ["set", CtyType]
  | ["map", CtyType]
  | ["tuple", CtyType[]]
  | ["object", Record<string, CtyType>]
  | ["object", Record<string, CtyType>, string[]];

/** What a provider says it knows of an unknown value. */
export interface Refinements {
  /** true: certainly not null. */
  notNull?: boolean;
  /** A string: it starts with this. */
  stringPrefix?: string;
  /** A number: its lower bound, and whether the bound is included. */
  numberMin?: { value: number; inclusive: boolean };
  numberMax?: { value: number; inclusive: boolean };
  /** A collection: bounds of its length. */
  lengthMin?: number;
  lengthMax?: number;
}

/** A value known only after apply. */
export class Unknown {
  readonly refinements?: Refinements;
  constructor(refinements?: Refinements) {
    if (refinements && Object.keys(refinements).length) this.refinements = refinements;
  }
  /** Unknowns never reach JSON: this marks them if one slips through. */
  toJSON(): string {
    return "(known after apply)";
  }
}

/** The unknown value without refinements. */
export const UNKNOWN: Unknown = new Unknown();

/** True for a value known only after apply. */
export function isUnknown(v: unknown): v is Unknown {
  return v instanceof Unknown;
}

/** A value of a `"dynamic"` attribute, with its type. */
export class Typed {
  constructor(readonly type: CtyType, readonly value: Value) {}
  /** Terraform's JSON form of a dynamic value. */
  toJSON(): { value: Value; type: CtyType } {
    return { value: this.value, type: this.type };
  }
}

/** A value of some cty type. */
export type Value =
  | null
  | boolean
  | number
  | bigint
  | string
  | Unknown
  | Typed
  | Value[]
  | { [name: string]: Value };

/** A step into a value: an attribute, a map key, a list or set index. */
export type PathStep = AttributeStep;

/** `versioning[0].enabled`, `tags["Name"]`: a path as Terraform writes it. */
export function formatPath(path: readonly PathStep[]): string {
  let out = "";
  for (const s of path) {
    if ("name" in s) out += out ? `.${s.name}` : s.name;
    else if ("key" in s) out += `[${JSON.stringify(s.key)}]`;
    else out += `[${s.index}]`;
  }
  return out;
}

/** A value that does not fit its type, with where. */
export class ValueError extends Error {
  readonly path: PathStep[];
  constructor(path: readonly PathStep[], message: string) {
    super(path.length ? `${formatPath(path)}: ${message}` : message);
    this.name = "ValueError";
    this.path = [...path];
  }
}

const PRIMITIVES = new Set(["string", "number", "bool", "dynamic"]);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Checks a JSON type expression (already parsed from JSON) and returns it as
 * a {@link CtyType}; throws a {@link ValueError} naming what is wrong.
 */
export function parseType(json: unknown, path: PathStep[] = []): CtyType {
  if (typeof json === "string") {
    if (PRIMITIVES.has(json)) return json as CtyType;
    throw new ValueError(path, `unknown type "${json}"`);
  }
  if (!Array.isArray(json) || typeof json[0] !== "string") {
    throw new ValueError(path, `a type is a string or an array, not ${JSON.stringify(json)}`);
  }
  const [kind, arg, optional] = json;
  switch (kind) {
    case "list":
    case "set":
    case "map":
      if (json.length !== 2) throw new ValueError(path, `a ${kind} type has one element type`);
      return [kind, parseType(arg, path)];
    case "tuple":
      if (json.length !== 2 || !Array.isArray(arg)) {
        throw new ValueError(path, "a tuple type has a list of element types");
      }
      return ["tuple", arg.map((t, i) => parseType(t, [...path, { index: i }]))];
    case "object": {
      if (!isRecord(arg) || json.length > 3) {
        throw new ValueError(path, "an object type has an object of attribute types");
      }
      const attrs: Record<string, CtyType> = {};
      for (const [k, t] of Object.entries(arg)) attrs[k] = parseType(t, [...path, { name: k }]);
      if (json.length === 3) {
        if (
          !Array.isArray(optional) || optional.some((o) => typeof o !== "string" || !(o in attrs))
        ) {
          throw new ValueError(path, "an object type's optional attributes are some of its names");
        }
        return ["object", attrs, optional as string[]];
      }
      return ["object", attrs];
    }
    default:
      throw new ValueError(path, `unknown type "${kind}"`);
  }
}

/** `list(string)`, `object({a = number})`: a type as Terraform writes it. */
export function typeName(t: CtyType): string {
  if (typeof t === "string") return t;
  switch (t[0]) {
    case "list":
    case "set":
    case "map":
      return `${t[0]}(${typeName(t[1])})`;
    case "tuple":
      return `tuple([${t[1].map(typeName).join(", ")}])`;
    case "object":
      return `object({${
        Object.entries(t[1]).map(([k, v]) => `${k} = ${typeName(v)}`).join(", ")
      }})`;
  }
}

/**
 * The type of a plain value, as Terraform infers it for a dynamic attribute:
 * strings, numbers and bools; arrays as tuples; objects as objects. A
 * {@link Typed} value has its own type; null and unknown are `"dynamic"`.
 */
export function inferType(v: Value): CtyType {
  if (v === null || v instanceof Unknown) return "dynamic";
  if (v instanceof Typed) return v.type;
  if (typeof v === "string") return "string";
  if (typeof v === "number" || typeof v === "bigint") return "number";
  if (typeof v === "boolean") return "bool";
  if (Array.isArray(v)) return ["tuple", v.map(inferType)];
  const attrs: Record<string, CtyType> = {};
  for (const [k, x] of Object.entries(v)) attrs[k] = inferType(x);
  return ["object", attrs];
}

/** True when the value holds no unknown anywhere. */
export function isWhollyKnown(v: Value): boolean {
  if (v instanceof Unknown) return false;
  if (v instanceof Typed) return isWhollyKnown(v.value);
  if (Array.isArray(v)) return v.every(isWhollyKnown);
  if (isRecord(v)) return Object.values(v as Record<string, Value>).every(isWhollyKnown);
  return true;
}

/**
 * The paths of every unknown in a value, in order: what a plan shows as
 * `(known after apply)`.
 */
export function unknownPaths(v: Value, path: PathStep[] = []): PathStep[][] {
  if (v instanceof Unknown) return [path];
  if (v instanceof Typed) return unknownPaths(v.value, path);
  if (Array.isArray(v)) return v.flatMap((x, i) => unknownPaths(x, [...path, { index: i }]));
  if (isRecord(v)) {
    return Object.entries(v as Record<string, Value>).flatMap(([k, x]) =>
      unknownPaths(x, [...path, { name: k }])
    );
  }
  return [];
}

/** JSON text of a value, `bigint`s written as plain integers. */
export function stringifyValue(v: Value): string {
  const marks: string[] = [];
  const nonce = crypto.randomUUID().replaceAll("-", "");
  const text = JSON.stringify(v, (_k, x) => {
    if (typeof x === "bigint") {
      marks.push(x.toString());
      return `${nonce}:${marks.length - 1}`;
    }
    return x;
  });
  if (!marks.length) return text;
  return text.replace(new RegExp(`"${nonce}:(\\d+)"`, "g"), (_m, i) => marks[Number(i)]);
}
