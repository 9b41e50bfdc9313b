/**
 * Choosing and opening a root's state store.
 *
 * The location comes from, first to last: `--state`, `$PRAVO_STATE`, the
 * `state.url` of the root's `pravo.jsonc`, and the default:
 *
 * - absent: SQLite in `<root>/.pravo/state.db`;
 * - `sqlite:PATH`: SQLite in PATH (relative to the root);
 * - `postgres://USER[:PASSWORD]@HOST[:PORT][,HOST2...]/DATABASE[?root=KEY&...]`
 *   (or `postgresql://`): PostgreSQL, shared by many roots, each under its
 *   root key (`?root=KEY`, else `state.root` in `pravo.jsonc`).
 *
 * In a child of `pravo mcp`, the location is the one the server pinned at
 * start, whatever these say now (lib/workspace/pinned.ts).
 *
 * A password is never printed: {@linkcode withoutPassword} takes it out of
 * every URL that reaches a message, and a location's `path` never holds it.
 *
 * @module
 */

import { basename, dirname, isAbsolute, join, resolve, sep } from "node:path";
import { DiagnosticsError, error } from "../diag/diag.ts";
import type { LoadedConfig } from "../config/config.ts";
import { CONFIG_FILE, ROOT_KEY, SCHEMA_NAME } from "../config/names.ts";
import { type Pinned, readOnlyRun } from "../workspace/pinned.ts";
import { SqliteStore } from "./sqlite/store.ts";
import { defaultKeySource } from "../secrets/seal.ts";
import type { StateStore } from "./store.ts";
import type { PgHost, PostgresLocation, StateLocation } from "../config/location.ts";
import type { TypeLookup } from "../providers/registry.ts";
import type { Workspace } from "../workspace/types.ts";
import type { Interrupts } from "../workspace/interrupts.ts";
import type { HoldFor } from "./lock/held.ts";

/** The folder in a root that holds pravo's files. */
export const PRAVO_DIR = ".pravo";

/** The PostgreSQL schema of pravo's tables unless one is named. */
export const DEFAULT_SCHEMA = "pravo";

/** What chooses the state of a command: its root, and `--state` or `$PRAVO_STATE` if given. */
export interface StateChoice {
  /** The root directory, absolute. */
  root: string;
  /** The state location from `--state` or `$PRAVO_STATE`, if any. */
  state?: string;
  /**
   * The command's workspace: its registry tells the store which attributes
   * a type's schema marks sensitive. Without one (tests, tools), the
   * built-in providers' types alone.
   */
  workspace?: Pick<Workspace, "registry" | "pinned" | "config">;
  /** The command's interrupts: the store marks the state lock it takes held for them. */
  interrupts?: Pick<Interrupts, "hold">;
}

/** The URL parameters pravo reads; others are refused. */
const PG_PARAMS = ["root", "schema", "sslmode", "connect_timeout"];

/**
 * The state location that `ctx` names; refuses what pravo cannot use. In a
 * child of `pravo mcp` it is the location the server pinned when it started
 * (lib/workspace/pinned.ts): no file in the root can move it.
 */
export async function stateLocation(
  ctx: StateChoice,
): Promise<StateLocation> {
  const pinned = ctx.workspace?.pinned;
  if (pinned) return pinned.state;
  return locationFrom(ctx, ctx.workspace ? ctx.workspace.config : await configOf(ctx.root));
}

/**
 * `readConfig(root)` (config.ts), whose module (jsonc-parser, `node:fs`) is
 * loaded only when the root has something named pravo.jsonc: a root without
 * one reads as readConfig reads a missing file, without that cost.
 */
async function configOf(root: string): Promise<LoadedConfig> {
  try {
    Deno.lstatSync(join(root, CONFIG_FILE));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { config: {} };
    // anything else: readConfig says it as it always has
  }
  const { readConfig } = await import("../config/config.ts");
  return readConfig(root);
}

/**
 * The state location from `ctx.state` and a `pravo.jsonc` already read:
 * `pravo mcp` reads the file once and pins both.
 */
