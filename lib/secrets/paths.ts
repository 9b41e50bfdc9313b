/**
 * Which values of a record are secret, and how they are hidden: the
 * sensitive paths (those a record names and those its type's schema marks),
 * the secret strings they hold, and redaction, which replaces each with
 * `"(sensitive)"` and traces a secret into every other string that holds it.
 * Every document and view redacts through here; sealing at rest is in
 * seal.ts, the markers of redacted log values in redact.ts.
 *
 * Nothing here loads cue-wasm.
 *
 * @module
 */

import type { Diagnostic } from "../diag/diag.ts";
import type { TypeLookup } from "../providers/registry.ts";
import type { Mode } from "../providers/schema.ts";

/**
 * A path to an attribute inside a record's attributes: object keys and list
 * indexes. `["result"]`, `["tags", "owner"]`, `["rules", 0, "secret"]`. The
 * empty path means the whole attributes object.
 */
export type AttrPath = (string | number)[];

/** What the secrets of a record depend on: its type and the paths it names. */
export interface SecretRecord {
  provider: string;
  type: string;
  mode: Mode;
  /** The paths the record itself names sensitive. */
  sensitivePaths?: AttrPath[];
  attributes: Record<string, unknown>;
}

/**
 * What stands for a sensitive value: the same text as `REDACTED` of the plan
 * document (lib/plan/document.ts).
 */
export const REDACTED = "(sensitive)";

/**
 * What the human views print for a sensitive value, as Terraform's plan
 * does: JSON documents carry the string `REDACTED`, and every human view
 * (plan, apply, output, state show, import, drift) prints this instead.
 */
export const SENSITIVE_TEXT = "(sensitive value)";

/** A path written with dots: `["rules", 0, "secret"]` → `rules.0.secret`. */
export function pathText(path: AttrPath): string {
  return path.length === 0 ? "(all attributes)" : path.map(String).join(".");
}

/**
 * The sensitive paths of a record: those it names, and the attributes its
 * type's schema marks sensitive (so that a record written without them is
 * still redacted). `types` looks the type up: the workspace's registry's
 * `findType`, given by the caller.
 */
export function sensitivePathsOf(
  rec: Pick<SecretRecord, "provider" | "type" | "mode" | "sensitivePaths">,
  types: TypeLookup,
): AttrPath[] {
  const seen = new Map<string, AttrPath>();
  for (const p of rec.sensitivePaths ?? []) seen.set(JSON.stringify(p), p);
  const type = types(rec.provider, rec.mode, rec.type);
  for (const [k, a] of Object.entries(type?.attributes ?? {})) {
    if (a.sensitive) seen.set(JSON.stringify([k]), [k]);
  }
  return [...seen.values()];
}

function at(v: unknown, path: AttrPath): unknown {
  let cur = v;
  for (const k of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string | number, unknown>)[k];
  }
  return cur;
}

function strings(v: unknown, out: Set<string>): void {
  if (typeof v === "string") {
    if (v !== "" && v !== REDACTED) out.add(v);
  } else if (Array.isArray(v)) v.forEach((x) => strings(x, out));
  else if (v !== null && typeof v === "object") Object.values(v).forEach((x) => strings(x, out));
}

/** Every string value held at a sensitive path of any of the records. */
export function sensitiveStrings(
  records: readonly SecretRecord[],
  types: TypeLookup,
): Set<string> {
  const out = new Set<string>();
  for (const rec of records) {
    for (const p of sensitivePathsOf(rec, types)) strings(at(rec.attributes, p), out);
  }
  return out;
}

/**
 * A copy of `attrs` with the value at each of `paths` replaced by
 * `"(sensitive)"`, and every other string that contains one of `secrets`
 * too. `null` stays `null`: a value that is not set reveals nothing.
 */
export function redactAttributes(
  attrs: Record<string, unknown>,
  paths: readonly AttrPath[],
  secrets: ReadonlySet<string>,
): Record<string, unknown> {
  if (paths.some((p) => p.length === 0)) return { [REDACTED]: REDACTED };
  const copy = structuredClone(attrs);
  for (const path of paths) {
    const parent = at(copy, path.slice(0, -1));
    const last = path[path.length - 1];
    if (parent === null || typeof parent !== "object") continue;
    const container = parent as Record<string | number, unknown>;
    if (!(last in container) || container[last] === null) continue;
    container[last] = REDACTED;
  }
  return traceSecrets(copy, secrets) as Record<string, unknown>;
}

/** `v` with every string that contains one of `secrets` replaced by `"(sensitive)"`. */
export function traceSecrets(v: unknown, secrets: ReadonlySet<string>): unknown {
  if (secrets.size === 0) return v;
  if (typeof v === "string") {
    for (const s of secrets) if (v.includes(s)) return REDACTED;
    return v;
  }
  if (Array.isArray(v)) return v.map((x) => traceSecrets(x, secrets));
  if (v !== null && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, traceSecrets(x, secrets)]));
  }
  return v;
}

/**
 * A copy of `attrs` with each attribute named in `sensitive` (and set)
 * replaced by `"(sensitive)"`: a planned node's values in the plan document.
 */
export function redactNames(
  attrs: Record<string, unknown> | null,
  sensitive: readonly string[],
): Record<string, unknown> | null {
  if (!attrs) return attrs;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(attrs)) {
    out[k] = sensitive.includes(k) && v !== null ? REDACTED : v;
  }
  return out;
}

/** The string values of the sensitive attributes of planned nodes, before, after and as configured. */
export function sensitiveValues(
  nodes: readonly {
    sensitive: readonly string[];
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
    config: Record<string, unknown>;
  }[],
): Set<string> {
  const out = new Set<string>();
  for (const n of nodes) {
    for (const k of n.sensitive) {
      for (const v of [n.before?.[k], n.after?.[k], n.config[k]]) {
        if (typeof v === "string" && v.length > 0) out.add(v);
      }
    }
  }
  return out;
}

/**
 * Outputs that hold a sensitive value (the value itself, or a string that
 * contains it) are redacted: a value is traced, not declared.
 */
export function redactOutputs(
  outputs: Record<string, unknown>,
  sensitive: ReadonlySet<string>,
): Record<string, unknown> {
  const leaks = (v: unknown): boolean => {
    if (typeof v === "string") return [...sensitive].some((s) => v.includes(s));
    if (Array.isArray(v)) return v.some(leaks);
    if (v && typeof v === "object") return Object.values(v).some(leaks);
    return false;
  };
  return Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, leaks(v) ? REDACTED : v]));
}

/**
 * Diagnostics with every occurrence of a sensitive string replaced by
 * `(sensitive)`: a provider's message may quote the configuration it was
 * given (a file name computed from a secret). Strings shorter than 4
 * characters are left, as they would garble every message.
 */
export function scrubDiagnostics(diags: Diagnostic[], values: Iterable<unknown>): Diagnostic[] {
  const secrets = new Set<string>();
  const collect = (v: unknown): void => {
    if (typeof v === "string") {
      if (v.length >= 4) secrets.add(v);
    } else if (Array.isArray(v)) v.forEach(collect);
    else if (v !== null && typeof v === "object") Object.values(v).forEach(collect);
  };
  for (const v of values) collect(v);
  if (secrets.size === 0) return diags;
  const longest = [...secrets].sort((a, b) => b.length - a.length);
  const scrub = (t: string) => longest.reduce((acc, x) => acc.split(x).join(REDACTED), t);
  return diags.map((d) => ({ ...d, summary: scrub(d.summary), detail: scrub(d.detail) }));
}
