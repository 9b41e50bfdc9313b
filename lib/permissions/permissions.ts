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
 * - `--allow-write` of the root: the specification, plan files and the
 *   state under `.pravo/` live there.
 * - read and write of a SQLite state outside the root (`extraWrite`), for
 *   the MCP server's children when the server was told the state lives
 *   there: that file and its journals, nothing else.
 * - read and write of the folder of pravo's key (`keyDir`, lib/keys/key.ts),
 *   outside the root, when the key comes from a file: the key is read there,
 *   and made there the first time. The MCP server's children get no access
 *   to it: the server passes them the key in `$PRAVO_KEY`.
 * - read of the files outside the root that the command line names for
 *   reading: `--policy`, `--approver` and `approve --key` (and
 *   `$PRAVO_APPROVER_KEY` when it names a file); read and write of the two
 *   files `approver-key FILE` makes (and read of their folder, to find its
 *   real path). The operator chose them; no tool argument reaches them.
 * - `--allow-env` of the variables pravo reads, and no others ({@link ENV_VARS}).
 * - `--allow-run` of the deno executable alone (`Deno.execPath()`, the real
 *   binary and not the `node_modules/.bin` symlink, which Deno would not
 *   match), so that `pravo mcp` can run pravo and nothing else.
 * - `--allow-sys=hostname,uid,gid,userInfo` alone: the state store records
 *   the host name of a lock's holder (lib/state/lock/holder.ts), so that a lock
 *   says where it is held; and the actor, when neither `--actor`,
 *   `$PRAVO_ACTOR`, `$USER` nor `$LOGNAME` names one, is the user's name in
 *   the host's user database (`node:os` `userInfo()`, which needs the other
 *   three).
 * - `--allow-net` only where the state lives on PostgreSQL (the `allowNet`
 *   option): to that server's HOST:PORT and nowhere else, with read access to
 *   the variables the driver and pravo read for it ({@link PG_ENV_VARS}).
 * - For `pravo init` of a root whose `pravo.jsonc` requires plugin providers
 *   (the `install` option): read and write of the plugin cache and of
 *   pravo's cache folder (the file hashes), read of the mirrors of
 *   `provider_mirrors`, and the network, to any host: a registry names the
 *   hosts its packages download from only in its answers. The command that
 *   runs providers gets none of this.
 * - For a run that starts plugin providers (the `plugins` option): running
 *   exactly their executables (absolute, links resolved, verified against
 *   the lock by `lib/providers/install/executable.ts`), reading their package
 *   directories, and reading and writing pravo's cache folder, where the
 *   file hashes that make the verification cheap are kept, and the schemas
 *   of the providers (lib/providers/plugin/schema_cache.ts). A provider's
 *   gRPC connection is a unix socket: read and write of the socket
 *   directory pravo is given (`$PRAVO_PLUGIN_SOCKET_DIR`), and
 *   `--allow-net=unix:DIR/pN.sock` for its few socket names, nothing else of
 *   the network; and the variables the gRPC library reads
 *   ({@link PLUGIN_ENV_VARS}). A provider process is not bound by Deno's
 *   permissions: it runs with the user's operating-system privileges, as
 *   under Terraform, and reads its credentials from the environment pravo
 *   passes it (lib/plugin/env.ts).
 * - Read of the modules folder of pravo's cache (the `modules` option), for
 *   a root whose `pravo.lock.json` pins CUE dependency modules fetched from
 *   a registry (lib/cue/module_cache.ts): their zips are read there, and
 *   checked against the lock. `pravo init` fetches them with the `install`
 *   grant's network and cache, reading `$CUE_REGISTRY`. The MCP server's
 *   children get none: the server pins the bytes it read at start.
 * - No `--allow-ffi`, and no other `--allow-sys`: nothing pravo does needs
 *   them (cue-wasm evaluates with none of them; node:sqlite needs only read
 *   and write of its file). Reading `/proc/PID/stat`, which the
 *   lock code tries, would need `--allow-all` in Deno, so it is not granted:
 *   a SQLite lock's holder keeps an advisory lock on a beacon file beside the
 *   state instead (lib/state/sqlite/beacon.ts), which the kernel drops when the
 *   holder's process ends, and which reading the root is enough to test.
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
  "PRAVO_KEY",
  "PRAVO_KEY_FILE",
  "XDG_CONFIG_HOME",
  "XDG_CACHE_HOME",
  "TF_PLUGIN_CACHE_DIR",
  "PRAVO_TEST_REGISTRY_OVERRIDE",
  "PRAVO_APPROVER_KEY",
  "PRAVO_PLUGIN_SOCKET_DIR",
  "LOGNAME",
  "PRAVO_TEST_PROGRESS_INTERVAL_MS",
  "PRAVO_PROGRAM",
  "CUE_REGISTRY",
];

