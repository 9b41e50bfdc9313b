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
import { DiagnosticsError, error } from "../diag/diag.ts";
import { Exit } from "../cli/exit.ts";

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
  // The Go runtime inside cue-wasm writes through console.log (and its exit
  // code through console.warn): a crash dump would land on standard output
  // (a --json document, the MCP channel). What it writes is kept for the
  // diagnostic instead.
  const written: string[] = [];
  const { log, warn } = console;
  console.log = console.warn = (...args: unknown[]) =>
    void written.push(args.map(String).join(" "));
  try {
    result = { ok: true, json: cue.toJSON(src) };
  } catch (e) {
    // CUE's own errors are thrown as strings; anything else is the engine failing.
    if (typeof e !== "string") {
      api = undefined; // the Go runtime may be dead: a later evaluation loads it again
      throw exhausted(String((e as Error)?.message ?? e), written);
    }
    result = { ok: false, message: e };
  } finally {
    console.log = log;
    console.warn = warn;
  }
  if (file) store(opts.cacheDir!, file, result);
  return result;
}

/**
 * The error for an evaluation that cue-wasm could not finish: its Go runtime
 * ran out of memory, or the stack ran out. It comes from values that nest or
 * chain too deep (values built from values, level upon level) or are too
 * large: the specification's doing, so exit 3.
 */
function exhausted(message: string, written: string[]): DiagnosticsError {
  const fatal = written.find((l) => /fatal error|out of memory|stack overflow|exceeds/.test(l));
  const why = fatal ? fatal.split("\n").find((l) => l.trim() !== "")!.trim() : message;
  return new DiagnosticsError([
    error(
      "CUE could not finish the evaluation",
      `cue-wasm ran out of memory or stack (${why}). The values nest or chain too deep, or are ` +
        "too large: a value built from another one, level upon level, grows with each level. " +
        "Make the values shallower (at most a few dozen levels), or split them into named parts.",
    ),
  ], Exit.INVALID);
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
