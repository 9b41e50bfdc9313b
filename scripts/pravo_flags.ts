/**
 * The Deno permission flags pravo runs with when it is not a compiled
 * binary: `scripts/pravo` (the source), `scripts/pravo-bundle` (the bundle)
 * and the MCP server's children. `scripts/pravo` hard-codes the same list in
 * bash; `tests/pravo_flags_test.ts` checks that the two agree.
 *
 * The grant, and why each part is there:
 *
 * - `--no-prompt`: a missing permission is an error, never a question.
 * - `--allow-read` of the root, and of the program's own files (main.ts,
 *   lib/, node_modules/, ... or the bundle), so that code may read files that
 *   ship beside it.
 * - `--allow-write` of the root only: the specification, plan files and the
 *   state under `.pravo/` live there.
 * - `--allow-env` of the variables pravo reads, and no others ({@link ENV_VARS}).
 * - `--allow-run` of the deno executable alone (`Deno.execPath()`, the real
 *   binary and not the `node_modules/.bin` symlink, which Deno would not
 *   match), so that `pravo mcp` can run pravo and nothing else.
 * - `--allow-sys=hostname` alone: the state store records the host name of a
 *   lock's holder (lib/state/holder.ts), so that a lock says where it is held.
 * - No `--allow-net`, `--allow-ffi`, and no other `--allow-sys`: nothing pravo
 *   does needs them (cue-wasm evaluates with none of them; node:sqlite needs
 *   only read and write of its file). Reading `/proc/PID/stat`, which the
 *   lock code tries, would need `--allow-all` in Deno, so it is not granted
 *   and the lock code falls back on the lock's expiry.
 *
 * @module
 */

import { isAbsolute, normalize } from "node:path";

/** The environment variables pravo reads; `--allow-env` names exactly these. */
export const ENV_VARS: readonly string[] = [
  "PRAVO_ACTOR",
  "PRAVO_REASON",
  "PRAVO_STATE",
  "NO_COLOR",
  "USER",
  "HOME",
  "DENO_DIR",
  "TMPDIR",
];

/** The program's own files in a source checkout, relative to the project. */
export const SOURCE_FILES: readonly string[] = [
  "main.ts",
  "lib",
  "mcp",
  "policy",
  "node_modules",
  "deno.json",
  "package.json",
];

/** What {@link permissionFlags} needs to know. */
export interface PermissionOptions {
  /** The root pravo works on, absolute: read and write. */
  root: string;
  /** The deno executable, absolute and with symlinks resolved: `Deno.execPath()`. */
  execPath: string;
  /** The directory that holds the program: the checkout, or the bundle's folder. */
  projectDir: string;
  /**
   * The program's files inside `projectDir` that it may read; the default is
   * a source checkout's ({@link SOURCE_FILES}). For the bundle: `["pravo.js"]`.
   */
  programFiles?: readonly string[];
  /** Files outside the root the run must read: the MCP server's policies. */
  extraRead?: readonly string[];
}

/**
 * The permission flags for one run of pravo on `root`.
 *
 * @example
 * ```ts
 * import { permissionFlags } from "./pravo_flags.ts";
 * const flags = permissionFlags({
 *   root: "/srv/demo",
 *   execPath: "/opt/pravo/node_modules/deno/deno",
 *   projectDir: "/opt/pravo",
 *   programFiles: ["main.ts"],
 * });
 * if (flags.join(" ") !== "--no-prompt --allow-read=/srv/demo,/opt/pravo/main.ts " +
 *   "--allow-write=/srv/demo --allow-env=PRAVO_ACTOR,PRAVO_REASON,PRAVO_STATE,NO_COLOR," +
 *   "USER,HOME,DENO_DIR,TMPDIR --allow-run=/opt/pravo/node_modules/deno/deno " +
 *   "--allow-sys=hostname") {
 *   throw new Error(flags.join(" "));
 * }
 * ```
 */
export function permissionFlags(options: PermissionOptions): string[] {
  const root = checkedPath("root", options.root);
  const execPath = checkedPath("execPath", options.execPath);
  const projectDir = checkedPath("projectDir", options.projectDir);
  const files = (options.programFiles ?? SOURCE_FILES).map((f) =>
    checkedPath("programFiles", projectDir + "/" + f)
  );
  const extra = (options.extraRead ?? []).map((f) => checkedPath("extraRead", f));
  return [
    "--no-prompt",
    `--allow-read=${[root, ...files, ...extra].join(",")}`,
    `--allow-write=${root}`,
    `--allow-env=${ENV_VARS.join(",")}`,
    `--allow-run=${execPath}`,
    "--allow-sys=hostname",
  ];
}

function checkedPath(what: string, path: string): string {
  if (!isAbsolute(path)) {
    throw new Error(`${what} "${path}" must be an absolute path`);
  }
  if (path.includes(",")) {
    // Deno splits permission lists on commas and has no escape for them.
    throw new Error(
      `${what} "${path}" contains a comma, which a Deno permission flag cannot express: ` +
        "rename or move the directory",
    );
  }
  const p = normalize(path);
  return p.length > 1 && p.endsWith("/") ? p.slice(0, -1) : p;
}
