/**
 * The start of the commands that need no CUE, alone: the rows of `deno task
 * bench`'s "1. no CUE" section, with other programs beside them for a
 * before/after (issue 13).
 *
 *   deno run -A scripts/bench/start.ts [--runs N] [--base DIR]... [--bundle FILE]...
 *                                      [--only version,providers,...]
 *
 * Makes the seed root once (init, plan --out seed.plan, apply), then runs,
 * interleaved (one run of each per round), the print-a-line script and each
 * command for each program: this checkout's main.ts, each `--base DIR`'s
 * main.ts (another checkout: its own deno.json and permissions) and each
 * `--bundle FILE` (run as scripts/pravo-bundle runs it: `--no-config`).
 * Every program runs as scripts/pravo runs it: the same deno, V8 flags and
 * permission flags. Prints medians and ratios to the print-a-line script.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { basename, dirname, join, resolve } from "node:path";
import { permissionFlags } from "../../lib/permissions/permissions.ts";
import { V8_FLAGS } from "../../lib/cli/v8_flags.ts";
import { SEED_CUE } from "./roots.ts";
import { type Cmd, interleave, median, runOnce } from "./measure.ts";
import { benchKey, pravoArgv } from "./terraform.ts";

const PROJECT = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");
const DENO = Deno.execPath();

const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    runs: { type: "string", default: "9" },
    base: { type: "string", multiple: true, default: [] },
    bundle: { type: "string", multiple: true, default: [] },
    only: { type: "string" },
    "no-self": { type: "boolean", default: false },
  },
});
const RUNS = Number(flags.runs);

const COMMANDS: Record<string, string[]> = {
  version: ["--version"],
  providers: ["providers"],
  schema: ["schema", "random_integer"],
  "state-show": ["state", "show", "base"],
  "state-log": ["state", "log"],
  "state-list": ["state", "list"],
  show: ["show", "seed.plan"],
};
const chosen = flags.only ? flags.only.split(",") : Object.keys(COMMANDS);

interface Program {
  label: string;
  argv: (root: string) => string[];
}

async function source(label: string, dir: string): Promise<Program> {
  const argv = await pravoArgv(dir);
  return { label, argv: (root) => argv(root, []) };
}

function bundle(label: string, file: string): Program {
  return {
    label,
    argv: (root) => [
      DENO,
      "run",
      `--v8-flags=${V8_FLAGS.join(",")}`,
      "--no-config",
      ...permissionFlags({
        root,
        execPath: DENO,
        projectDir: dirname(file),
        programFiles: [basename(file)],
      }),
      file,
    ],
  };
}

const programs: Program[] = [];
if (!flags["no-self"]) programs.push(await source("main.ts", PROJECT));
for (const b of flags.base as string[]) programs.push(await source(`base ${b}`, resolve(b)));
for (const b of flags.bundle as string[]) programs.push(bundle(`bundle ${b}`, resolve(b)));

const tmp = await Deno.makeTempDir({ prefix: "pravo-start-" });
const root = join(tmp, "seed");
benchKey();
try {
  await Deno.mkdir(root);
  await Deno.writeTextFile(join(root, "main.cue"), SEED_CUE);
  const setup = programs[0].argv(root);
  await runOnce({ name: "init", argv: [...setup, "init"], cwd: root });
  await runOnce({
    name: "plan",
    argv: [...setup, "plan", "--out", "seed.plan"],
    cwd: root,
    codes: [2],
  });
  await runOnce({ name: "apply", argv: [...setup, "apply", "-auto-approve"], cwd: root });

  const helloArgv = await pravoArgv(PROJECT, join(PROJECT, "scripts", "bench", "hello.ts"));
  const hello: Cmd = { name: "print a line", argv: helloArgv(root, []), cwd: root };
  const cmds: Cmd[] = [hello];
  for (const c of chosen) {
    for (const p of programs) {
      cmds.push({ name: `${p.label}: ${c}`, argv: [...p.argv(root), ...COMMANDS[c]], cwd: root });
    }
  }
  const s = await interleave(cmds, RUNS, { warmup: true });
  const base = median(s.get(hello.name)!.map((x) => x.ms));
  const load = (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ");
  console.log(`${RUNS} interleaved runs, medians; load average at the end ${load}`);
  console.log(`print a line: ${base.toFixed(1)} ms`);
  for (const c of cmds.slice(1)) {
    const ms = median(s.get(c.name)!.map((x) => x.ms));
    const rss = median(s.get(c.name)!.map((x) => x.rssMb));
    console.log(
      `${c.name.padEnd(50)} ${ms.toFixed(1).padStart(7)} ms ${(ms / base).toFixed(2)}x ${
        rss.toFixed(0)
      } MB`,
    );
  }
} finally {
  await Deno.remove(tmp, { recursive: true });
}
