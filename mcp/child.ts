/**
 * Running pravo itself for a tool call: the same executable, a fixed
 * argument list, the narrow permission flags, in the root; with a timeout,
 * cancellation, and progress while it runs.
 *
 * @module
 */

import { dirname } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";
import { permissionFlags } from "../lib/cli/permissions.ts";

/** How this process runs pravo: the executable and the words before pravo's own. */
export interface Self {
  command: string;
  prefix: string[];
  /** Variables set for the child, on top of this process's environment. */
  env?: Record<string, string>;
}

/**
 * How to run pravo again. A compiled pravo is its own executable; from the
 * source or the bundle, it is `deno run` with the narrow flags and the
 * program file. The permission flags name the root and the policies the
 * server was given, and allow running this same executable and nothing else.
 */
export function selfCommand(root: string, extraRead: string[] = [], allowNet: string[] = []): Self {
  const exec = Deno.execPath();
  const base = exec.split("/").pop() ?? "";
  if (base !== "deno" && base !== "deno.exe") {
    // A compiled pravo carries its permissions; it runs itself.
    return { command: exec, prefix: [] };
  }
  const main = fromFileUrl(Deno.mainModule);
  const projectDir = dirname(main);
  const isBundle = main.endsWith(".js");
  const flags = permissionFlags({
    root,
    execPath: exec,
    projectDir,
    programFiles: isBundle ? [main.slice(projectDir.length + 1)] : undefined,
    extraRead,
    // A state on PostgreSQL: that server alone.
    allowNet,
    // A tool's command never runs a program: its process may run none.
    allowRun: false,
  });
  const config = isBundle ? ["--no-config"] : ["--config", `${projectDir}/deno.json`];
  return { command: exec, prefix: ["run", "--quiet", ...config, ...flags, main] };
}

export interface ChildResult {
  code: number;
  stdout: string;
  stderr: string;
  /** Ended by the timeout. */
  timedOut: boolean;
  /** Ended because the client cancelled the call. */
  cancelled: boolean;
}

export interface ChildOptions {
  root: string;
  self: Self;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Called every interval while the child runs, with the seconds elapsed. */
  onProgress?: (seconds: number) => void;
  progressIntervalMs?: number;
}

/** Runs `pravo --json --no-color ARGV` in the root and gathers what it printed. */
export async function runPravo(argv: string[], opts: ChildOptions): Promise<ChildResult> {
  const child = new Deno.Command(opts.self.command, {
    args: [...opts.self.prefix, "--json", "--no-color", ...argv],
    cwd: opts.root,
    env: opts.self.env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let timedOut = false;
  let cancelled = false;
  const kill = () => {
    try {
      child.kill("SIGTERM");
    } catch {
      // already ended
    }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, opts.timeoutMs);
  const onAbort = () => {
    cancelled = true;
    kill();
  };
  opts.signal?.addEventListener("abort", onAbort);
  const started = Date.now();
  const progress = opts.onProgress
    ? setInterval(
      () => opts.onProgress!(Math.round((Date.now() - started) / 1000)),
      opts.progressIntervalMs ?? 1000,
    )
    : undefined;
  try {
    const out = await child.output();
    return {
      code: out.code,
      stdout: new TextDecoder().decode(out.stdout),
      stderr: new TextDecoder().decode(out.stderr),
      timedOut,
      cancelled,
    };
  } finally {
    clearTimeout(timer);
    if (progress !== undefined) clearInterval(progress);
    opts.signal?.removeEventListener("abort", onAbort);
  }
}
