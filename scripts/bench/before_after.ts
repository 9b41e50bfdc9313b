/**
 * Two pravo checkouts and Terraform side by side on the chains of
 * terraform.ts, the three interleaved step by step: the "before and after"
 * of docs/performance.md. Each pravo runs through its own scripts/pravo.
 * With `--timings`, each pravo step runs once more, untimed, from the
 * source with PRAVO_TIMINGS, for where the milliseconds go (cue-wasm's
 * load, its evaluations).
 *
 *   deno run -A scripts/bench/before_after.ts --base DIR [--sizes 10,100] [--runs 5] [--timings]
 *
 * DIR is a checkout of the older pravo with its node_modules.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Cmd, median, runOnce } from "./measure.ts";
import {
  benchKey,
  pravoChain,
  type Step,
  STEPS,
  terraformChain,
  terraformEnv,
} from "./terraform.ts";
import { V8_FLAGS } from "../../lib/cli/v8_flags.ts";

const { values } = parseArgs({
  options: {
    base: { type: "string" },
    sizes: { type: "string", default: "10,100" },
    runs: { type: "string", default: "5" },
    timings: { type: "boolean", default: false },
  },
});
if (!values.base) throw new Error("--base DIR is required");
const HERE = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");
const tools = { before: values.base.replace(/\/$/, ""), after: HERE };
const dir = await Deno.makeTempDir({ prefix: "pravo-before-after-" });
benchKey();
const tfEnv = terraformEnv(dir);
const tf = (args: string[]) => [
  "env",
  ...Object.entries(tfEnv).map(([k, v]) => `${k}=${v}`),
  "terraform",
  ...args,
];
const pravo = (checkout: string, args: string[]) => [join(checkout, "scripts", "pravo"), ...args];
const TF_ARGS: Record<Step, string[]> = {
  "validate": ["validate", "-no-color"],
  "plan (new root)": ["plan", "-input=false", "-no-color", "-detailed-exitcode"],
  "apply": ["apply", "-input=false", "-no-color", "-auto-approve"],
  "first plan after apply": ["plan", "-input=false", "-no-color", "-detailed-exitcode"],
  "no-op plan": ["plan", "-input=false", "-no-color", "-detailed-exitcode"],
  "destroy": ["destroy", "-input=false", "-no-color", "-auto-approve"],
};
const PRAVO_ARGS: Record<Step, string[]> = {
  "validate": ["validate"],
  "plan (new root)": ["plan"],
  "apply": ["apply", "-auto-approve"],
  "first plan after apply": ["plan"],
  "no-op plan": ["plan"],
  "destroy": ["apply", "-auto-approve", "--destroy"],
};
const CODES: Partial<Record<Step, number[]>> = { "plan (new root)": [2] };

type Who = "before" | "after" | "terraform";
const WHO: Who[] = ["before", "after", "terraform"];

for (const n of values.sizes.split(",").map(Number)) {
  const ms = new Map<string, number[]>();
  const timings = new Map<string, Record<string, number>[]>();
  const runs = Number(values.runs);
  for (let r = 0; r < runs; r++) {
    const roots = Object.fromEntries(WHO.map((w) => [w, join(dir, `${n}-${r}-${w}`)])) as Record<
      Who,
      string
    >;
    for (const w of WHO) {
      await Deno.mkdir(roots[w], { recursive: true });
      if (w === "terraform") {
        await Deno.writeTextFile(join(roots[w], "main.tf"), terraformChain(n));
        await runOnce({ name: "tf init", argv: tf(["init", "-input=false"]), cwd: roots[w] });
      } else {
        await Deno.writeTextFile(join(roots[w], "main.cue"), pravoChain(n));
        await runOnce({ name: "init", argv: pravo(tools[w], ["init"]), cwd: roots[w] });
      }
    }
    for (const s of STEPS) {
      const order = r % 2 ? [...WHO].reverse() : WHO;
      for (const w of order) {
        const root = roots[w];
        const clear = () => {
          if (s !== "plan (new root)" || w === "terraform") return;
          try {
            Deno.removeSync(join(root, ".pravo", "cache"), { recursive: true });
          } catch {
            // none
          }
        };
        const cmd: Cmd = {
          name: `${w} ${s}`,
          argv: w === "terraform" ? tf(TF_ARGS[s]) : pravo(tools[w], PRAVO_ARGS[s]),
          cwd: root,
          codes: CODES[s],
          before: clear,
        };
        // With --timings, the same step once more from the source, untimed,
        // on a copy of the root as it was (its cache state included).
        if (values.timings && w !== "terraform" && s !== "destroy") {
          const copy = `${root}-t`;
          await Deno.remove(copy, { recursive: true }).catch(() => {});
          await new Deno.Command("cp", { args: ["-a", root, copy] }).output();
          if (s === "plan (new root)") {
            await Deno.remove(join(copy, ".pravo", "cache"), { recursive: true }).catch(() => {});
          }
          const out = await new Deno.Command(Deno.execPath(), {
            args: [
              "run",
              "-A",
              // Each checkout's own V8 flags (the older one had none).
              ...(w === "after" ? [`--v8-flags=${V8_FLAGS.join(",")}`] : []),
              "--config",
              join(tools[w], "deno.json"),
              join(tools[w], "main.ts"),
              ...PRAVO_ARGS[s],
            ],
            cwd: copy,
            env: { PRAVO_TIMINGS: "1" },
            stdout: "null",
            stderr: "piped",
          }).output();
          const line = new TextDecoder().decode(out.stderr).split("\n").find((l) =>
            l.startsWith('{"pravo_timings"')
          );
          if (line) {
            const t = JSON.parse(line).pravo_timings as Record<string, number>;
            timings.set(`${w} ${s}`, [...(timings.get(`${w} ${s}`) ?? []), t]);
          }
          await Deno.remove(copy, { recursive: true });
        }
        const got = await runOnce(cmd);
        ms.set(cmd.name, [...(ms.get(cmd.name) ?? []), got.ms]);
      }
    }
    for (const w of WHO) await Deno.remove(roots[w], { recursive: true });
    console.error(`chain ${n}: run ${r + 1}/${runs}`);
  }
  console.log(`\nchain of ${n} nodes, medians of ${runs} (ms):\n`);
  console.log("| step | before | after | Terraform | before / TF | after / TF |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const s of STEPS) {
    const [b, a, t] = WHO.map((w) => median(ms.get(`${w} ${s}`)!));
    console.log(
      `| ${s} | ${Math.round(b)} | ${Math.round(a)} | ${Math.round(t)} | ${(b / t).toFixed(2)}x | ${
        (a / t).toFixed(2)
      }x |`,
    );
  }
  if (values.timings) {
    console.log(`\nwhere pravo's milliseconds go, chain of ${n} (medians, from the source):\n`);
    const keys = ["cue_load", "cue_evaluate", "evaluations", "cached_evaluations"];
    console.log(`| step | ${keys.map((k) => `${k} before | after`).join(" | ")} |`);
    console.log(`|---|${keys.map(() => "---:|---:").join("|")}|`);
    for (const s of STEPS.filter((s) => s !== "destroy")) {
      const cells = keys.map((k) =>
        (["before", "after"] as const).map((w) =>
          Math.round(median((timings.get(`${w} ${s}`) ?? []).map((t) => t[k] ?? NaN)))
        ).join(" | ")
      );
      console.log(`| ${s} | ${cells.join(" | ")} |`);
    }
  }
}
await Deno.remove(dir, { recursive: true });
