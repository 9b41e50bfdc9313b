/**
 * A world's root for the feature matrix: a directory with the world's
 * files, run through scripts/pravo (or another launcher, such as the
 * bundle's) with a clean environment, and its MCP server through the SDK's
 * client.
 *
 * @module
 */

import { join } from "node:path";
import { connect, SCRIPT } from "../mcp/_client.ts";
import { WORLDS } from "./cells.ts";
import type { WorldRoot } from "./_scenario.ts";

const PG = Deno.env.get("PRAVO_TEST_PG") ?? "";

/** A state URL on the test PostgreSQL server, with a root of its own. */
export function pgState(name: string): string {
  const u = new URL(PG);
  u.searchParams.set("root", `matrix-${name}-${crypto.randomUUID().slice(0, 8)}`);
  return u.toString();
}

export const HAS_PG = PG !== "";

export interface WorldSpec {
  worldId: string;
  files: Record<string, string>;
  /** PRAVO_STATE; SQLite in the root when unset. */
  state?: string;
  /** What runs pravo: scripts/pravo unless told. */
  launcher?: string;
  env?: Record<string, string>;
  typeA: string;
  providerA: string;
  attrA: string;
  importId(attrs: Record<string, unknown>): string;
  driftA(root: string, attrs: Record<string, unknown>): Promise<void>;
}

export async function makeWorld(
  spec: WorldSpec,
): Promise<WorldRoot & { cleanup(): Promise<void> }> {
  const world = WORLDS.find((w) => w.id === spec.worldId)!;
  const home = await Deno.makeTempDir({ prefix: `pravo-matrix-${spec.worldId}-` });
  const root = join(home, "root");
  await Deno.mkdir(root);
  for (const [name, text] of Object.entries(spec.files)) {
    await Deno.writeTextFile(join(root, name), text);
  }
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: home,
    XDG_CACHE_HOME: join(home, "cache"),
    PRAVO_ACTOR: "matrix",
    NO_COLOR: "1",
    ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
    ...(spec.state ? { PRAVO_STATE: spec.state } : {}),
    ...spec.env,
  };
  const command = (args: string[], piped: boolean) =>
    new Deno.Command(spec.launcher ?? SCRIPT, {
      args: ["--no-color", ...args],
      cwd: root,
      env,
      clearEnv: true,
      stdin: "null",
      stdout: piped ? "piped" : "null",
      stderr: piped ? "piped" : "null",
    });
  const migrateTo = spec.state
    ? "sqlite:.pravo/migrated.db"
    : PG
    ? pgState(spec.worldId)
    : "sqlite:.pravo/migrated.db";
  return {
    world,
    root,
    main: spec.files["main.cue"],
    typeA: spec.typeA,
    providerA: spec.providerA,
    attrA: spec.attrA,
    async run(args) {
      const out = await command(args, true).output();
      return {
        code: out.code,
        stdout: new TextDecoder().decode(out.stdout),
        stderr: new TextDecoder().decode(out.stderr),
      };
    },
    spawn: (args) => command(args, false).spawn(),
    mcp: (args = []) => connect(root, { args, script: true, command: spec.launcher, env }),
    importId: spec.importId,
    driftA: (attrs) => spec.driftA(root, attrs),
    migrateTo,
    cleanup: () => Deno.remove(home, { recursive: true }),
  };
}
