/**
 * Choosing and opening a root's state store from `--state` / `$PRAVO_STATE`.
 *
 * - absent: SQLite in `<root>/.pravo/state.db`;
 * - `sqlite:PATH`: SQLite in PATH (relative to the root);
 * - `postgres://…` / `postgresql://…`: PostgreSQL, not available yet.
 *
 * @module
 */

import { isAbsolute, join, resolve } from "node:path";
import type { Context } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { DiagnosticsError, error } from "../diag/diag.ts";
import { SqliteStore } from "./sqlite.ts";
import type { StateStore } from "./store.ts";

/** The folder in a root that holds pravo's files. */
export const PRAVO_DIR = ".pravo";

/** Where a root's state lives, as chosen by the context. */
export interface StateLocation {
  backend: "sqlite";
  /** The absolute path of the database file. */
  path: string;
  /** True when no `--state` or `$PRAVO_STATE` chose it. */
  isDefault: boolean;
}

/** The state location that `ctx` names; refuses what pravo cannot use. */
export function stateLocation(ctx: Pick<Context, "root" | "state">): StateLocation {
  const given = ctx.state;
  if (given === undefined || given === "") {
    return { backend: "sqlite", path: join(ctx.root, PRAVO_DIR, "state.db"), isDefault: true };
  }
  if (given.startsWith("sqlite:")) {
    const p = given.slice("sqlite:".length);
    if (p === "") {
      throw usage(
        'The state location "sqlite:" names no file',
        "Write sqlite:PATH, such as sqlite:.pravo/state.db (relative to the root).",
      );
    }
    return { backend: "sqlite", path: isAbsolute(p) ? p : resolve(ctx.root, p), isDefault: false };
  }
  if (/^postgres(ql)?:\/\//i.test(given)) {
    throw new DiagnosticsError([
      error(
        "PostgreSQL state is not available yet",
        "--state or $PRAVO_STATE names a PostgreSQL server, but this pravo stores state only " +
          "in SQLite; shared state on PostgreSQL is planned. Unset it to use the root's " +
          ".pravo/state.db, or give sqlite:PATH.",
      ),
    ], Exit.ERROR);
  }
  throw usage(
    `Unknown state location "${withoutPassword(given)}"`,
    "--state and $PRAVO_STATE take sqlite:PATH (relative to the root) or, later, a " +
      "postgres:// URL. Leave both unset for the default, .pravo/state.db in the root.",
  );
}

/**
 * Opens the state store of `ctx.root`. Without `create`, a root whose state
 * does not exist yet is refused: run `pravo init`.
 */
export async function openStore(
  ctx: Pick<Context, "root" | "state">,
  opts: { create?: boolean; now?: () => Date } = {},
): Promise<StateStore> {
  const where = stateLocation(ctx);
  if (!opts.create && !(await exists(where.path))) {
    const what = where.isDefault ? `no ${PRAVO_DIR}/state.db` : `no state store at "${where.path}"`;
    throw new DiagnosticsError([
      error(
        "The root is not initialised",
        `"${ctx.root}" has ${what}. Run \`pravo init\` in ${ctx.root} first.`,
      ),
    ], Exit.ERROR);
  }
  return await SqliteStore.open(where.path, { create: opts.create, now: opts.now });
}

function usage(summary: string, detail: string): DiagnosticsError {
  return new DiagnosticsError([error(summary, detail)], Exit.USAGE);
}

/** A URL with the password of its user info replaced by `***`. */
export function withoutPassword(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/]*):[^@/]*@/i, "$1:***@");
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
}
