/**
 * `deno task bench`: pravo's benchmark suite (issue 6).
 *
 * Every figure is a median over several runs and a ratio to a baseline
 * measured in the same run, the two interleaved (one run of each in turn) so
 * that the load of a shared machine falls on both alike. Peak memory comes
 * from `/usr/bin/time -f %M`.
 *
 *   deno task bench [--quick] [--runs N] [--sizes 100,1000,10000] [--write]
 *                   [--chains 10,100,1000] [--aws-runs N]
 *
 * First, pravo beside Terraform 1.11.4 (on the PATH; issue 13): chains of
 * 10, 100 and 1,000 nodes, every step of a root's life, the two tools
 * interleaved (scripts/bench/terraform.ts); then the AWS root of
 * examples/aws against moto_server (scripts/bench/aws.ts, which starts
 * moto on 127.0.0.1). Then pravo's own rows, each against a baseline.
 *
 * - `--chains`: the chain sizes beside Terraform ("" for none).
 * - `--aws-runs N`: runs of the AWS root (default 1; 0 skips it, as it does
 *   when moto_server or the provider mirror is missing).
 * - `--quick`: a smoke run: two runs of everything, roots of 100 and 1,000
 *   nodes, two processes for cue-wasm's start.
 * - `--runs N`: N runs of every command (default 7 for fast commands, 5 for
 *   those that evaluate CUE, 3 for the largest root and for apply).
 * - `--sizes`: the generated roots' sizes.
 * - `--timeout S`: stop a plan of a generated root after S seconds (default
 *   90); its figure is then a lower bound, shown as "> S".
 * - `--write`: put the results in docs/performance.md, between its
 *   `bench:begin` and `bench:end` markers.
 *
 * The roots are made in a temporary directory, removed at the end. The
 * helpers are in scripts/bench/.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { permissionFlags } from "../lib/permissions/permissions.ts";
import { V8_FLAGS } from "../lib/cli/v8_flags.ts";
import { generatedCue, SEED_CUE } from "./bench/roots.ts";
import { type Cmd, interleave, max, median, runOnce, type Sample } from "./bench/measure.ts";
import { McpClient } from "./bench/mcp_client.ts";
import {
  benchKey,
  chainBench,
  type ChainResult,
  chainRows,
  terraformEnv,
} from "./bench/terraform.ts";

const PROJECT = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");
const DENO = Deno.execPath();
const CONFIG = join(PROJECT, "deno.json");
const MAIN = join(PROJECT, "main.ts");
const BENCH = join(PROJECT, "scripts", "bench");
const DOC = join(PROJECT, "docs", "performance.md");

const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    quick: { type: "boolean", default: false },
    runs: { type: "string" },
    sizes: { type: "string" },
    write: { type: "boolean", default: false },
    timeout: { type: "string", default: "90" },
    chains: { type: "string" },
    "aws-runs": { type: "string" },
  },
});
const quick = Boolean(flags.quick);
const fixedRuns = flags.runs === undefined ? undefined : Number(flags.runs);
if (fixedRuns !== undefined && (!Number.isInteger(fixedRuns) || fixedRuns < 1)) {
  throw new Error(`--runs "${flags.runs}" is not a whole number above zero`);
}
const RUNS = {
  fast: fixedRuns ?? (quick ? 2 : 7),
  cue: fixedRuns ?? (quick ? 2 : 5),
  big: fixedRuns ?? (quick ? 1 : 3),
  start: fixedRuns ?? (quick ? 2 : 5),
};
const sizes = (flags.sizes ?? (quick ? "100,1000" : "100,1000,10000")).split(",").map(Number);
if (sizes.some((n) => !Number.isInteger(n) || n < 2)) {
  throw new Error(`--sizes "${flags.sizes}" is not a list of whole numbers of at least 2`);
}
sizes.sort((a, b) => a - b);
const chainSizes = (flags.chains ?? (quick ? "10,100" : "10,100,1000")).split(",").filter((x) =>
  x !== ""
).map(Number);
if (chainSizes.some((n) => !Number.isInteger(n) || n < 2)) {
  throw new Error(`--chains "${flags.chains}" is not a list of whole numbers of at least 2`);
}
const awsRuns = Number(flags["aws-runs"] ?? (quick ? "0" : "1"));
if (!Number.isInteger(awsRuns) || awsRuns < 0) {
  throw new Error(`--aws-runs "${flags["aws-runs"]}" is not a whole number`);
}
const TIMEOUT_S = Number(flags.timeout);
if (!(TIMEOUT_S > 0)) throw new Error(`--timeout "${flags.timeout}" is not a number of seconds`);
const began = performance.now();
const log = (s: string) => console.error(s);

// ---------------------------------------------------------------- commands

/** pravo run as scripts/pravo runs it: this deno, the narrow flags, main.ts. */
function pravo(root: string, args: string[], extra: Partial<Cmd> = {}): Cmd {
  return { name: `pravo ${args.join(" ")}`, argv: script(root, MAIN, args), cwd: root, ...extra };
}

