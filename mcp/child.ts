/**
 * Running pravo itself for a tool call: the same executable, a fixed
 * argument list, the narrow permission flags and a bounded memory, in the
 * root, with the server's pinned document on its standard input; with a
 * timeout, cancellation, and progress while it runs. A child is stopped
 * gracefully: SIGTERM, a grace period in which it can release its lock and
 * record what it did, then SIGKILL.
 *
 * @module
 */

import { dirname } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";
import { permissionFlags, type PermissionOptions } from "../lib/permissions/permissions.ts";
import { concat } from "../lib/bytes.ts";
import { V8_FLAGS } from "../lib/cli/v8_flags.ts";
import { PINNED_FLAG } from "../lib/workspace/pinned.ts";

/** How this process runs pravo: the executable and the words before pravo's own. */
export interface Self {
  command: string;
  prefix: string[];
  /** Variables set for the child, on top of this process's environment. */
  env?: Record<string, string>;
}

/** What {@link selfCommand} needs beyond the root. */
export interface SelfOptions {
  /** The state's PostgreSQL servers (HOST:PORT): network access to these alone. */
  allowNet?: PermissionOptions["allowNet"];
  /** A SQLite state outside the root: read and write of that file alone. */
  stateFiles?: readonly string[];
  /** The memory of one child, in MiB: half for the JavaScript heap, half for CUE's. */
  memoryMiB?: number;
  /**
   * The plugin providers the server verified at start: a child may run
   * exactly these executables, read their packages and pravo's cache
   * folder, and connect to its own socket directory (`socketDir`).
   */
  plugins?: Omit<NonNullable<PermissionOptions["plugins"]>, "run">;
}

/**
 * The V8 flags that bound a child's memory to about `mib` MiB: the
 * JavaScript heap (`--max-old-space-size`) and the linear memory of
 * WebAssembly, where cue-wasm's Go runtime lives (`--wasm-max-mem-pages`, in
 * 64 KiB pages), get half each. The heap flag alone does not bound CUE:
 * measured, a query that builds a 300 MB string in CUE grows the wasm memory
 * to 1 GB and more under any heap limit.
 */
export function memoryFlags(mib: number): string {
  const half = Math.max(128, Math.floor(mib / 2));
  return `--max-old-space-size=${half},--wasm-max-mem-pages=${half * 16}`;
}

/**
 * The V8 flag that makes a fatal error (running out of memory, mostly) end
 * the process with `_exit(255)` instead of `abort()` or a trap. An aborting
 * process dumps its core where the system says, by default a file `core` in
 * its working directory, which is the root: with core dumps on (`ulimit -c
 * unlimited`), a call an agent makes run out of memory left the child's
 * memory, pravo's key and the state's password in it, in a file the agent
 * reads (measured: a 700 MB `core` holding `PRAVO_KEY=...`). `--fuzzing`
 * does that and nothing else that pravo uses (it only makes V8's internal
 * test functions, which pravo does not enable, fail quietly).
 */
export const NO_CORE_DUMP = "--fuzzing";

/**
 * How to run pravo again. A compiled pravo is its own executable; from the
 * source or the bundle, it is `deno run` with the narrow flags and the
 * program file. The permission flags name the root (and a SQLite state
 * outside it), and allow running no program at all.
 */
export function selfCommand(root: string, opts: SelfOptions = {}): Self {
  const exec = Deno.execPath();
  const base = exec.split("/").pop() ?? "";
  const v8 = [
    ...(opts.memoryMiB === undefined ? [] : [memoryFlags(opts.memoryMiB)]),
    ...V8_FLAGS,
    NO_CORE_DUMP,
  ].join(",");
  if (base !== "deno" && base !== "deno.exe") {
    // A compiled pravo carries its permissions; it runs itself. Its V8 flags
    // come from the environment.
    return { command: exec, prefix: [], env: { DENO_V8_FLAGS: v8 } };
  }
  const main = fromFileUrl(Deno.mainModule);
  const projectDir = dirname(main);
  const isBundle = main.endsWith(".js");
  const flags = permissionFlags({
    root,
    execPath: exec,
    projectDir,
    programFiles: isBundle ? [main.slice(projectDir.length + 1)] : undefined,
    // A SQLite state outside the root: that file (and its journal) alone.
    extraRead: opts.stateFiles,
    extraWrite: opts.stateFiles,
    // A state on PostgreSQL: that server alone.
    allowNet: opts.allowNet,
    // A tool's command runs no program but the plugin providers the server
    // verified at start.
    allowRun: false,
    plugins: opts.plugins,
  });
  const config = isBundle ? ["--no-config"] : ["--config", `${projectDir}/deno.json`];
  return {
    command: exec,
    prefix: ["run", "--quiet", `--v8-flags=${v8}`, ...config, ...flags, main],
    ...(opts.plugins?.socketDir
      ? { env: { PRAVO_PLUGIN_SOCKET_DIR: opts.plugins.socketDir } }
      : {}),
  };
}

export interface ChildResult {
  /** The exit code; 128 + the signal's number when a signal ended it. */
  code: number;
  /** The signal that ended the child, if one did. */
  signal: Deno.Signal | null;
  stdout: string;
  /** Bytes the child wrote on stdout, also those past {@link ChildOptions.maxStdoutBytes}. */
  stdoutBytes: number;
  /** The child wrote more than the server keeps: `stdout` is its beginning only. */
  stdoutCut: boolean;
  /** The end of what it wrote on stderr. */
  stderr: string;
  /** Ended by the timeout. */
  timedOut: boolean;
  /** Ended because the client cancelled the call. */
  cancelled: boolean;
  /** Ended because the server itself was stopped. */
  shutdown: boolean;
  /** Did not end within the grace period after SIGTERM, and was killed. */
  killed: boolean;
}

