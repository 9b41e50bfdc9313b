/**
 * Values as Terraform's JSON plan writes them, from what a pravo plan holds:
 * the known part of a value (what only apply will know is left out of an
 * object, and `null` in a list), `after_unknown` (`true` where a value is
 * known only after apply), and the `*_sensitive` marks (`true` where a value
 * is sensitive; the shape of a value elsewhere, `[]` for a list and `{}` for
 * a map or object, so that a reader can walk both together).
 *
 * Unlike Terraform, a sensitive value is never written: it is left out (an
 * attribute of an object) or `null` (an element of a list), and marked.
 *
 * @module
 */

import { isObject, type Path, type PathStep, type TfType, typeAt } from "./plan_json_types.ts";

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/**
 * A path as pravo's plan writes it (`versioning[0].mfa_delete`,
 * `tags["Name"]`, `arn`) as steps.
 */
export function parsePath(text: string): Path {
  const out: Path = [];
  const re = /(?:^|\.)([^.[\]"]+)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;
  let at = 0;
  while (at < text.length) {
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) return [...out, text.slice(at)];
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(Number(m[2]));
    else out.push(JSON.parse(m[3]) as string);
    at = re.lastIndex;
  }
  return out;
}

/** A set of paths, looked up by the path. */
export class PathSet {
  readonly #keys = new Set<string>();
  readonly #prefixes = new Set<string>();
  constructor(paths: Iterable<Path> = []) {
    for (const p of paths) this.add(p);
  }
  add(p: Path): void {
    this.#keys.add(JSON.stringify(p));
    for (let i = 0; i < p.length; i++) this.#prefixes.add(JSON.stringify(p.slice(0, i)));
  }
  /** True when the path itself is in the set. */
  has(p: Path): boolean {
    return this.#keys.has(JSON.stringify(p));
  }
  /** True when some path of the set lies strictly under this one. */
  below(p: Path): boolean {
    return this.#prefixes.has(JSON.stringify(p));
  }
  /** The next steps under `p` of the set's paths. */
  stepsUnder(p: Path, all: Iterable<Path>): PathStep[] {
    const out: PathStep[] = [];
    const key = JSON.stringify(p);
    for (const q of all) {
      if (q.length > p.length && JSON.stringify(q.slice(0, p.length)) === key) {
        out.push(q[p.length]);
      }
    }
    return out;
  }
}

/**
 * A copy of `value` without what is at `paths`: an attribute or a map's
 * entry is left out, an element of a list becomes `null`. A `null` stays
 * (a value that is not set reveals nothing), unless `nulls` says to leave
 * those out too (the places known only after apply). A path that is empty
 * leaves out everything: the result is undefined.
 */
export function without(value: unknown, paths: readonly Path[], nulls = false): unknown {
  if (paths.some((p) => p.length === 0)) return undefined;
  const set = new PathSet(paths);
  const drop = (v: unknown, at: Path) => set.has(at) && (nulls || v !== null);
  const walk = (v: unknown, at: Path): unknown => {
    if (!set.below(at)) return v;
    if (Array.isArray(v)) {
      return v.map((e, i) => drop(e, [...at, i]) ? null : walk(e, [...at, i]));
    }
    if (isObject(v)) {
      const out: Record<string, unknown> = {};
      for (const [k, e] of Object.entries(v)) {
        if (!drop(e, [...at, k])) out[k] = walk(e, [...at, k]);
      }
      return out;
    }
    return v;
  };
  return walk(value, []);
}

/**
 * `after_unknown`: `{}` when everything is known; otherwise the value's
 * shape with `true` at each unknown place and known leaves left out of
 * objects (Terraform's `unknownAsBool`). `known` holds the known part, with
 * the unknown places absent or null.
 */
export function unknownAsBool(known: unknown, unknown: readonly Path[]): Json {
  if (unknown.length === 0) return {};
  const set = new PathSet(unknown);
  const all = [...unknown];
  const walk = (v: unknown, at: Path): Json => {
    if (set.has(at)) return true;
    if (Array.isArray(v)) return v.map((e, i) => walk(e, [...at, i]));
    if (isObject(v) || (v == null && set.below(at))) {
      const obj = isObject(v) ? v : {};
      const out: Record<string, Json> = {};
      const keys = new Set([...Object.keys(obj), ...set.stepsUnder(at, all).map(String)]);
      for (const k of keys) {
        const r = walk(obj[k], [...at, k]);
        if (r !== false) out[k] = r;
      }
      return out;
    }
    return false;
  };
  return walk(known, []);
}

/**
 * `before_sensitive` / `after_sensitive`: `true` at each sensitive place;
 * elsewhere the value's shape (Terraform's `SensitiveAsBool`): `false` for a
 * leaf or a null (left out of objects), a list of the elements' marks, an
 * object of the attributes' marks. A place known only after apply
 * (`unknown`) has the shape of its type: `[]` for a list, `{}` for a map or
 * object, `false` otherwise.
 */
export function sensitiveAsBool(
  value: unknown,
  opts: { sensitive: readonly Path[]; unknown?: readonly Path[]; type?: TfType },
): Json {
  const marks = new PathSet(opts.sensitive);
  const unknown = new PathSet(opts.unknown ?? []);
  const extra = [...opts.sensitive, ...(opts.unknown ?? [])];
  const walk = (v: unknown, at: Path): Json => {
    if (marks.has(at)) return true;
    if (unknown.has(at)) {
      const t = typeAt(opts.type, at);
      if (t?.kind === "list" || t?.kind === "tuple") return [];
      if (t?.kind === "map" || t?.kind === "object") return {};
      return false;
    }
    if (Array.isArray(v)) return v.map((e, i) => walk(e, [...at, i]));
    if (isObject(v)) {
      const out: Record<string, Json> = {};
      const keys = new Set([...Object.keys(v), ...marks.stepsUnder(at, extra).map(String)]);
      for (const k of keys) {
        const r = walk(v[k], [...at, k]);
        if (r !== false) out[k] = r;
      }
      return out;
    }
    return false;
  };
  return walk(value, []);
}

/**
 * The paths of every string in `value` that holds one of `secrets`: a value
 * computed from a secret is hidden as the secret is (as pravo's state views
 * trace them).
 */
export function secretPaths(value: unknown, secrets: ReadonlySet<string>): Path[] {
  const out: Path[] = [];
  if (secrets.size === 0) return out;
  const walk = (v: unknown, at: Path) => {
    if (typeof v === "string") {
      for (const s of secrets) {
        if (v.includes(s)) {
          out.push(at);
          return;
        }
      }
    } else if (Array.isArray(v)) v.forEach((e, i) => walk(e, [...at, i]));
    else if (isObject(v)) { for (const [k, e] of Object.entries(v)) walk(e, [...at, k]); }
  };
  walk(value, []);
  return out;
}

/** The string values at `paths` of `value`, for tracing: what must not be written anywhere. */
export function stringsAt(value: unknown, paths: readonly Path[], out: Set<string>): void {
  const collect = (v: unknown) => {
    if (typeof v === "string") {
      if (v !== "") out.add(v);
    } else if (Array.isArray(v)) v.forEach(collect);
    else if (isObject(v)) Object.values(v).forEach(collect);
  };
  for (const p of paths) {
    let cur: unknown = value;
    for (const s of p) cur = Array.isArray(cur) || isObject(cur) ? (cur as never)[s] : undefined;
    collect(cur);
  }
}

/**
 * `value` with the attributes of its type `t` that it lacks, `null`, as
 * Terraform writes every attribute of a type (a built-in provider's values
 * leave the unset ones out). Those known only after apply (`unknown`,
 * top-level names) stay out.
 */
export function withUnset(
  value: Record<string, unknown>,
  t: TfType | undefined,
  unknown: readonly string[] = [],
): Record<string, unknown> {
  if (t?.kind !== "object") return value;
  const out = { ...value };
  for (const k of Object.keys(t.attrs)) {
    if (!(k in out) && !unknown.includes(k)) out[k] = null;
  }
  return out;
}
