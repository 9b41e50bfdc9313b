/**
 * cue-wasm, loaded on first use. Loading costs ~0.7 s and ~200 MB, so only
 * commands that evaluate CUE call `evaluate`; and an evaluation whose source
 * was evaluated before in the same root is answered from a cache under
 * `.pravo/cache/` without loading cue-wasm at all (the source holds every
 * input: the files, the tags, the values known from the state).
 *
 * @module
 */

import { createHash } from "node:crypto";
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";

interface CueApi {
  toJSON(src: string): string;
}

let api: Promise<CueApi> | undefined;

async function load(): Promise<CueApi> {
  const CUE = await import("cue-wasm");
  return (await CUE.init()) as CueApi;
}

/** The outcome of one evaluation: the JSON text, or CUE's error message. */
export type EvalResult = { ok: true; json: string } | { ok: false; message: string };

/** How many cached evaluations a root keeps; the oldest go first. */
export const CACHE_ENTRIES = 32;

/** Counts of this process's evaluations, for benchmarks and tests. */
export const stats = { evaluated: 0, cached: 0 };

/** True once cue-wasm has been loaded in this process. */
export function loaded(): boolean {
  return api !== undefined;
}

/**
 * Evaluates one CUE source and exports it as JSON. With `cacheDir`, a
 * result is read from and written to that directory, keyed by the source's
 * SHA-256.
 */
export async function evaluate(src: string, opts: { cacheDir?: string } = {}): Promise<EvalResult> {
  const key = opts.cacheDir ? createHash("sha256").update(src).digest("hex") : "";
  const file = opts.cacheDir ? join(opts.cacheDir, `eval-${key}.json`) : "";
  if (file) {
    try {
      const hit = JSON.parse(readFileSync(file, "utf8")) as EvalResult;
      stats.cached++;
      return hit;
    } catch {
      // not cached, or unreadable: evaluate
    }
  }
  api ??= load();
  const cue = await api;
  stats.evaluated++;
  let result: EvalResult;
  try {
    result = { ok: true, json: cue.toJSON(src) };
  } catch (e) {
    result = { ok: false, message: typeof e === "string" ? e : String((e as Error)?.message ?? e) };
  }
  if (file) store(opts.cacheDir!, file, result);
  return result;
}

function store(dir: string, file: string, result: EvalResult): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = `${file}.${Deno.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(result), { mode: 0o600 });
    renameSync(tmp, file);
    const entries = readdirSync(dir).filter((n) => n.startsWith("eval-") && n.endsWith(".json"));
    if (entries.length > CACHE_ENTRIES) {
      const byAge = entries.map((n) => ({ n, t: statSync(join(dir, n)).mtimeMs })).sort((a, b) =>
        a.t - b.t
      );
      for (const { n } of byAge.slice(0, entries.length - CACHE_ENTRIES)) unlinkSync(join(dir, n));
    }
  } catch {
    // A cache that cannot be written only costs time.
  }
}