/** Another script run the same way as pravo: same deno, V8 flags, config and permissions. */
function script(root: string, file: string, args: string[] = []): string[] {
  const perms = permissionFlags({ root, execPath: DENO, projectDir: PROJECT });
  return [
    DENO,
    "run",
    `--v8-flags=${V8_FLAGS.join(",")}`,
    "--config",
    CONFIG,
    ...perms,
    file,
    ...args,
  ];
}

function hello(root: string): Cmd {
  return {
    name: "print a line (Deno script)",
    argv: script(root, join(BENCH, "hello.ts")),
    cwd: root,
  };
}

async function must(cmd: Cmd): Promise<Sample> {
  return await runOnce(cmd);
}

function clearCache(root: string): () => void {
  return () => Deno.removeSync(join(root, ".pravo", "cache"), { recursive: true });
}

function rmCache(root: string): void {
  try {
    clearCache(root)();
  } catch {
    // no cache
  }
}

/**
 * Records what pravo evaluates for `args` in `root`; returns the sources
 * file (in the root) and how many sources it holds. With `stopAfter`, the
 * recording ends after that many evaluations (see record.ts).
 */
async function record(
  root: string,
  args: string[],
  name: string,
  stopAfter?: number,
): Promise<{ file: string; count: number }> {
  const out = join(root, `bench-sources-${name}.json`);
  const stop = stopAfter ? ["--stop-after", String(stopAfter)] : [];
  const script = join(BENCH, "record.ts");
  const s = await must({
    name: `record ${name}`,
    argv: [DENO, "run", "-A", "--config", CONFIG, script, out, root, ...stop, "--", ...args],
    cwd: root,
  });
  rmCache(root);
  const count = (JSON.parse(s.stdout.trim().split("\n").pop()!) as { sources: number }).sources;
  return { file: out, count };
}

function floor(root: string, sourcesFile: string, name: string): Cmd {
  return {
    name,
    argv: script(root, join(BENCH, "floor.ts"), [sourcesFile]),
    cwd: root,
    before: () => rmCache(root),
  };
}

// ---------------------------------------------------------------- results

interface Row {
  name: string;
  /** The subject was stopped by the timeout: median and ratio are lower bounds. */
  lowerBound?: boolean;
  median: number;
  rssMb: number;
  base: string;
  baseMedian: number;
  /** subject / baseline; for apply rows the store's share instead. */
  ratio: number;
  ratioText?: string;
}

const rows: Row[] = [];

function row(name: string, s: Sample[], base: string, b: Sample[]): Row {
  const stopped = s.filter((x) => x.timedOut);
  const m = stopped.length ? max(stopped.map((x) => x.ms)) : median(s.map((x) => x.ms));
  const bm = median(b.map((x) => x.ms));
  const r: Row = {
    name,
    lowerBound: stopped.length > 0 || undefined,
    median: m,
    rssMb: max(s.map((x) => x.rssMb)),
    base,
    baseMedian: bm,
    ratio: m / bm,
  };
  rows.push(r);
  const gt = r.lowerBound ? "> " : "";
  log(`  ${name}: ${gt}${fmtMs(m)} vs ${base}: ${fmtMs(bm)} = ${gt}${r.ratio.toFixed(2)}x`);
  return r;
}

