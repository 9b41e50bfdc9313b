/**
 * Redacting sensitive values before they reach the transaction log.
 *
 * A sensitive value is replaced by a {@linkcode SensitiveMarker}: an
 * HMAC-SHA256 of the value's canonical JSON under a key that the store keeps
 * (made at random when the state is created). Two markers are equal exactly
 * when the values were, so the log still shows whether a secret changed; the
 * value itself cannot be read back, nor found by trying candidates without
 * the key.
 *
 * @module
 */

import { cryptoModules } from "../keys/lazy.ts";
import type { AttrPath } from "./paths.ts";
import { sortKeys } from "../json.ts";

/**
 * The marker that stands in the log for a sensitive value: an HMAC-SHA256 of
 * the value under a key kept in the store, so that one can see whether a
 * value changed without the value being readable (nor guessable by trying
 * values, for someone who has the log but not the store).
 */
export interface SensitiveMarker {
  $sensitive: string;
}

/** A new random key for {@linkcode redact}, as hex. */
export function newRedactionKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** JSON with object keys sorted at every level: one text per value. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

/**
 * The marker that stands for `value` under `key`; the store has loaded
 * pravo's cryptography first (lib/keys/lazy.ts).
 */
export function sensitiveMarker(value: unknown, key: string): SensitiveMarker {
  const mac = cryptoModules().crypto.createHmac("sha256", key).update(canonicalJson(value)).digest(
    "hex",
  );
  return { $sensitive: `hmac-sha256:${mac.slice(0, 32)}` };
}

/** True when `v` is a marker left by {@linkcode redact}. */
export function isSensitiveMarker(v: unknown): v is SensitiveMarker {
  return v !== null && typeof v === "object" && !Array.isArray(v) &&
    Object.keys(v).length === 1 && typeof (v as SensitiveMarker).$sensitive === "string";
}

/**
 * A copy of `attrs` with the value at each of `paths` replaced by its marker.
 * Paths that do not exist in `attrs` are skipped; `null` stays `null`.
 */
export function redact(
  attrs: Record<string, unknown> | null,
  paths: readonly AttrPath[],
  key: string,
): Record<string, unknown> | null {
  if (attrs === null) return null;
  if (paths.some((p) => p.length === 0)) {
    return sensitiveMarker(attrs, key) as unknown as Record<string, unknown>;
  }
  const copy = structuredClone(attrs);
  for (const path of paths) {
    let parent: unknown = copy;
    for (let i = 0; i < path.length - 1 && parent !== undefined; i++) {
      parent = step(parent, path[i]);
    }
    const last = path[path.length - 1];
    if (parent === null || typeof parent !== "object") continue;
    const container = parent as Record<string | number, unknown>;
    if (!(last in container)) continue;
    const v = container[last];
    if (v === null || isSensitiveMarker(v)) continue;
    container[last] = sensitiveMarker(v, key);
  }
  return copy;
}

function step(v: unknown, k: string | number): unknown {
  if (v === null || typeof v !== "object") return undefined;
  return (v as Record<string | number, unknown>)[k];
}

/** The union of lists of paths, without duplicates. */
export function unionPaths(...lists: readonly (readonly AttrPath[] | undefined)[]): AttrPath[] {
  const seen = new Map<string, AttrPath>();
  for (const list of lists) {
    for (const p of list ?? []) seen.set(JSON.stringify(p), p);
  }
  return [...seen.values()];
}
