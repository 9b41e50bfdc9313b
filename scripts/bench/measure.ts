/**
 * Running commands for the benchmarks: wall time from spawn to exit, peak
 * RSS through `/usr/bin/time -f %M`, and interleaved rounds so that a
 * subject and its baseline share the machine's load.
 *
 * @module
 */

const TIME = "/usr/bin/time";

/** A command to time. */
export interface Cmd {
  name: string;
  argv: string[];
  cwd: string;
  /** Untimed preparation before each run (clear a cache, edit a file). */
  before?: () => void | Promise<void>;
  /** Exit codes that count as success; default [0]. */
  codes?: number[];
  /** How many runs; the group's default otherwise. */
  runs?: number;
  /** Stop a run after this many seconds (`timeout`); the run then counts as a lower bound. */
  timeoutS?: number;
}

/** One run. */
export interface Sample {
  ms: number;
  /** Peak resident set, in MB. */
  rssMb: number;
  stdout: string;
  /** Stopped by its timeout: `ms` is a lower bound. */
  timedOut?: boolean;
}

let haveTime: boolean | undefined;

/** Runs a command once: time, peak memory, what it printed. */
export async function runOnce(cmd: Cmd): Promise<Sample> {
  await cmd.before?.();
  haveTime ??= (() => {
    try {
      return Deno.statSync(TIME).isFile;
    } catch {
      return false;
    }
  })();
  const rssFile = haveTime ? Deno.makeTempFileSync({ prefix: "pravo-bench-rss-" }) : "";
  const argv = cmd.timeoutS ? ["timeout", String(cmd.timeoutS), ...cmd.argv] : cmd.argv;
  const [exe, ...args] = haveTime ? [TIME, "-f", "%M", "-o", rssFile, ...argv] : argv;
  const start = performance.now();
  const out = await new Deno.Command(exe, {
    args,
    cwd: cmd.cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const ms = performance.now() - start;
  let rssMb = NaN;
  if (haveTime) {
    // After a timeout, time(1) writes "Command exited with non-zero status" first.
    const text = Deno.readTextFileSync(rssFile).trim().split("\n").pop() ?? "";
    rssMb = Number(text) / 1024;
    Deno.removeSync(rssFile);
  }
  const stdout = new TextDecoder().decode(out.stdout);
  if (cmd.timeoutS && out.code === 124) return { ms, rssMb, stdout, timedOut: true };
  if (!(cmd.codes ?? [0]).includes(out.code)) {
    throw new Error(
      `${cmd.name}: exit ${out.code} (${cmd.argv.join(" ")})\n${
        new TextDecoder().decode(out.stderr).slice(0, 2000)
      }`,
    );
  }
  return { ms, rssMb, stdout };
}

/**
 * Runs the commands in rounds, each round running each command once in
 * turn, so that a subject and its baseline see the same load. A command with
 * fewer runs than the others drops out of the later rounds, and a command
 * whose run was stopped by its timeout is not run again.
 */
export async function interleave(
  cmds: Cmd[],
  runs: number,
  opts: { warmup?: boolean; progress?: (s: string) => void } = {},
): Promise<Map<string, Sample[]>> {
  const samples = new Map<string, Sample[]>(cmds.map((c) => [c.name, []]));
  if (opts.warmup) { for (const c of cmds) await runOnce(c); }
  const rounds = Math.max(...cmds.map((c) => c.runs ?? runs));
  for (let r = 0; r < rounds; r++) {
    for (const c of cmds) {
      const got = samples.get(c.name)!;
      if (r >= (c.runs ?? runs) || got.some((x) => x.timedOut)) continue;
      got.push(await runOnce(c));
    }
    opts.progress?.(`  round ${r + 1}/${rounds}`);
  }
  return samples;
}

/** The median of numbers (the mean of the middle two for an even count). */
export function median(xs: number[]): number {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The largest of numbers, NaN when there are none. */
export function max(xs: number[]): number {
  const s = xs.filter((x) => !Number.isNaN(x));
  return s.length ? Math.max(...s) : NaN;
}