function fmtMs(ms: number): string {
  if (Number.isNaN(ms)) return "-";
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

function fmtMb(mb: number): string {
  return Number.isNaN(mb) ? "-" : `${Math.round(mb)} MB`;
}

function fmtN(n: number): string {
  return n.toLocaleString("en-US");
}

// ---------------------------------------------------------------- setup

const tmp = await Deno.makeTempDir({ prefix: "pravo-bench-" });
// A key of the bench's own for its roots: the user's key file is neither needed nor touched.
benchKey();
const roots = {
  seed: join(tmp, "seed"),
  ops: join(tmp, "seed-applied"),
  gen: (n: number) => join(tmp, `gen-${n}`),
};

async function makeRoot(dir: string, cue: string): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(join(dir, "main.cue"), cue);
  await must(pravo(dir, ["init"]));
}

log(`pravo bench: ${tmp}`);
log("setup: roots");
await makeRoot(roots.seed, SEED_CUE);
await makeRoot(roots.ops, SEED_CUE);
await must(pravo(roots.ops, ["plan", "--out", "seed.plan"], { codes: [2] }));
await must(pravo(roots.ops, ["apply", "-auto-approve"]));
for (const n of sizes) await makeRoot(roots.gen(n), generatedCue(n));
log("setup: recording the CUE that pravo evaluates");
const seedValidate = (await record(roots.seed, ["validate"], "validate")).file;
const seedPlan = (await record(roots.seed, ["plan"], "plan")).file;
// pravo's work after evaluating grows faster than the evaluation: on 10,000
// nodes it takes minutes. A root that large is recorded up to as many
// evaluations as the next smaller root of the same shape needed.
const genPlan = new Map<number, string>();
let evaluations: number | undefined;
for (const n of sizes) {
  const stopAfter = n >= 10_000 ? evaluations ?? 2 : undefined;
  const rec = await record(roots.gen(n), ["plan"], "plan", stopAfter);
  genPlan.set(n, rec.file);
  evaluations = rec.count;
}
// Warm Deno's caches for every script, untimed.
await must(hello(roots.seed));
await must(floor(roots.seed, seedValidate, "warm"));

// ---------------------------------------------------------------- 0. beside Terraform

const chainResults: ChainResult[] = [];
for (const n of chainSizes) {
  // Terraform applies and destroys a 1,000-node chain in minutes: fewer runs there.
  const runs = n >= 1000 ? (fixedRuns ?? 1) : RUNS.cue;
  log(`chain of ${fmtN(n)} nodes, pravo beside Terraform (${runs} runs)`);
  chainResults.push(
    await chainBench(tmp, n, runs, {
      pravo: (root, args) => pravo(root, args).argv,
      tfEnv: terraformEnv(tmp),
      log,
    }),
  );
}
let awsReport = "";
if (awsRuns > 0) {
  log(`the AWS root beside Terraform, against moto_server (${awsRuns} runs)`);
  const out = await new Deno.Command(DENO, {
    args: ["run", "-A", "--config", CONFIG, join(BENCH, "aws.ts"), "--runs", String(awsRuns)],
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).output();
  awsReport = out.code === 0
    ? new TextDecoder().decode(out.stdout).trim()
    : `The AWS rows were not taken: scripts/bench/aws.ts failed (exit ${out.code}).`;
}

// ---------------------------------------------------------------- 1. no CUE

log(`commands that need no CUE (${RUNS.fast} runs)`);
{
  const base = hello(roots.ops);
  const cmds = [
    base,
    pravo(roots.ops, ["--version"]),
    pravo(roots.ops, ["providers"]),
    pravo(roots.ops, ["schema", "random_integer"]),
    pravo(roots.ops, ["state", "show", "base"]),
    pravo(roots.ops, ["state", "log"]),
    pravo(roots.ops, ["show", "seed.plan"]),
  ];
  const s = await interleave(cmds, RUNS.fast, { warmup: true, progress: log });
  for (const c of cmds.slice(1)) {
    row(c.name.replace("seed.plan", "PLANFILE"), s.get(c.name)!, base.name, s.get(base.name)!);
  }
}

// ---------------------------------------------------------------- 2. seed root vs floor

log(`validate and plan on the seed root, cache cleared, vs bare cue-wasm (${RUNS.cue} runs)`);
{
  const r = roots.seed;
  const cmds = [
    floor(r, seedValidate, "bare cue-wasm: init + the validate source"),
    pravo(r, ["validate"], { before: () => rmCache(r) }),
    floor(r, seedPlan, "bare cue-wasm: init + the plan sources"),
    pravo(r, ["plan"], { before: () => rmCache(r), codes: [2] }),
  ];
  const s = await interleave(cmds, RUNS.cue, { progress: log });
  row("pravo validate (seed)", s.get(cmds[1].name)!, cmds[0].name, s.get(cmds[0].name)!);
  row("pravo plan (seed)", s.get(cmds[3].name)!, cmds[2].name, s.get(cmds[2].name)!);
}

// ---------------------------------------------------------------- 3. apply in-process

async function copyDir(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isFile) await Deno.copyFile(join(from, e.name), join(to, e.name));
  }
}

