/**
 * JSON with keys sorted at every level: the form of every document pravo
 * prints and of every value it compares or hashes as text.
 *
 * @module
 */

/**
 * JSON with keys sorted at every level and two-space indentation: the one
 * document that `--json` prints.
 */
export function stableJson(value: unknown): string {
  return JSON.stringify(sortKeys(value), null, 2);
}

/** A copy of a JSON value with object keys sorted. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value as object).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = sortKeys(v);
    }
    return out;
  }
  return value;
}
