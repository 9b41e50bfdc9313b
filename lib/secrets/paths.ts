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