export function locationFrom(
  ctx: StateChoice,
  loaded: LoadedConfig,
): StateLocation {
  const { config, path: configPath } = loaded;
  const fromConfig = config.state ?? {};
  const flagged = ctx.state !== undefined && ctx.state !== "";
  const given = flagged ? ctx.state! : fromConfig.url;
  const source = flagged ? "--state or $PRAVO_STATE" : `state.url in ${configPath}`;
  if (given === undefined || given === "") {
    return { backend: "sqlite", path: join(ctx.root, PRAVO_DIR, "state.db"), isDefault: true };
  }
  if (given.startsWith("sqlite:")) {
    const p = given.slice("sqlite:".length);
    if (p === "") {
      throw usage(
        'The state location "sqlite:" names no file',
        `${source} says sqlite: alone. Write sqlite:PATH, such as sqlite:.pravo/state.db ` +
          "(relative to the root).",
      );
    }
    return { backend: "sqlite", path: isAbsolute(p) ? p : resolve(ctx.root, p), isDefault: false };
  }
  if (/^postgres(ql)?:\/\//i.test(given)) {
    return postgresLocation(given, {
      root: fromConfig.root,
      schema: fromConfig.schema,
      lineage: fromConfig.lineage,
      source,
    });
  }
  throw usage(
    `Unknown state location "${withoutPassword(given)}"`,
    `${source} must be sqlite:PATH (relative to the root) or a postgres:// URL. ` +
      "Leave both unset for the default, .pravo/state.db in the root.",
  );
}

/**
 * Reads a `postgres://` URL. The root key and schema come from the URL's
 * `root` and `schema` parameters, else from `defaults` (pravo.jsonc).
 *
 * @example
 * ```ts
 * import { postgresLocation } from "./open.ts";
 * const l = postgresLocation("postgres://ci:s3cret@db:6432/infra?root=web");
 * if (l.path !== "postgres://ci@db:6432/infra?root=web" || l.password !== "s3cret") {
 *   throw new Error(l.path);
 * }
 * ```
 */
