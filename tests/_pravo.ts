/**
 * Test helpers: run the real pravo program in a root, write roots.
 *
 * @module
 */

import { fileURLToPath } from "node:url";

export const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `pravo ARGS` as a real process in `root`. */
export async function pravo(
  root: string,
  args: string[],
  opts: { env?: Record<string, string>; stdin?: string } = {},
): Promise<RunResult> {
  const cmd = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", MAIN, "--no-color", ...args],
    cwd: root,
    env: { PRAVO_ACTOR: "test", ...opts.env },
    stdin: opts.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  });
  const child = cmd.spawn();
  if (opts.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(opts.stdin));
    await w.close();
  }
  const out = await child.output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

/** A new temporary root holding `files`. */
export async function makeRoot(files: Record<string, string>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "pravo-test-" });
  await writeFiles(dir, files);
  return dir;
}

export async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    await Deno.writeTextFile(`${dir}/${name}`, text);
  }
}

/** The seed page's root. */
export const SEED = `package demo

import rnd "pravo.dev/providers/hashicorp/random"

$random: rnd.#Provider

base: $random.#Resource.random_integer & {min: 1, max: 9, seed: "base"}
`;