export interface ChildOptions {
  root: string;
  self: Self;
  timeoutMs: number;
  /** How long a child has after SIGTERM before SIGKILL (default 10 s). */
  graceMs?: number;
  /** The client cancelled the call. */
  signal?: AbortSignal;
  /** The server is stopping. */
  shutdown?: AbortSignal;
  /** The pinned document (lib/workspace/pinned.ts), written to the child's stdin. */
  pinned?: string;
  /** Called every interval while the child runs, with the seconds elapsed. */
  onProgress?: (seconds: number) => void;
  progressIntervalMs?: number;
  /** The most of stdout the server keeps (default 32 MiB); the rest is counted and dropped. */
  maxStdoutBytes?: number;
}

/** Grace after SIGTERM, by default. */
export const GRACE_MS = 10_000;
/** The most of a child's stdout that the server keeps. */
export const MAX_STDOUT_BYTES = 32 * 1024 * 1024;
/** The most of a child's stderr that the server keeps: its end. */
const MAX_STDERR_BYTES = 256 * 1024;

/** Runs `pravo --json --no-color ARGV` in the root and gathers what it printed. */
export async function runPravo(argv: string[], opts: ChildOptions): Promise<ChildResult> {
  const child = new Deno.Command(opts.self.command, {
    args: [
      ...opts.self.prefix,
      ...(opts.pinned !== undefined ? [PINNED_FLAG] : []),
      "--json",
      "--no-color",
      ...argv,
    ],
    cwd: opts.root,
    env: opts.self.env,
    stdin: opts.pinned !== undefined ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const result = {
    timedOut: false,
    cancelled: false,
    shutdown: false,
    killed: false,
  };
  let stopping = false;
  let killTimer: ReturnType<typeof setTimeout> | undefined;
  const status = child.status;
  let ended = false;
  status.then(() => (ended = true), () => (ended = true));
  const stop = (why: "timedOut" | "cancelled" | "shutdown") => {
    if (stopping || ended) return;
    stopping = true;
    result[why] = true;
    try {
      child.kill("SIGTERM");
    } catch {
      return; // already ended
    }
    killTimer = setTimeout(() => {
      if (ended) return;
      result.killed = true;
      try {
        child.kill("SIGKILL");
      } catch {
        // ended meanwhile
      }
    }, opts.graceMs ?? GRACE_MS);
  };
  const timer = setTimeout(() => stop("timedOut"), opts.timeoutMs);
  const onAbort = () => stop("cancelled");
  const onShutdown = () => stop("shutdown");
  opts.signal?.addEventListener("abort", onAbort);
  opts.shutdown?.addEventListener("abort", onShutdown);
  if (opts.signal?.aborted) onAbort();
  if (opts.shutdown?.aborted) onShutdown();
  const started = Date.now();
  const progress = opts.onProgress
    ? setInterval(
      () => opts.onProgress!(Math.round((Date.now() - started) / 1000)),
      opts.progressIntervalMs ?? 1000,
    )
    : undefined;
  const feed = opts.pinned !== undefined
    ? (async () => {
      const w = child.stdin.getWriter();
      try {
        await w.write(new TextEncoder().encode(opts.pinned));
        await w.close();
      } catch {
        // the child ended before reading it: its exit says why
      }
    })()
    : Promise.resolve();
  try {
    const [out, err, st] = await Promise.all([
      readHead(child.stdout, opts.maxStdoutBytes ?? MAX_STDOUT_BYTES),
      readTail(child.stderr, MAX_STDERR_BYTES),
      status,
      feed,
    ]);
    return {
      code: st.code,
      signal: st.signal,
      stdout: out.text,
      stdoutBytes: out.bytes,
      stdoutCut: out.cut,
      stderr: err,
      ...result,
    };
  } finally {
    clearTimeout(timer);
    if (killTimer !== undefined) clearTimeout(killTimer);
    if (progress !== undefined) clearInterval(progress);
    opts.signal?.removeEventListener("abort", onAbort);
    opts.shutdown?.removeEventListener("abort", onShutdown);
  }
}

/** Reads a stream to its end, keeping its first `limit` bytes. */
async function readHead(
  stream: ReadableStream<Uint8Array>,
  limit: number,
): Promise<{ text: string; bytes: number; cut: boolean }> {
  const kept: Uint8Array[] = [];
  let bytes = 0;
  let size = 0;
  for await (const chunk of stream) {
    bytes += chunk.length;
    if (size < limit) {
      const part = chunk.subarray(0, limit - size);
      kept.push(part);
      size += part.length;
    }
  }
  return { text: decode(kept), bytes, cut: bytes > limit };
}

/** Reads a stream to its end, keeping its last `limit` bytes. */
async function readTail(stream: ReadableStream<Uint8Array>, limit: number): Promise<string> {
  const kept: Uint8Array[] = [];
  let size = 0;
  let dropped = 0;
  for await (const chunk of stream) {
    kept.push(chunk);
    size += chunk.length;
    while (size - kept[0].length >= limit) {
      size -= kept[0].length;
      dropped += kept[0].length;
      kept.shift();
    }
  }
  const text = decode(kept);
  return dropped ? `[${dropped} bytes of stderr before this were dropped]\n${text}` : text;
}

function decode(chunks: Uint8Array[]): string {
  return new TextDecoder().decode(concat(chunks));
}