interface ApplyRun {
  nodes: number;
  planMs: number;
  applyMs: number;
  storeMs: number;
  storeSumMs: number;
  transactions: number;
  ok: boolean;
}
const applySizes = sizes.filter((n) => n <= 1000);
let applied: { root: string; n: number } | undefined;
for (const n of applySizes) {
  const runs = n >= 1000 ? RUNS.big : RUNS.cue;
  log(`apply of ${fmtN(n)} nodes, in-process (${runs} runs)`);
  const results: ApplyRun[] = [];
  const rss: number[] = [];
  for (let i = 0; i < runs; i++) {
    const dir = join(tmp, `apply-${n}-${i}`);
    await makeRoot(dir, generatedCue(n));
    // The plan before apply is not timed: let it answer from the previous run's cache.
    if (applied?.n === n) {
      await copyDir(join(applied.root, ".pravo", "cache"), join(dir, ".pravo", "cache"));
    }
    const s = await must({
      name: `apply ${n}`,
      argv: [DENO, "run", "-A", "--config", CONFIG, join(BENCH, "apply_inproc.ts"), dir],
      cwd: dir,
    });
    const res = JSON.parse(s.stdout.trim().split("\n").pop()!) as ApplyRun;
    if (!res.ok || res.nodes !== n) throw new Error(`apply ${n}: ${s.stdout}`);
    results.push(res);
    rss.push(s.rssMb);
    if (applied) await Deno.remove(applied.root, { recursive: true });
    applied = { root: dir, n };
  }
  const total = median(results.map((r) => r.applyMs));
  const store = median(results.map((r) => r.storeMs));
  const share = median(results.map((r) => r.storeMs / r.applyMs));
  rows.push({
    name: `apply ${fmtN(n)} nodes (in-process)`,
    median: total,
    rssMb: max(rss),
    base: "of which in store transactions",
    baseMedian: store,
    ratio: share,
    ratioText: `${(share * 100).toFixed(0)}% store`,
  });
  log(`  apply ${n}: ${fmtMs(total)}, store ${fmtMs(store)} (${(share * 100).toFixed(0)}%)`);
}

// ---------------------------------------------------------------- 4. incremental plans

