/**
 * Programs run to their end for the tests, above all pravo through
 * `scripts/pravo` (the launcher, with its narrow permissions): the exit
 * code and what was written on stdout and stderr, as text.
 *
 * @module
 */

import { fileURLToPath } from "node:url";

/** `scripts/pravo`. */
export const SCRIPT = fileURLToPath(new URL("../scripts/pravo", import.meta.url));

/** How a program ended. */
export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `command` to its end, stdout and stderr piped. */
export async function runCommand(command: string, options: Deno.CommandOptions): Promise<Ran> {
  const out = await new Deno.Command(command, { stdout: "piped", stderr: "piped", ...options })
    .output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

/** Runs scripts/pravo with `args` in the folder `cwd`. */
export function runScript(
  cwd: string,
  args: string[],
  options: Omit<Deno.CommandOptions, "args" | "cwd"> = {},
): Promise<Ran> {
  return runCommand(SCRIPT, { ...options, args, cwd });
}
