/**
 * cue-wasm, loaded on first use. Loading costs ~0.7 s and ~200 MB, so only
 * commands that evaluate CUE call `evaluate`; and an evaluation whose source
 * was evaluated before in the same root is answered from a cache under
 * `.pravo/cache/` without loading cue-wasm at all (the source holds every
 * input: the files, the tags, the values known from the state).
 *
 * The source and its result hold the values known from the state, secrets
 * included. So a cache entry is sealed (AES-256-GCM) with pravo's key for
 * the cache (`loadKey().derive("cache")`, lib/keys/key.ts) and named by an
 * HMAC of the source under that key: neither the name nor the content tells
 * anything to whoever reads the root without the key. Without a key there is
 * no cache.
 *
 * @module
 */

import { type Pinned, readOnlyRun } from "../workspace/pinned.ts";
import { createHmac, randomUUID } from "node:crypto";
import {
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { readRegular } from "../files/regular.ts";
import { loadKey } from "../keys/key.ts";
import { sealText, unsealText } from "../keys/seal.ts";
import { DiagnosticsError, error } from "../diag/diag.ts";

interface CueApi {
  toJSON(src: string): string;
}

let api: Promise<CueApi> | undefined;

/**
 * cue-wasm's module, raw, beside this file: the package carries it as a
 * 6 MB base64 string of its gzip, which costs ~80 ms to import, decode and
 * unzip at each start (STACK.md). `npm ci` writes it from the
 * package (tests/cue_wasm_test.ts checks that the two are the same module).
 * The bundle and the compiled executable have no file beside them: they
 * load the package's inline module.
 */
export const RAW_MODULE = new URL("./cue.wasm", import.meta.url);

/** The Go runtime's glue of the package, which the raw module needs. */
const WASM_EXEC = "../../node_modules/cue-wasm/dist/wasm_exec.full-4a915ab6.js";

/** How cue-wasm was loaded in this process, for benchmarks and tests. */
export const loadedFrom: {
  module?: "raw" | "package";
  /** The Go runtime's environment, when started from the raw module. */
  goEnv?: Record<string, string>;
} = {};

/** `first`: the size of the first source the process evaluates (see {@link goEnvFor}). */
async function load(first: number): Promise<CueApi> {
  const raw = readRaw();
  if (raw) {
    try {
      const cue = await startRaw(raw, goEnvFor(first));
      loadedFrom.module = "raw";
      return cue;
    } catch {
      // The glue could not be had (a bundle): the package's own start.
    }
  }
  const CUE = await import("cue-wasm");
  const cue = (await CUE.init()) as CueApi;
  loadedFrom.module = "package";
  return cue;
}

/** cue-wasm's raw module, when it is beside this file and readable. */
export function readRaw(): Uint8Array | undefined {
  if (RAW_MODULE.protocol !== "file:") return undefined;
  try {
    return Deno.readFileSync(RAW_MODULE);
  } catch {
    return undefined; // not beside this file, or not readable: the package's module
  }
}

interface GoRuntime {
  importObject: WebAssembly.Imports;
  /** The Go program's environment (the glue gives it none of the process's). */
  env: Record<string, string>;
  run(instance: WebAssembly.Instance): Promise<void>;
}

/**
 * The environment of cue-wasm's Go runtime (Go 1.18): its garbage collector's
 * settings, for the peak memory of large evaluations. The glue gives the Go
 * program an environment of its own, empty unless set here: `GOGC` in the
 * process's environment never reaches it.
 *
 * - `GODEBUG=gcstoptheworld=1`: each collection runs to its end at once.
 *   Under WebAssembly Go has one thread, and a collection that runs
 *   concurrently is marked mostly by the evaluation's own allocations, over
 *   seconds, while the heap keeps growing past its goal: WebAssembly memory
 *   never shrinks, so that overshoot is kept until the process ends.
 * - `GOGC=70`: the heap grows to 1.7 times what survived the last collection
 *   instead of 2 times.
 *
 * Measured on the two evaluations of a plan of the 10,000-node bench root
 * (docs/performance.md): WebAssembly memory 283-300 MB instead of 383-408 MB,
 * in as much time. On small programs it costs time instead: Go's smallest
 * heap shrinks with GOGC (4 MB × 0.7), so its start collects twice as often;
 * a 100-node plan's two evaluations took ~18 ms longer (165 → 183 ms). So
 * only a process whose first source is large starts with it ({@link goEnvFor}).
 */
export const GO_ENV: Readonly<Record<string, string>> = {
  GODEBUG: "gcstoptheworld=1",
  GOGC: "70",
};

/**
 * From this size of the first source a process evaluates on, its Go runtime
 * starts with {@link GO_ENV}: ~2,500 nodes of the bench's roots (a 1,000-node
 * root's source is ~100 KB, a 10,000-node one's ~900 KB). A process
 * evaluates the same root throughout, so its first source tells its size.
 */
export const LEAN_FROM = 256 * 1024;

/** The Go runtime's environment for a process whose first source is `first` characters long. */
export function goEnvFor(first: number): Readonly<Record<string, string>> {
  return first >= LEAN_FROM ? GO_ENV : {};
}

/**
 * What `CUE.init()` does, with the raw module: the Go runtime started with
 * `env`, its API registered.
 */
export async function startRaw(
  bytes: Uint8Array,
  env: Readonly<Record<string, string>>,
): Promise<CueApi> {
  await import(WASM_EXEC);
  const g = globalThis as unknown as {
    Go: new () => GoRuntime;
    CueWasmAPI: { _toJSONImpl(src: string): { value?: string; error?: string } };
  };
  const go = new g.Go();
  go.env = { ...env };
  loadedFrom.goEnv = go.env;
  const { instance } = await WebAssembly.instantiate(bytes as BufferSource, go.importObject);
  g.CueWasmAPI = {} as typeof g.CueWasmAPI;
  // Returns once Go's main blocks, its API registered (as the package does it).
  void go.run(instance);
  const impl = g.CueWasmAPI;
  if (typeof impl._toJSONImpl !== "function") throw new Error("cue-wasm registered no API");
  return {
    toJSON(src: string): string {
      const r = impl._toJSONImpl(src);
      // CUE's errors are thrown as strings, as the package throws them.
      if (r && r.error) throw r.error;
      return r.value!;
    },
  };
}

/** The outcome of one evaluation: the JSON text, or CUE's error message. */
export type EvalResult = { ok: true; json: string } | { ok: false; message: string };

/** How many cached evaluations a root keeps; the oldest go first. */
export const CACHE_ENTRIES = 32;

/** Counts of this process's evaluations, for benchmarks and tests. */
export const stats = { evaluated: 0, cached: 0, loadMs: 0, evaluateMs: 0 };

/** For scripts/bench/record.ts: told each source cue-wasm is about to evaluate. */
export const observers: { beforeEvaluate?: (src: string) => void } = {};

/** True once cue-wasm has been loaded in this process. */
export function loaded(): boolean {
  return api !== undefined;
}

/** The prefix and suffix of a cache entry's name. */
const ENTRY = { prefix: "ev-", suffix: ".sealed" };

/**
 * The cache of a root: its folder and the key that seals it, when the root
 * has a `.pravo/` folder and pravo's key can be loaded (it is not created
 * for the cache's sake). No cache when `.pravo` or `.pravo/cache` is a
 * symbolic link, or not a folder: an agent can make such a link in the root,
 * and Deno's permission to write the root does not look at where a link
 * leads, so the cache would be written (and pruned) wherever it points.
 */
export function rootCache(
  root: string,
  pinned: Pinned | undefined,
): { dir: string; key: Uint8Array } | undefined {
  // A child of pravo mcp --read-only writes nothing in the root.
  if (readOnlyRun(pinned)) return undefined;
  const pravo = join(root, ".pravo");
  if (!isPlainDir(pravo)) return undefined;
  const dir = join(pravo, "cache");
  if (lexists(dir) && !isPlainDir(dir)) return undefined;
  dropLegacy(dir);
  try {
    return { dir, key: loadKey({ root, create: false }).derive("cache") };
  } catch {
    return undefined;
  }
}

/** True when `path` is a folder itself, not a symbolic link to one. */
function isPlainDir(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

function lexists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The most bytes of one cache entry read: a 10,000-node evaluation is a few megabytes. */
const MAX_ENTRY_BYTES = 256 * 1024 * 1024;

/**
 * Evaluates one CUE source and exports it as JSON. With `cacheDir` and
 * `cacheKey`, a result is read from and written to that directory, sealed
 * with the key and named by an HMAC of the source under it.
 */
export async function evaluate(
  src: string,
  opts: { cacheDir?: string; cacheKey?: Uint8Array } = {},
): Promise<EvalResult> {
  const cached = opts.cacheDir !== undefined && opts.cacheKey !== undefined;
  const name = cached
    ? ENTRY.prefix + createHmac("sha256", opts.cacheKey!).update(src).digest("hex") + ENTRY.suffix
    : "";
  const file = cached ? join(opts.cacheDir!, name) : "";
  if (file) {
    try {
      // Not through a link, never a FIFO or a device, never more than an entry is.
      const bytes = readRegular(file, { maxBytes: MAX_ENTRY_BYTES, noFollow: true });
      const text = unsealText(opts.cacheKey!, new TextDecoder().decode(bytes), name);
      if (text !== undefined) {
        const hit = JSON.parse(text) as EvalResult;
        stats.cached++;
        return hit;
      }
    } catch {
      // not cached, or unreadable: evaluate
    }
  }
  const t0 = performance.now();
  api ??= load(src.length);
  const cue = await api;
  const t1 = performance.now();
  stats.loadMs += t1 - t0;
  stats.evaluated++;
  let result: EvalResult;
  // The Go runtime inside cue-wasm writes through console.log (and its exit
  // code through console.warn): a crash dump would land on standard output
  // (a --json document, the MCP channel). What it writes is kept for the
  // diagnostic instead.
  observers.beforeEvaluate?.(src);
  const written: string[] = [];
  const { log, warn } = console;
  console.log = console.warn = (...args: unknown[]) =>
    void written.push(args.map(String).join(" "));
  try {
    result = { ok: true, json: cue.toJSON(src) };
    stats.evaluateMs += performance.now() - t1;
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
  if (file) store(opts.cacheDir!, file, sealText(opts.cacheKey!, JSON.stringify(result), name));
  return result;
}

const cleaned = new Set<string>();

/** Entries of older pravo versions held evaluations, secrets included, in clear: gone. */
function dropLegacy(dir: string): void {
  if (cleaned.has(dir)) return;
  cleaned.add(dir);
  try {
    for (const n of readdirSync(dir)) {
      if (n.startsWith("eval-") && n.endsWith(".json")) unlinkSync(join(dir, n));
    }
  } catch {
    // no cache folder yet
  }
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
      `cue-wasm ran out of memory or stack (${why}). The values are too large, or nest or ` +
        "chain too deep: a value built from another one, level upon level, grows with each " +
        "level. Make the values smaller or shallower (at most a few dozen levels), or split " +
        "them into named parts; under `pravo mcp`, the server's --call-memory bounds each call.",
    ),
  ], "invalid");
}

function store(dir: string, file: string, sealed: string): void {
  try {
    // .pravo was a folder when the cache was chosen; the cache folder is
    // made here, never through a link.
    if (!lexists(dir)) mkdirSync(dir, { mode: 0o700 });
    if (!isPlainDir(dir) || !isPlainDir(dirname(dir))) return;
    // A new file (O_EXCL: never over anything, a link included), then renamed into place.
    const tmp = `${file}.${randomUUID()}.tmp`;
    const fd = openSync(tmp, "wx", 0o600);
    try {
      const bytes = new TextEncoder().encode(sealed);
      let off = 0;
      while (off < bytes.length) off += writeSync(fd, bytes, off);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
    const entries = readdirSync(dir).filter((n) =>
      n.startsWith(ENTRY.prefix) && n.endsWith(ENTRY.suffix)
    );
    if (entries.length > CACHE_ENTRIES) {
      const byAge = entries.map((n) => ({ n, t: lstatSync(join(dir, n)).mtimeMs })).sort((a, b) =>
        a.t - b.t
      );
      for (const { n } of byAge.slice(0, entries.length - CACHE_ENTRIES)) unlinkSync(join(dir, n));
    }
  } catch {
    // A cache that cannot be written only costs time.
  }
}