if (applied) {
  const r = applied.root;
  const label = fmtN(applied.n);
  log(
    `plans of the applied ${label}-node root: nothing changed, one node changed (${RUNS.cue} runs)`,
  );
  let edit = 0;
  const original = generatedCue(applied.n);
  const full = pravo(r, ["plan", "--full"], {
    before: () => {
      Deno.writeTextFileSync(join(r, "main.cue"), original);
      rmCache(r);
    },
  });
  full.name = `pravo plan --full, cache cleared (${label})`;
  const slow = applied.n >= 1000 ? RUNS.big : RUNS.cue;
  full.runs = slow;
  const same = pravo(r, ["plan"], {
    codes: [0],
    // The sources and state of the plan before (the full plan): its evaluation is cached.
    before: () => Deno.writeTextFileSync(join(r, "main.cue"), original),
  });
  same.name = `pravo plan, nothing changed (${label})`;
  const changed = pravo(r, ["plan"], {
    codes: [2],
    before: () =>
      Deno.writeTextFileSync(join(r, "main.cue"), generatedCue(applied!.n, `edit-${++edit}`)),
  });
  changed.name = `pravo plan, one node changed (${label})`;
  changed.runs = slow;
  const base = hello(r);
  // The order matters: "nothing changed" follows a plan of the same sources and state.
  const cmds = [base, full, same, changed];
  const s = await interleave(cmds, RUNS.cue, { progress: log });
  row(same.name, s.get(same.name)!, full.name, s.get(full.name)!);
  row(changed.name, s.get(changed.name)!, full.name, s.get(full.name)!);
  row(same.name, s.get(same.name)!, base.name, s.get(base.name)!);
}

// ---------------------------------------------------------------- 5. plan by size

log(
  `plan on generated roots vs bare evaluation of the same CUE (${RUNS.cue} runs; ${RUNS.big} for 1,000+)`,
);
const planBySize = new Map<number, Sample[]>();
{
  const cmds: Cmd[] = [];
  for (const n of sizes) {
    const r = roots.gen(n);
    const runs = n >= 1000 ? RUNS.big : RUNS.cue;
    cmds.push({
      ...floor(r, genPlan.get(n)!, `bare cue-wasm: the plan sources (${fmtN(n)})`),
      runs,
    });
    cmds.push({
      ...pravo(r, ["plan"], { before: () => rmCache(r), codes: [2] }),
      name: `pravo plan, ${fmtN(n)} nodes`,
      runs,
      timeoutS: TIMEOUT_S,
    });
  }
  const s = await interleave(cmds, RUNS.cue, { progress: log });
  for (let i = 0; i < cmds.length; i += 2) {
    const n = sizes[i / 2];
    planBySize.set(n, s.get(cmds[i + 1].name)!);
    row(cmds[i + 1].name, s.get(cmds[i + 1].name)!, cmds[i].name, s.get(cmds[i].name)!);
  }
  if (sizes.length >= 2) {
    const [a, b] = sizes.slice(-2);
    row(
      `pravo plan, ${fmtN(b)} nodes`,
      planBySize.get(b)!,
      `pravo plan, ${fmtN(a)} nodes`,
      planBySize.get(a)!,
    );
  }
}

// ---------------------------------------------------------------- 6. MCP

