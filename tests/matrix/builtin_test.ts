/**
 * The feature matrix's worlds on the built-in providers (cells.ts): every
 * row of `_scenario.ts` through scripts/pravo (the narrow permissions a
 * user runs with) and its MCP server through the SDK's client, on SQLite
 * state and on PostgreSQL state (`PRAVO_TEST_PG`, which `.ci/run` starts).
 *
 * @module
 */

import { join } from "node:path";
import { connect } from "../mcp/_client.ts";
import { WORLDS } from "./cells.ts";
import { runWorld, type WorldRoot } from "./_scenario.ts";
import { SCRIPT } from "../mcp/_client.ts";

const PG = Deno.env.get("PRAVO_TEST_PG") ?? "";

/** `a` is a file; `b` a number seeded with its id; the output `first` is its id. */
export const BUILTIN_MAIN = `package matrix

import (
	lc "pravo.dev/providers/hashicorp/local"
	rd "pravo.dev/providers/hashicorp/random"
)

protect: *false | bool @tag(protect,type=bool)

$random: rd.#Provider
$local:  lc.#Provider

a: $local.#Resource.local_file & {
	filename: "a.txt"
	content:  "hello\\n"
	lifecycle: prevent_destroy: protect
}
b: $random.#Resource.random_integer & {min: 1, max: 1000, seed: a.id}

outputs: first: a.id
`;

async function builtinRoot(worldId: string, state?: string): Promise<WorldRoot> {
  const world = WORLDS.find((w) => w.id === worldId)!;
  const home = await Deno.makeTempDir({ prefix: `pravo-matrix-${worldId}-` });
  const root = join(home, "root");
  await Deno.mkdir(root);
  await Deno.writeTextFile(join(root, "main.cue"), BUILTIN_MAIN);
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: home,
    XDG_CACHE_HOME: join(home, "cache"),
    PRAVO_ACTOR: "matrix",
    NO_COLOR: "1",
    ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
    ...(state ? { PRAVO_STATE: state } : {}),
  };
  const command = (args: string[], piped: boolean) =>
    new Deno.Command(SCRIPT, {
      args: ["--no-color", ...args],
      cwd: root,
      env,
      clearEnv: true,
      stdin: "null",
      stdout: piped ? "piped" : "null",
      stderr: piped ? "piped" : "null",
    });
  return {
    world,
    root,
    main: BUILTIN_MAIN,
    typeA: "local_file",
    providerA: "hashicorp/local",
    attrA: "id",
    async run(args) {
      const out = await command(args, true).output();
      return {
        code: out.code,
        stdout: new TextDecoder().decode(out.stdout),
        stderr: new TextDecoder().decode(out.stderr),
      };
    },
    spawn: (args) => command(args, false).spawn(),
    mcp: (args = []) => connect(root, { args, script: true, env }),
    importId: (attrs) => `${attrs.result},${attrs.min},${attrs.max},${attrs.seed}`,
    async driftA() {
      await Deno.writeTextFile(join(root, "a.txt"), "changed behind pravo's back\n");
    },
    migrateTo: state ? "sqlite:.pravo/migrated.db" : migrateTarget(worldId),
  };
}

/** A PostgreSQL target for a SQLite world's migrate: its own root on the test server. */
function migrateTarget(worldId: string): string {
  if (!PG) return "sqlite:.pravo/migrated.db";
  const u = new URL(PG);
  u.searchParams.set("root", `matrix-${worldId}-${crypto.randomUUID().slice(0, 8)}`);
  return u.toString();
}

Deno.test("feature matrix: built-in providers on SQLite state", async (t) => {
  const w = await builtinRoot("builtin-sqlite");
  try {
    await runWorld(t, w);
  } finally {
    await Deno.remove(join(w.root, ".."), { recursive: true });
  }
});

Deno.test({
  name: "feature matrix: built-in providers on PostgreSQL state",
  ignore: !PG,
  async fn(t) {
    const u = new URL(PG);
    u.searchParams.set("root", `matrix-builtin-${crypto.randomUUID().slice(0, 8)}`);
    const w = await builtinRoot("builtin-postgres", u.toString());
    try {
      await runWorld(t, w);
    } finally {
      await Deno.remove(join(w.root, ".."), { recursive: true });
    }
  },
});
