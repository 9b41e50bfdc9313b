/**
 * Test helpers: run the real pravo program in a root, write roots.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { openStore } from "../lib/state/open.ts";

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

/** The root's records in its default (SQLite) state, by address. */
export async function records(root: string) {
  const store = await openStore({ root, state: undefined });
  try {
    return new Map((await store.listRecords()).map((r) => [r.address, r]));
  } finally {
    await store.close();
  }
}

/** A root of `n` local files, `out/f0.txt`...: real-world effects a test can count. */
export function fileRoot(n: number, pkg = "crash"): string {
  const lines = [
    `package ${pkg}`,
    "",
    'import loc "pravo.dev/providers/hashicorp/local"',
    "",
    "$local: loc.#Provider",
    "",
  ];
  for (let i = 0; i < n; i++) {
    lines.push(
      `f${i}: $local.#Resource.local_file & {filename: "out/f${i}.txt", content: "file ${i}"}`,
    );
  }
  return lines.join("\n") + "\n";
}

/** How many `.txt` files a directory holds (0 when it does not exist). */
export async function countFiles(dir: string): Promise<number> {
  let n = 0;
  try {
    for await (const e of Deno.readDir(dir)) if (e.name.endsWith(".txt")) n++;
  } catch {
    return 0;
  }
  return n;
}