export function postgresLocation(
  url: string,
  defaults: { root?: string; schema?: string; lineage?: string; source?: string } = {},
): PostgresLocation {
  const shown = withoutPassword(url);
  const source = defaults.source ?? "The URL";
  const m = /^postgres(?:ql)?:\/\/(?:([^@]*)@)?([^/?#@]*)(?:\/([^?#]*))?(?:\?([^#]*))?$/i.exec(url);
  if (!m) {
    throw usage(
      `Cannot read the PostgreSQL URL "${shown}"`,
      `${source} must have the form postgres://USER@HOST:PORT/DATABASE?root=KEY.`,
    );
  }
  const [, userinfo, hostlist, dbPart, query] = m;
  let user: string | undefined;
  let password: string | undefined;
  if (userinfo !== undefined) {
    const colon = userinfo.indexOf(":");
    user = decode(colon < 0 ? userinfo : userinfo.slice(0, colon), shown);
    if (colon >= 0) password = decode(userinfo.slice(colon + 1), shown);
    if (user === "") user = undefined;
  }
  const hosts: PgHost[] = [];
  for (const h of hostlist.split(",")) {
    const hm = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(h);
    if (!hm) {
      throw usage(
        `The PostgreSQL URL "${shown}" names no server`,
        `${source} must name HOST or HOST:PORT after the user, such as db.internal:5432.`,
      );
    }
    hosts.push({ host: hm[1], port: hm[2] === undefined ? 5432 : Number(hm[2]) });
  }
  const database = decode(dbPart ?? "", shown);
  if (database === "") {
    throw usage(
      `The PostgreSQL URL "${shown}" names no database`,
      `${source} must end in /DATABASE, such as postgres://pravo@db:5432/infra.`,
    );
  }
  const params = new URLSearchParams(query ?? "");
  for (const k of params.keys()) {
    if (!PG_PARAMS.includes(k)) {
      throw usage(
        `Unknown parameter "${k}" in the PostgreSQL URL "${shown}"`,
        `pravo reads these parameters: ${PG_PARAMS.join(", ")}. Remove the others.`,
      );
    }
  }
  const rootKey = params.get("root") ?? defaults.root;
  if (rootKey === undefined || rootKey === "") {
    throw usage(
      "The PostgreSQL state location names no root key",
      `Many roots can share one database, so each has a key. Add ?root=KEY to the URL ` +
        `("${shown}"), or set "state": {"root": "KEY"} in the root's ${CONFIG_FILE}.`,
    );
  }
  if (!ROOT_KEY.test(rootKey)) {
    throw usage(
      `The root key "${rootKey}" is not valid`,
      "Use 1 to 200 letters, digits and the characters . _ - /, such as network/prod.",
    );
  }
  const schema = params.get("schema") ?? defaults.schema ?? DEFAULT_SCHEMA;
  if (!SCHEMA_NAME.test(schema)) {
    throw usage(
      `The schema name "${schema}" is not valid`,
      "Use lower-case letters, digits and _, starting with a letter or _, such as pravo.",
    );
  }
  const sslmode = params.get("sslmode") ?? "disable";
  if (sslmode !== "disable" && sslmode !== "require" && sslmode !== "verify-full") {
    throw usage(
      `The sslmode "${sslmode}" is not one pravo knows`,
      "Use sslmode=disable, require or verify-full.",
    );
  }
  const timeoutText = params.get("connect_timeout") ?? "10";
  const connectTimeout = Number(timeoutText);
  if (!Number.isInteger(connectTimeout) || connectTimeout < 1) {
    throw usage(
      `The connect_timeout "${timeoutText}" is not a whole number of seconds`,
      "Give connect_timeout=N with N at least 1.",
    );
  }
  const out = new URLSearchParams({ root: rootKey });
  if (schema !== DEFAULT_SCHEMA) out.set("schema", schema);
  const who = user === undefined ? "" : `${encodeURIComponent(user)}@`;
  const where = hosts.map((h) => `${h.host}:${h.port}`).join(",");
  return {
    backend: "postgres",
    path: `postgres://${who}${where}/${encodeURIComponent(database)}?${out}`,
    isDefault: false,
    hosts,
    database,
    ...(user === undefined ? {} : { user }),
    ...(password === undefined ? {} : { password }),
    rootKey,
    schema,
    sslmode,
    connectTimeout,
    ...(defaults.lineage === undefined ? {} : { lineage: defaults.lineage }),
  };
}

/**
 * The `HOST:PORT` of each server a location needs, for Deno's `--allow-net`
 * (`permissionFlags({ allowNet })` in lib/permissions/permissions.ts): none for SQLite.
 *
 * @example
 * ```ts
 * import { postgresLocation, stateServers } from "./open.ts";
 * const l = postgresLocation("postgres://ci@db,[::1]:6432/infra?root=web");
 * if (stateServers(l).join(" ") !== "db:5432 [::1]:6432") throw new Error("wrong");
 * ```
 */
export function stateServers(where: StateLocation): string[] {
  return where.backend === "postgres" ? where.hosts.map((h) => `${h.host}:${h.port}`) : [];
}

/**
 * Opens the state store of `ctx.root`. Without `create`, a root whose state
 * does not exist yet is refused: run `pravo init`. With `readOnly` (the
 * commands that only read), a SQLite state is opened for reading only, so
 * that it can be read on a read-only file system.
 */
export async function openStore(
  ctx: StateChoice,
  opts: { create?: boolean; now?: () => Date; readOnly?: boolean } = {},
): Promise<StateStore> {
  const ws = ctx.workspace;
  // The registry is built at the first lookup: a store that meets no record reads no lock.
  const types: TypeLookup | undefined = ws && ((s, m, n) => ws.registry.findType(s, m, n));
  return await openLocation(await stateLocation(ctx), {
    ...opts,
    root: ctx.root,
    types,
    pinned: ctx.workspace?.pinned,
    hold: ctx.interrupts && ((what: string) => ctx.interrupts!.hold(what)),
  });
}

/** Opens the store at `where`; `root` names the root in messages. */
export async function openLocation(
  where: StateLocation,
  given: {
    create?: boolean;
    now?: () => Date;
    root?: string;
    readOnly?: boolean;
    /** Looks up a record's type for its sensitive attributes; default the built-in providers'. */
    types?: TypeLookup;
    /** What `pravo mcp` pinned, in a child of the server. */
    pinned?: Pinned;
    /** Marks the state lock held for the command's interrupts; default none. */
    hold?: HoldFor;
  } = {},
): Promise<StateStore> {
  // A child of `pravo mcp --read-only` writes nothing, whatever it runs.
  const readOnly = readOnlyRun(given.pinned);
  const opts = readOnly ? { ...given, readOnly: true, create: false } : given;
  if (where.backend === "postgres") {
    // Loaded only here, so that SQLite users never load the driver.
    const { PostgresStore } = await import("./postgres/store.ts");
    return await PostgresStore.open(where, {
      create: opts.create,
      now: opts.now,
      key: defaultKeySource(opts.root),
      types: opts.types,
      hold: opts.hold,
      // Enforced by the server (every transaction read-only) for pravo mcp --read-only.
      readOnly,
    });
  }
  if (opts.pinned && realStatePath(where.path) !== where.path) {
    // A child of pravo mcp opens the file the server resolved at start: a
    // symbolic link made since (by an agent, in the root) is refused, not followed.
    throw new DiagnosticsError([
      error(
        `The state file "${where.path}" is not where it was when pravo mcp started`,
        `It, or a folder above it, is now a symbolic link to ${
          realStatePath(where.path)
        }. Nothing was read or written. Remove the link; an agent with an editor may have made it.`,
      ),
    ], "error");
  }
  if (where.isDefault && opts.root !== undefined && !opts.pinned) {
    // The default state is the root's own .pravo/state.db. A symbolic link
    // there (.pravo itself, or the file) is an agent's to make, and would
    // move every command to another root's state: refused, not followed.
    const real = realStatePath(where.path);
    let rootReal = resolve(opts.root);
    try {
      rootReal = Deno.realPathSync(opts.root);
    } catch {
      // a root that does not exist holds no link
    }
    if (real !== rootReal && !real.startsWith(rootReal + sep)) {
      throw new DiagnosticsError([
        error(
          `The state file "${where.path}" leads outside the root, to ${real}`,
          `${PRAVO_DIR}, or the file in it, is a symbolic link, and an agent with an editor in the root can make one: pravo does not follow it. Remove the link; to keep the state elsewhere, name it with --state or $PRAVO_STATE.`,
        ),
      ], "error");
    }
  }
  if (!opts.create && !(await exists(where.path))) {
    const what = where.isDefault ? `no ${PRAVO_DIR}/state.db` : `no state store at "${where.path}"`;
    const root = opts.root ?? "the root";
    throw new DiagnosticsError([
      error(
        "The root is not initialised",
        `"${root}" has ${what}. Run \`pravo init\` in ${root} first.`,
      ),
    ], "error");
  }
  return await SqliteStore.open(where.path, {
    create: opts.create,
    now: opts.now,
    key: defaultKeySource(opts.root),
    readOnly: opts.readOnly,
    types: opts.types,
    hold: opts.hold,
  });
}

/**
 * The path of a SQLite state with every symbolic link resolved: of the file
 * when it exists, else of the nearest folder above it that exists.
 */
export function realStatePath(path: string): string {
  const rest: string[] = [];
  let probe = resolve(path);
  for (;;) {
    try {
      return join(Deno.realPathSync(probe), ...rest);
    } catch {
      const up = dirname(probe);
      if (up === probe) return resolve(path);
      rest.unshift(basename(probe));
      probe = up;
    }
  }
}

function usage(summary: string, detail: string): DiagnosticsError {
  return new DiagnosticsError([error(summary, detail)], "usage");
}

function decode(s: string, shown: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    throw usage(
      `Cannot read the PostgreSQL URL "${shown}"`,
      "A part of it is not valid percent-encoding. Write a % as %25.",
    );
  }
}

/**
 * A URL with the password of its user info replaced by `***`. Everything up
 * to the last `@` is taken as user info, so that a password holding an `@`
 * does not leak its end.
 */
export function withoutPassword(url: string): string {
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([\s\S]*)$/i.exec(url);
  if (!m) return url;
  const rest = m[2];
  const at = rest.lastIndexOf("@");
  if (at < 0) return url;
  const colon = rest.slice(0, at).indexOf(":");
  if (colon < 0) return url;
  return m[1] + rest.slice(0, colon) + ":***" + rest.slice(at);
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