log(`MCP round trip vs the command it runs (${RUNS.fast} runs)`);
{
  const r = roots.ops;
  const perms = permissionFlags({ root: r, execPath: DENO, projectDir: PROJECT });
  const self = [DENO, "run", "--quiet", "--config", CONFIG, ...perms, MAIN];
  const client = await McpClient.start([...script(r, MAIN, ["mcp"])], r);
  try {
    const calls: { tool: string; args: Record<string, unknown>; argv: string[] }[] = [
      { tool: "pravo_validate", args: {}, argv: ["validate"] },
      { tool: "pravo_state_show", args: { addr: "base" }, argv: ["state", "show", "base"] },
    ];
    const times = new Map<string, number[]>();
    const put = (k: string, ms: number) => times.set(k, [...(times.get(k) ?? []), ms]);
    const direct = async (argv: string[]) => {
      const t = performance.now();
      const out = await new Deno.Command(self[0], {
        args: [...self.slice(1), "--json", "--no-color", ...argv],
        cwd: r,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      if (out.code !== 0) throw new Error(`${argv.join(" ")}: exit ${out.code}`);
      return performance.now() - t;
    };
    for (const c of calls) { // warm-up: the evaluation cache, Deno's caches
      await client.call(c.tool, c.args);
      await direct(c.argv);
    }
    for (let i = 0; i < RUNS.fast; i++) {
      for (const c of calls) {
        const t = performance.now();
        await client.call(c.tool, c.args);
        put(c.tool, performance.now() - t);
        put(c.argv.join(" "), await direct(c.argv));
      }
      log(`  round ${i + 1}/${RUNS.fast}`);
    }
    for (const c of calls) {
      const s = times.get(c.tool)!.map((ms) => ({ ms, rssMb: NaN, stdout: "" }));
      const b = times.get(c.argv.join(" "))!.map((ms) => ({ ms, rssMb: NaN, stdout: "" }));
      row(
        `MCP ${c.tool} round trip`,
        s,
        `pravo --json ${c.argv.join(" ")} (as the server runs it)`,
        b,
      );
    }
  } finally {
    await client.close();
  }
}

// ---------------------------------------------------------------- 7. cue-wasm's start

log(`cue-wasm's start, phase by phase (${RUNS.start} processes each)`);
const rawWasm = join(tmp, "cue.wasm");
const startCmd = (mode: string): Cmd => ({
  name: mode,
  argv: [
    DENO,
    "run",
    "-A",
    "--config",
    CONFIG,
    join(BENCH, "cue_start.ts"),
    mode,
    seedValidate,
    rawWasm,
  ],
  cwd: roots.seed,
});
await must(startCmd("write-raw"));
const startModes = ["package", "parts", "raw"];
const startSamples = await interleave(startModes.map(startCmd), RUNS.start, { progress: log });
const breakdown = new Map<string, { phases: Map<string, number[]>; total: Sample[] }>();
for (const mode of startModes) {
  const phases = new Map<string, number[]>();
  for (const s of startSamples.get(mode)!) {
    const doc = JSON.parse(s.stdout.trim().split("\n").pop()!) as { phases: [string, number][] };
    for (const [name, ms] of doc.phases) phases.set(name, [...(phases.get(name) ?? []), ms]);
  }
  breakdown.set(mode, { phases, total: startSamples.get(mode)! });
}
row(
  "bare evaluation, raw .wasm from a cache file (prototype)",
  startSamples.get("raw")!,
  "bare evaluation, cue-wasm's init()",
  startSamples.get("package")!,
);

// ---------------------------------------------------------------- report

const nproc = navigator.hardwareConcurrency;
const memGb = (() => {
  const m = /MemTotal:\s+(\d+)/.exec(Deno.readTextFileSync("/proc/meminfo"));
  return m ? (Number(m[1]) / 1024 / 1024).toFixed(1) : "?";
})();
const cpu = /model name\s*:\s*(.*)/.exec(Deno.readTextFileSync("/proc/cpuinfo"))?.[1] ?? "?";
const load = Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
const machine =
  `${nproc} cores, ${memGb} GB, ${cpu}; deno ${Deno.version.deno} (V8 ${Deno.version.v8}); ` +
  `load average at the end ${load}`;
const date = new Date().toISOString().slice(0, 16).replace("T", " ") + " UTC";
const settings = `chains beside Terraform: ${chainSizes.map(fmtN).join(", ") || "none"}; ` +
  `AWS runs: ${awsRuns}; runs: ${RUNS.fast} fast, ${RUNS.cue} CUE, ${RUNS.big} largest/apply-1,000, ` +
  `${RUNS.start} cue-wasm starts; sizes ${sizes.map(fmtN).join(", ")}${quick ? "; --quick" : ""}`;

function markdownTable(head: string[], body: string[][]): string {
  const esc = (s: string) => s.replaceAll("|", "\\|");
  return [
    `| ${head.join(" | ")} |`,
    `|${head.map((_, i) => (i === 0 ? "---" : "--:")).join("|")}|`,
    ...body.map((r) => `| ${r.map(esc).join(" | ")} |`),
  ].join("\n");
}

function textTable(head: string[], body: string[][]): string {
  const w = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r.map((c, i) => (i === 0 || i === 3 ? c.padEnd(w[i]) : c.padStart(w[i]))).join("  ");
  return [line(head), w.map((n) => "-".repeat(n)).join("  "), ...body.map(line)].join("\n");
}

const head = ["name", "median", "peak RSS", "baseline", "baseline median", "ratio"];
const body = rows.map((r) => [
  r.name,
  (r.lowerBound ? "> " : "") + fmtMs(r.median),
  fmtMb(r.rssMb),
  r.base,
  fmtMs(r.baseMedian),
  r.ratioText ?? `${r.lowerBound ? "> " : ""}${r.ratio.toFixed(2)}x`,
]);

const bHead = ["phase", ...startModes.map((m) => `${m} (median ms)`)];
const phaseNames: string[] = [];
for (const m of startModes) {
  for (const p of breakdown.get(m)!.phases.keys()) if (!phaseNames.includes(p)) phaseNames.push(p);
}
const bBody = phaseNames.map((p) => [
  p,
  ...startModes.map((m) => {
    const xs = breakdown.get(m)!.phases.get(p);
    return xs ? String(Math.round(median(xs))) : "";
  }),
]);
bBody.push([
  "whole process, measured from outside",
  ...startModes.map((m) => String(Math.round(median(breakdown.get(m)!.total.map((s) => s.ms))))),
]);
bBody.push([
  "peak RSS (MB)",
  ...startModes.map((m) => String(Math.round(max(breakdown.get(m)!.total.map((s) => s.rssMb))))),
]);

// Targets of issue 6, from the rows above.
const find = (name: string, base?: string) =>
  rows.find((r) => r.name === name && (base === undefined || r.base === base));
const targets: string[][] = [];
const target = (what: string, limit: string, r: Row | undefined, value: number, ok: boolean) => {
  if (!r || Number.isNaN(value)) return;
  const gt = r.lowerBound ? "> " : "";
  // A lower bound under the limit says nothing; over it, the target is missed.
  const verdict = ok ? (r.lowerBound ? "unknown (stopped)" : "met") : "missed";
  targets.push([what, limit, r.ratioText ?? `${gt}${value.toFixed(2)}x`, verdict]);
};
for (
  const r of rows.filter((r) =>
    r.base === "print a line (Deno script)" && !r.name.includes("nothing changed")
  )
) {
  target(`${r.name} / print a line`, "<= 1.5x", r, r.ratio, r.ratio <= 1.5);
}
for (const r of rows.filter((r) => r.name.endsWith("(seed)"))) {
  target(`${r.name} / bare cue-wasm`, "<= 1.25x", r, r.ratio, r.ratio <= 1.25);
}
{
  const r = rows.find((r) =>
    r.name.includes("nothing changed") && r.base.startsWith("print a line")
  );
  target("plan, nothing changed / print a line", "<= 2x", r, r?.ratio ?? NaN, (r?.ratio ?? 9) <= 2);
}
{
  const big = sizes[sizes.length - 1];
  const r = find(
    `pravo plan, ${fmtN(big)} nodes`,
    `bare cue-wasm: the plan sources (${fmtN(big)})`,
  );
  target(
    `plan ${fmtN(big)} nodes / bare evaluation`,
    "<= 1.5x",
    r,
    r?.ratio ?? NaN,
    (r?.ratio ?? 9) <= 1.5,
  );
  if (sizes.length >= 2) {
    const a = sizes[sizes.length - 2];
    const g = find(`pravo plan, ${fmtN(big)} nodes`, `pravo plan, ${fmtN(a)} nodes`);
    const limit = (big / a) * 1.2;
    target(
      `plan ${fmtN(a)} -> ${fmtN(big)} nodes, time`,
      `<= ${Number(limit.toFixed(1))}x`,
      g,
      g?.ratio ?? NaN,
      (g?.ratio ?? Infinity) <= limit,
    );
  }
  if (r) {
    const gt = r.lowerBound ? "> " : "";
    const verdict = r.rssMb >= 800 ? "missed" : r.lowerBound ? "unknown (stopped)" : "met";
    targets.push([
      `plan ${fmtN(big)} nodes, peak memory`,
      "< 800 MB",
      gt + fmtMb(r.rssMb),
      verdict,
    ]);
  }
}
{
  const r = find(`apply ${fmtN(1000)} nodes (in-process)`);
  target(
    "apply 1,000 nodes: time in the store",
    "<= 10%",
    r,
    r?.ratio ?? NaN,
    (r?.ratio ?? 1) <= 0.1,
  );
}
for (const r of rows.filter((r) => r.name.startsWith("MCP "))) {
  target(`${r.name} / the command`, "<= 1.15x", r, r.ratio, r.ratio <= 1.15);
}
const tHead = ["target", "limit", "measured", ""];

const cHead = ["chain: step", "pravo", "Terraform", "pravo / Terraform", "pravo peak", "TF peak"];
const cBody = chainResults.flatMap(chainRows);
// Issue 13's targets, pravo / Terraform in the same run.
const chainLimits: Record<number, Record<string, number>> = {
  10: { "validate": 3, "plan (new root)": 3, "apply": 1, "no-op plan": 1 },
  100: {
    "validate": 2,
    "plan (new root)": 1,
    "apply": 0.5,
    "first plan after apply": 1,
    "no-op plan": 0.5,
  },
  1000: { "plan (new root)": 0.3, "apply": 0.05, "no-op plan": 0.2 },
};
const chainTargets: string[][] = [];
for (const r of chainResults) {
  for (const [step, limit] of Object.entries(chainLimits[r.n] ?? {})) {
    const p = median(r.pravo.get(step as never)!.map((x) => x.ms));
    const t = median(r.terraform.get(step as never)!.map((x) => x.ms));
    const ratio = p / t;
    chainTargets.push([
      `chain ${fmtN(r.n)}: ${step} / Terraform`,
      `<= ${limit}x`,
      `${ratio.toFixed(2)}x`,
      ratio <= limit ? "met" : "missed",
    ]);
  }
}

const elapsed = (performance.now() - began) / 1000;
console.log(`\nmachine: ${machine}`);
console.log(`date: ${date}; ${settings}; the bench took ${elapsed.toFixed(0)} s\n`);
if (cBody.length) {
  console.log("pravo beside Terraform (medians; peak RSS the largest of the runs):\n");
  console.log(textTable(cHead, cBody));
  console.log("\ntargets of issue 13:\n");
  console.log(textTable(tHead, chainTargets));
  console.log("");
}
if (awsReport) console.log(awsReport + "\n");
console.log(textTable(head, body));
console.log("\ncue-wasm's start (medians; ms since the previous phase):\n");
console.log(textTable(bHead, bBody));
console.log("\ntargets of issue 6:\n");
console.log(textTable(tHead, targets));

if (flags.write) {
  const section = [
    "<!-- bench:begin (written by `deno task bench --write`; do not edit by hand) -->",
    "",
    `Taken ${date} on ${machine}. Settings: ${settings}; the run took ${elapsed.toFixed(0)} s.`,
    "",
    ...(cBody.length
      ? [
        "pravo beside Terraform 1.11.4, chains of N nodes (medians; peak RSS the largest of the runs):",
        "",
        markdownTable(cHead, cBody),
        "",
        "The targets of issue 13, judged from the table above:",
        "",
        markdownTable(tHead, chainTargets),
        "",
      ]
      : []),
    ...(awsReport ? [awsReport, ""] : []),
    markdownTable(head, body),
    "",
    "cue-wasm's start, medians in ms, each phase measured from the end of the previous one:",
    "",
    markdownTable(bHead, bBody),
    "",
    "The targets of issue 6, judged from the table above:",
    "",
    markdownTable(tHead, targets),
    "",
    "<!-- bench:end -->",
  ].join("\n");
  const doc = Deno.readTextFileSync(DOC);
  const re = /<!-- bench:begin[\s\S]*?<!-- bench:end -->/;
  if (!re.test(doc)) throw new Error(`${DOC} has no bench:begin / bench:end markers`);
  Deno.writeTextFileSync(DOC, doc.replace(re, () => section));
  log(`wrote ${DOC}`);
}

await Deno.remove(tmp, { recursive: true });