/**
 * The variables the gRPC library reads where plugin providers run (its
 * logging, tracing, TLS roots and proxies: lib/plugin/env.ts
 * `GRPC_ENV_VARS`), added to `--allow-env` with the `plugins` option.
 */
export const PLUGIN_ENV_VARS: readonly string[] = [
  "GRPC_NODE_VERBOSITY",
  "GRPC_VERBOSITY",
  "GRPC_NODE_TRACE",
  "GRPC_TRACE",
  "GRPC_DEFAULT_SSL_ROOTS_FILE_PATH",
  "GRPC_EXPERIMENTAL_ENABLE_OUTLIER_DETECTION",
  "GRPC_NODE_DEBUG_SEND_ERROR_DETAILS",
  "GRPC_NODE_USE_ALTERNATIVE_RESOLVER",
  "GRPC_SSL_CIPHER_SUITES",
  "grpc_proxy",
  "http_proxy",
  "https_proxy",
  "no_grpc_proxy",
  "no_proxy",
];

/** The socket names granted in a socket directory (lib/providers/plugin/launch.ts). */
export const PLUGIN_SOCKETS: readonly string[] = Array.from({ length: 8 }, (_, i) => `p${i}.sock`);

/**
 * The variables read when the state is on PostgreSQL, added to `--allow-env`
 * with `allowNet`: the password and user pravo reads, and the two the
 * `postgres` driver reads whatever it is given.
 */
export const PG_ENV_VARS: readonly string[] = [
  "PGPASSWORD",
  "PGUSER",
  "PGAPPNAME",
  "PGTARGETSESSIONATTRS",
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
  /**
   * Files outside the root the run must read: the MCP server's policies and
   * approvers' public keys (`--approver`), an approver's private key
   * (`approve --key`, `$PRAVO_APPROVER_KEY`).
   */
  extraRead?: readonly string[];
  /**
   * Files outside the root the run must write: the key pair that
   * `approver-key FILE` makes (FILE and FILE.pub); a SQLite state that
   * `pravo mcp` was told lives elsewhere (the file and its journals, also
   * given in `extraRead`).
   */
  extraWrite?: readonly string[];
  /**
   * The folder of pravo's key file, outside the root: read and write (the
   * key is made there the first time). None when the key comes from
   * `$PRAVO_KEY`, and for the MCP server's children.
   */
  keyDir?: string;
  /**
   * The PostgreSQL servers of the state, as `HOST:PORT` (`[::1]:5432` for
   * IPv6): network access to these alone, and {@link PG_ENV_VARS}. None
   * (the default) for a state in SQLite.
   */
  allowNet?: readonly string[];
  /**
   * Allow running the deno executable (default true): `pravo mcp` needs it to
   * run its tools. The server's children run no program and get none.
   */
  allowRun?: boolean;
  /**
   * Plugin providers the run may start: their executables and package
   * directories (as `verifyLockedProviders()` returns them), and pravo's
   * cache folder for the file hashes.
   */
  plugins?: {
    providers: readonly { executable: string; packageDir: string }[];
    pravoCache?: string;
    /** The directory of the providers' sockets (`$PRAVO_PLUGIN_SOCKET_DIR`), absolute. */
    socketDir?: string;
    /**
     * Whether the run may start them (default true); false for `pravo mcp`,
     * which verifies the packages at start and runs no provider itself.
     */
    run?: boolean;
  };
  /** The modules folder of pravo's cache, absolute: read only. */
  modules?: string;
  /**
   * `pravo init` installing plugin providers: the plugin cache and pravo's
   * cache folder (read and write), the mirrors (read), and the network.
   */
  install?: {
    /** The plugin cache, absolute. */
    cacheDir: string;
    /** pravo's cache folder (the file hashes), absolute, when there is one. */
    pravoCache?: string;
    /** The mirrors of `provider_mirrors`, absolute. */
    mirrors: readonly string[];
  };
}

