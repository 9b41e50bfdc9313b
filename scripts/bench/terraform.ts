/**
 * pravo beside Terraform on a chain of N nodes, each referring to the
 * previous one's computed value: Terraform's built-in `terraform_data`
 * (`input = terraform_data.prev.output`, needing no provider) against
 * pravo's `random_integer` seeded from the previous one's `result`
 * (`seed: "\(prev.result)"`). Each run makes two fresh roots and takes the
 * same steps in both, the tools alternating step by step (one step of one,
 * the same step of the other) so that the load of a shared machine falls on
 * both alike:
 *
 *   validate, plan (a new root, nothing applied, pravo's cache cleared),
 *   apply (plan and apply, -auto-approve), plan (the first after the apply),
 *   plan (a no-op plan after that), destroy (-auto-approve).
 *
 * pravo runs as scripts/pravo runs it (its narrow permissions); `init` of
 * both is untimed. Peak memory through `/usr/bin/time -f %M` (measure.ts).
 *
 * @module
 */

import { join } from "node:path";
import { type Cmd, max, median, runOnce, type Sample } from "./measure.ts";

/** The steps, in the order they run on one root. */
export const STEPS = [
  "validate",
  "plan (new root)",
  "apply",
  "first plan after apply",
  "no-op plan",
  "destroy",
] as const;
export type Step = typeof STEPS[number];

/** The CUE of a pravo chain of `n` random_integer nodes. */
export function pravoChain(n: number): string {
  const lines = [
    "package chain",
    "",
    'import rnd "pravo.dev/providers/hashicorp/random"',
    "",
    "$random: rnd.#Provider",
    "",
    'n0: $random.#Resource.random_integer & {min: 1, max: 100, seed: "start"}',
  ];
  for (let i = 1; i < n; i++) {
    lines.push(
      `n${i}: $random.#Resource.random_integer & {min: 1, max: 100, seed: "\\(n${i - 1}.result)"}`,
    );
  }
  return lines.join("\n") + "\n";
}

/** The HCL of a Terraform chain of `n` terraform_data nodes. */
export function terraformChain(n: number): string {
  const lines = ['resource "terraform_data" "n0" {\n  input = "start"\n}'];
  for (let i = 1; i < n; i++) {
    lines.push(`resource "terraform_data" "n${i}" {\n  input = terraform_data.n${i - 1}.output\n}`);
  }
  return lines.join("\n\n") + "\n";
}

/** How the bench runs pravo and Terraform. */
export interface Tools {
  /** The argv of `pravo ARGS` in a root (scripts/pravo's permissions). */
  pravo(root: string, args: string[]): string[];
  /** Environment for Terraform (a CLI config file, no checkpoint calls). */
  tfEnv: Record<string, string>;
  log(s: string): void;
}

/** The samples of one chain size: per tool, per step. */
export interface ChainResult {
  n: number;
  runs: number;
  pravo: Map<Step, Sample[]>;
  terraform: Map<Step, Sample[]>;
}

function envArgv(env: Record<string, string>, argv: string[]): string[] {
  return ["env", ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...argv];
}

/** Runs `runs` rounds of every step on chains of `n` nodes, the tools interleaved. */
export async function chainBench(
  dir: string,
  n: number,
  runs: number,
  tools: Tools,
): Promise<ChainResult> {
  const result: ChainResult = { n, runs, pravo: new Map(), terraform: new Map() };
  for (const s of STEPS) {
    result.pravo.set(s, []);
    result.terraform.set(s, []);
  }
  const cue = pravoChain(n);
  const hcl = terraformChain(n);
  for (let r = 0; r < runs; r++) {
    const p = join(dir, `chain-${n}-${r}-pravo`);
    const t = join(dir, `chain-${n}-${r}-terraform`);
    await Deno.mkdir(p, { recursive: true });
    await Deno.mkdir(t, { recursive: true });
    await Deno.writeTextFile(join(p, "main.cue"), cue);
    await Deno.writeTextFile(join(t, "main.tf"), hcl);
    await runOnce({ name: "pravo init", argv: tools.pravo(p, ["init"]), cwd: p });
    const tf = (args: string[]) => envArgv(tools.tfEnv, ["terraform", ...args]);
    await runOnce({
      name: "terraform init",
      argv: tf(["init", "-input=false", "-no-color"]),
      cwd: t,
    });
    const clearCache = () => {
      try {
        Deno.removeSync(join(p, ".pravo", "cache"), { recursive: true });
      } catch {
        // no cache yet
      }
    };
    const steps: Record<Step, [Cmd, Cmd]> = {
      "validate": [
        { name: "pravo validate", argv: tools.pravo(p, ["validate"]), cwd: p },
        { name: "terraform validate", argv: tf(["validate", "-no-color"]), cwd: t },
      ],
      "plan (new root)": [
        {
          name: "pravo plan",
          argv: tools.pravo(p, ["plan"]),
          cwd: p,
          codes: [2],
          before: clearCache,
        },
        {
          name: "terraform plan",
          argv: tf(["plan", "-input=false", "-no-color", "-detailed-exitcode"]),
          cwd: t,
          codes: [2],
        },
      ],
      "apply": [
        { name: "pravo apply", argv: tools.pravo(p, ["apply", "-auto-approve"]), cwd: p },
        {
          name: "terraform apply",
          argv: tf(["apply", "-input=false", "-no-color", "-auto-approve"]),
          cwd: t,
        },
      ],
      "first plan after apply": [
        { name: "pravo plan", argv: tools.pravo(p, ["plan"]), cwd: p },
        {
          name: "terraform plan",
          argv: tf(["plan", "-input=false", "-no-color", "-detailed-exitcode"]),
          cwd: t,
        },
      ],
      "no-op plan": [
        { name: "pravo plan", argv: tools.pravo(p, ["plan"]), cwd: p },
        {
          name: "terraform plan",
          argv: tf(["plan", "-input=false", "-no-color", "-detailed-exitcode"]),
          cwd: t,
        },
      ],
      "destroy": [
        {
          name: "pravo destroy",
          argv: tools.pravo(p, ["apply", "-auto-approve", "--destroy"]),
          cwd: p,
        },
        {
          name: "terraform destroy",
          argv: tf(["destroy", "-input=false", "-no-color", "-auto-approve"]),
          cwd: t,
        },
      ],
    };
    for (const s of STEPS) {
      const [pc, tc] = steps[s];
      // Alternate who goes first, so that neither always follows the other.
      const order = r % 2 === 0 ? [pc, tc] : [tc, pc];
      for (const c of order) {
        const got = await runOnce(c);
        (c === pc ? result.pravo : result.terraform).get(s)!.push(got);
      }
    }
    tools.log(`  chain ${n}: run ${r + 1}/${runs}`);
    await Deno.remove(p, { recursive: true });
    await Deno.remove(t, { recursive: true });
  }
  return result;
}