/**
 * The permission flags for one run of pravo on `root`.
 *
 * @example
 * ```ts
 * import { permissionFlags } from "./permissions.ts";
 * const flags = permissionFlags({
 *   root: "/srv/demo",
 *   execPath: "/opt/pravo/node_modules/deno/deno",
 *   projectDir: "/opt/pravo",
 *   programFiles: ["main.ts"],
 * });
 * if (flags.join(" ") !== "--no-prompt --allow-read=/srv/demo,/opt/pravo/main.ts " +
 *   "--allow-write=/srv/demo --allow-env=PRAVO_ACTOR,PRAVO_REASON,PRAVO_STATE,NO_COLOR," +
 *   "USER,HOME,DENO_DIR,TMPDIR,PRAVO_KEY,PRAVO_KEY_FILE,XDG_CONFIG_HOME,XDG_CACHE_HOME," +
 *   "TF_PLUGIN_CACHE_DIR,PRAVO_TEST_REGISTRY_OVERRIDE,PRAVO_APPROVER_KEY," +
 *   "PRAVO_PLUGIN_SOCKET_DIR,LOGNAME,PRAVO_TEST_PROGRESS_INTERVAL_MS,PRAVO_PROGRAM,CUE_REGISTRY " +
 *   "--allow-run=/opt/pravo/node_modules/deno/deno " +
 *   "--allow-sys=hostname,uid,gid,userInfo") {
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
  const extraWrite = (options.extraWrite ?? []).map((f) => checkedPath("extraWrite", f));
  const keyDir = options.keyDir === undefined ? [] : [checkedPath("keyDir", options.keyDir)];
  const net = [...new Set((options.allowNet ?? []).map(checkedHostPort))];
  const install = options.install;
  const caches = install
    ? [install.cacheDir, ...(install.pravoCache ? [install.pravoCache] : [])].map((p) =>
      checkedPath("install", p)
    )
    : [];
  const mirrors = (install?.mirrors ?? []).map((p) => checkedPath("install", p));
  const plugins = options.plugins?.providers ?? [];
  const runsPlugins = options.plugins !== undefined && options.plugins.run !== false;
  const executables = runsPlugins ? plugins.map((p) => checkedPath("plugins", p.executable)) : [];
  const packageDirs = plugins.map((p) => checkedPath("plugins", p.packageDir));
  const hashes = options.plugins?.pravoCache
    ? [checkedPath("plugins", options.plugins.pravoCache)]
    : [];
  const socketDir = options.plugins?.socketDir
    ? [checkedPath("plugins", options.plugins.socketDir)]
    : [];
  const sockets = runsPlugins
    ? socketDir.flatMap((d) => PLUGIN_SOCKETS.map((n) => `unix:${d}/${n}`))
    : [];
  const unique = (list: string[]) => [...new Set(list)];
  const run = unique([...(options.allowRun === false ? [] : [execPath]), ...executables]);
  const modules = options.modules === undefined ? [] : [checkedPath("modules", options.modules)];
  const reads = [
    root,
    ...files,
    ...extra,
    ...keyDir,
    ...caches,
    ...mirrors,
    ...packageDirs,
    ...modules,
  ];
  const env = [
    ...ENV_VARS,
    ...(net.length ? PG_ENV_VARS : []),
    ...(runsPlugins ? PLUGIN_ENV_VARS : []),
  ];
  const allNet = [...net, ...sockets];
  return [
    "--no-prompt",
    `--allow-read=${unique([...reads, ...hashes, ...socketDir]).join(",")}`,
    `--allow-write=${
      unique([root, ...extraWrite, ...keyDir, ...caches, ...hashes, ...socketDir]).join(",")
    }`,
    `--allow-env=${env.join(",")}`,
    ...(run.length ? [`--allow-run=${run.join(",")}`] : []),
    "--allow-sys=hostname,uid,gid,userInfo",
    ...(install ? ["--allow-net"] : allNet.length ? [`--allow-net=${allNet.join(",")}`] : []),
  ];
}

/** A `HOST:PORT` for `--allow-net`: a port is required, and no comma or space. */
function checkedHostPort(hp: string): string {
  if (!/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+):\d{1,5}$/.test(hp)) {
    throw new Error(`allowNet "${hp}" must be HOST:PORT, such as db.internal:5432`);
  }
  return hp;
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