/** Rows for a result: step, pravo median, Terraform median, ratio, peak memory of both. */
export function chainRows(res: ChainResult): string[][] {
  return STEPS.map((s) => {
    const p = res.pravo.get(s)!, t = res.terraform.get(s)!;
    const pm = median(p.map((x) => x.ms)), tm = median(t.map((x) => x.ms));
    return [
      `chain ${res.n.toLocaleString("en-US")}: ${s}`,
      fmt(pm),
      fmt(tm),
      `${(pm / tm).toFixed(2)}x`,
      `${Math.round(max(p.map((x) => x.rssMb)))} MB`,
      `${Math.round(max(t.map((x) => x.rssMb)))} MB`,
    ];
  });
}

function fmt(ms: number): string {
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

/**
 * The argv of pravo as scripts/pravo runs it: this deno, pravo's narrow
 * permissions; `file` (default `project`'s main.ts) is another script run
 * the same way, such as the bench's print-a-line baseline.
 */
export async function pravoArgv(
  project: string,
  file = join(project, "main.ts"),
): Promise<(root: string, args: string[]) => string[]> {
  const { permissionFlags } = await import("../../lib/permissions/permissions.ts");
  const { V8_FLAGS } = await import("../../lib/cli/v8_flags.ts");
  const deno = Deno.execPath();
  return (root, args) => [
    deno,
    "run",
    `--v8-flags=${V8_FLAGS.join(",")}`,
    "--config",
    join(project, "deno.json"),
    ...permissionFlags({ root, execPath: deno, projectDir: project }),
    file,
    ...args,
  ];
}

/**
 * pravo's key for the bench's roots, in `$PRAVO_KEY` (which the children
 * inherit), unless one is set: a fresh one, so that the user's key file is
 * neither needed nor touched.
 */
export function benchKey(): void {
  if (Deno.env.get("PRAVO_KEY")) return;
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  Deno.env.set("PRAVO_KEY", btoa(String.fromCharCode(...bytes)));
}

/** Terraform's environment for the bench: an empty CLI config, no network checks. */
export function terraformEnv(dir: string): Record<string, string> {
  const rc = join(dir, "terraformrc");
  Deno.writeTextFileSync(rc, "");
  return { TF_CLI_CONFIG_FILE: rc, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1" };
}

if (import.meta.main) {
  // deno run -A scripts/bench/terraform.ts [--sizes 10,100] [--runs 3]
  const { parseArgs } = await import("node:util");
  const { fileURLToPath } = await import("node:url");
  const { values } = parseArgs({
    options: {
      sizes: { type: "string", default: "10,100" },
      runs: { type: "string", default: "3" },
    },
  });
  const project = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");
  const dir = await Deno.makeTempDir({ prefix: "pravo-bench-tf-" });
  benchKey();
  const tools: Tools = {
    pravo: await pravoArgv(project),
    tfEnv: terraformEnv(dir),
    log: (s) => console.error(s),
  };
  for (const n of values.sizes.split(",").map(Number)) {
    const res = await chainBench(dir, n, Number(values.runs), tools);
    for (const r of chainRows(res)) console.log(r.join("\t"));
  }
  await Deno.remove(dir, { recursive: true });
}
