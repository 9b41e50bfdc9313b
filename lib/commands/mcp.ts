/**
 * `pravo mcp`: serves pravo to an agent over the Model Context Protocol on
 * stdio. Everything that decides what a tool's process runs, where, and
 * under which policies is read here, once, and pinned (lib/workspace/pinned.ts):
 * the policies' bytes (a relative, missing or unusable one stops the server
 * with exit 5), `pravo.jsonc` and the state location it gives, the lock
 * file, and the global flags. The children get that document on their
 * standard input and read none of those files again.
 *
 * @module
 */

import { relative as relativePath, resolve } from "node:path";
import type { CommandRun, Context, OptionValues } from "../cli/command.ts";
import { UsageError } from "../diag/usage.ts";
import { DiagnosticsError, error } from "../diag/diag.ts";
import { parseDuration } from "../plan/duration.ts";
import { locationFrom, realStatePath, stateServers } from "../state/open.ts";
import { readConfig } from "../config/config.ts";
import type { Pinned, PinnedPlugin } from "../workspace/pinned.ts";
import { LOCK_FILE } from "../providers/install/lock.ts";
import { toBase64 } from "../bytes.ts";
import { digestOf, readLockFileText } from "../workspace/pinned_files.ts";
import type { LoadedConfig, PravoConfig } from "../config/config.ts";
import type { StateLocation } from "../config/location.ts";
import { parseLockFile } from "../providers/install/lock.ts";
import { hashCachePath, pravoCacheHome } from "../providers/install/cache_dir.ts";
import { FileHashCache } from "../providers/install/hash_cache.ts";
import { installationFromEnv, providerExecutable } from "../providers/install/executable.ts";
import {
  checkAbsolutePolicyPath,
  compilePolicy,
  policyPaths,
  readPolicyBytes,
} from "../../policy/mod.ts";
import { loadKey } from "../keys/key.ts";
import {
  ApproverKeyError,
  type ApproverPublicKey,
  loadApproverPublicKey,
} from "../keys/approver.ts";
import { liesInside, realOrResolved as realOf } from "../files/real.ts";

export const DEFAULT_MAX_RESULT_BYTES = 40 * 1024;
/** Tool calls that run at once by default: two, for a 2-core machine. */
export const DEFAULT_MAX_CALLS = 2;
/** The memory of one tool call's process by default, in MiB. */
export const DEFAULT_CALL_MEMORY_MIB = 2048;

function wholeNumber(opts: Record<string, unknown>, flag: string, def: number, min: number) {
  if (opts[flag] === undefined) return def;
  const n = Number(opts[flag]);
  if (!Number.isInteger(n) || n < min) {
    throw new UsageError(
      `--${flag} "${opts[flag]}" is not a whole number of at least ${min}`,
      "mcp",
    );
  }
  return n;
}

/**
 * Each policy read once, compiled from those bytes, and pinned: the
 * children judge with this content whatever happens to the file.
 */
async function pinPolicies(ctx: Context, paths: string[]) {
  const policies: Pinned["policies"] = [];
  const watched: { file: string; what: string; digest: string }[] = [];
  for (const path of paths) {
    const file = resolve(path);
    const bytes = await readPolicyBytes(path, file);
    const policy = await compilePolicy(path, file, bytes);
    policies.push({ path, bytes: toBase64(bytes) });
    watched.push({ file, what: `The policy ${path}`, digest: policy.digest });
    if (liesInside(ctx.root, file) && Deno.stderr.isTerminal()) {
      ctx.streams.stderr(
        `Warning: the policy ${path} lies inside the root, where an agent with an editor can change it. ` +
          `This server judges with the content it read now, but the next start reads the file again: ` +
          `keep policies outside the root.\n`,
      );
    }
  }
  return { policies, watched };
}

/** The approvers the server trusts: only keys named on its own command line, read now, never a file in the root. */
async function trustedApprovers(ctx: Context, opts: OptionValues) {
  const approverPaths = (opts.approver as string[] | undefined) ?? [];
  const requireApproval = Boolean(opts["require-approval"]) || approverPaths.length > 0;
  if (requireApproval && approverPaths.length === 0) {
    throw new UsageError(
      "--require-approval needs the public key of each operator who may approve: add " +
        "--approver /abs/path/FILE.pub (made with `pravo approver-key FILE`, kept outside the root)",
      "mcp",
    );
  }
  const approvers: (ApproverPublicKey & { pem: string })[] = [];
  for (const p of approverPaths) {
    try {
      approvers.push(await loadApproverPublicKey(p, { root: ctx.root }));
    } catch (e) {
      if (e instanceof ApproverKeyError) throw new UsageError(e.message, "mcp");
      throw e;
    }
  }
  return { requireApproval, approvers };
}

/** Where the children keep the state: fixed now, a SQLite file's links resolved. */
function pinnedState(
  ctx: Context,
  config: LoadedConfig,
  requireApproval: boolean,
): StateLocation {
  let state = locationFrom(ctx, config);
  if (state.backend === "sqlite") {
    // The file the children open, links resolved now. Only the operator
    // (--state, $PRAVO_STATE) may put it outside the root: pravo.jsonc and
    // symbolic links in the root are an agent's to edit.
    const real = realStatePath(state.path);
    const operatorNamed = ctx.state !== undefined && ctx.state !== "";
    if (!operatorNamed && !liesInside(ctx.root, real)) {
      throw new DiagnosticsError([
        error(
          `The state file "${state.path}" is outside the root: it leads to ${real}`,
          "pravo.jsonc, or a symbolic link in the root, puts it there, and an agent with an editor can change both. Remove the link, or name a state outside the root with --state or $PRAVO_STATE.",
        ),
      ], "error");
    }
    state = { ...state, path: real };
    if (liesInside(ctx.root, real) && (requireApproval || Deno.stderr.isTerminal())) {
      // What the approvals and the stale check rest on is in the agent's reach.
      ctx.streams.stderr(
        `Warning: the state ${
          relativePath(realOf(ctx.root), real)
        } lies inside the root, where an agent with an editor can ` +
          `delete it, damage it or roll it back (and so make an approved plan apply again in a ` +
          `later session). Keep it outside the root: --state /abs/path/state.db, or a PostgreSQL URL.\n`,
      );
    }
  }
  return state;
}

export const run: CommandRun = async (ctx, opts) => {
  const paths = policyPaths(opts.policy);
  const relative = paths.map(checkAbsolutePolicyPath).filter((d) => d !== undefined);
  if (relative.length) throw new DiagnosticsError(relative, "policy");
  const { policies, watched } = await pinPolicies(ctx, paths);
  const max = wholeNumber(opts, "max-result-bytes", DEFAULT_MAX_RESULT_BYTES, 1024);
  const maxCalls = wholeNumber(opts, "max-calls", DEFAULT_MAX_CALLS, 1);
  const callMemoryMiB = wholeNumber(opts, "call-memory", DEFAULT_CALL_MEMORY_MIB, 256);
  const timeoutText = (opts.timeout as string | undefined) ?? "10m";
  const timeoutMs = parseDuration(timeoutText);
  if (timeoutMs === undefined || timeoutMs <= 0) {
    throw new UsageError(`--timeout "${timeoutText}" is not a duration such as 90s or 10m`, "mcp");
  }
  const { requireApproval, approvers } = await trustedApprovers(ctx, opts);
  // pravo.jsonc is read once: the state location and every other setting
  // are fixed now, not by what an agent writes into the file later.
  const config = readConfig(ctx.root);
  const state = pinnedState(ctx, config, requireApproval);
  const lockFile = readLockFile(ctx.root);
  for (const [file, text] of [[config.path, undefined], [`${ctx.root}/${LOCK_FILE}`, lockFile]]) {
    if (file === undefined) continue;
    watched.push({ file, what: `The file ${file}`, digest: await digestOf(file, text) });
  }
  // The plugin providers of that lock, verified now where they are
  // installed: the only executables the children may run, wherever the lock,
  // pravo.jsonc or the mirrors point later.
  const plugins = lockFile === undefined
    ? []
    : verifyPlugins(ctx.root, lockFile, config.config, (text) => ctx.streams.stderr(text));
  const modules = lockFile === undefined
    ? []
    : await pinModules(ctx.root, lockFile, (text) => ctx.streams.stderr(text));
  const pinned: Pinned = {
    pinned: 1,
    root: ctx.root,
    state,
    config: config.config,
    ...(config.path === undefined ? {} : { configPath: config.path }),
    ...(lockFile === undefined ? {} : { lockFile }),
    ...(plugins.length ? { plugins } : {}),
    ...(modules.length ? { modules } : {}),
    policies,
    tags: ctx.tags,
    actor: ctx.actor,
    reason: ctx.reason,
    ...(opts["read-only"] ? { readOnly: true as const } : {}),
    // Public keys: pravo_show_plan says whether a plan is approved, and by whom.
    ...(approvers.length
      ? { approvers: approvers.map((a) => ({ path: a.path, pem: a.pem })) }
      : {}),
  };
  // The key is read now and handed to each child, which gets no access to
  // the key file: nothing a tool runs can read it from disk.
  const key = loadKey({ root: ctx.root });
  const { serve } = await import("../../mcp/server.ts");
  return await serve({
    root: ctx.root,
    policies: paths,
    actor: ctx.actor,
    reason: ctx.reason || undefined,
    readOnly: Boolean(opts["read-only"]),
    requireApproval,
    approvers,
    maxResultBytes: max,
    timeoutMs,
    maxCalls,
    callMemoryMiB,
    stateServers: stateServers(state),
    // A SQLite state outside the root: the children may read and write
    // that file and its journals, and nothing else out there.
    stateFiles: state.backend === "sqlite" && !liesInside(ctx.root, state.path)
      ? ["", "-wal", "-shm", "-journal"].map((s) => state.path + s)
      : [],
    key: key.encoded(),
    pinned: JSON.stringify(pinned),
    ...(plugins.length
      ? {
        plugins: {
          providers: plugins.map((p) => ({ executable: p.executable, packageDir: p.packageDir })),
          pravoCache: pravoCacheHome(envOf),
          socketBase: envOf("PRAVO_PLUGIN_SOCKET_DIR"),
        },
      }
      : {}),
    operatorTags: ctx.tags,
    watched,
    log: (text) => ctx.streams.stderr(text),
  });
};

function envOf(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

/**
 * The CUE dependency modules of the lock (its text as pinned), read from
 * pravo's cache now and checked against their digests: the children read
 * these bytes, whatever the lock, module.cue or the cache hold later. One
 * that cannot be read is left out, with a note: a plan that imports it
 * says to run `pravo init` and start the server again.
 */
async function pinModules(
  root: string,
  lockText: string,
  note: (text: string) => void,
): Promise<NonNullable<Pinned["modules"]>> {
  let lock;
  try {
    lock = parseLockFile(lockText, `${root}/${LOCK_FILE}`);
  } catch (e) {
    if (!(e instanceof DiagnosticsError)) throw e;
    return []; // said with the plugin providers
  }
  const entries = Object.entries(lock.modules ?? {});
  if (entries.length === 0) return [];
  const { moduleCacheDir, cachedModuleZip } = await import("../cue/module_cache.ts");
  const dir = moduleCacheDir(envOf);
  const out: NonNullable<Pinned["modules"]> = [];
  for (const [module, m] of entries) {
    const zip = dir ? cachedModuleZip(dir, m.digest) : undefined;
    if (!zip) {
      note(
        `Warning: the module ${module} ${m.version} that pravo.lock.json pins is not in pravo's cache with its digest: a plan that imports it fails until an operator runs \`pravo init\` and starts the server again.\n`,
      );
      continue;
    }
    out.push({ module, version: m.version, digest: m.digest, zip: toBase64(zip) });
  }
  return out;
}

/**
 * Verifies each plugin provider of the lock (its text as pinned) where it is
 * installed: the plugin cache, then the mirrors. One that cannot be
 * verified is left out, with a note: the children may not run it.
 */
function verifyPlugins(
  root: string,
  lockText: string,
  config: PravoConfig,
  note: (text: string) => void,
): PinnedPlugin[] {
  let lock;
  try {
    lock = parseLockFile(lockText, `${root}/${LOCK_FILE}`);
  } catch (e) {
    if (!(e instanceof DiagnosticsError)) throw e;
    note(`Warning: ${e.diagnostics[0].summary}: no plugin provider can run in this server.\n`);
    return [];
  }
  const entries = Object.entries(lock.plugins);
  if (entries.length === 0) return [];
  const hashCache = new FileHashCache(hashCachePath(envOf));
  const mirrors = (config.provider_mirrors ?? []).map((m) => m.path);
  const out: PinnedPlugin[] = [];
  for (const [address, entry] of entries.sort(([a], [b]) => a < b ? -1 : 1)) {
    try {
      const installation = installationFromEnv(envOf, Deno.cwd(), hashCache);
      const v = providerExecutable(root, address, entry, { ...installation, mirrors });
      out.push({
        address,
        version: entry.version,
        packageDir: v.packageDir,
        executable: v.executable,
        hashes: entry.hashes,
      });
    } catch (e) {
      if (!(e instanceof DiagnosticsError)) throw e;
      const d = e.diagnostics[0];
      note(`Warning: ${d.summary}. ${d.detail} Until then, the tools cannot use ${address}.\n`);
    }
  }
  return out;
}

function readLockFile(root: string): string | undefined {
  const path = `${root}/${LOCK_FILE}`;
  try {
    return readLockFileText(root);
  } catch (e) {
    throw new DiagnosticsError([
      error(
        `Cannot read "${path}"`,
        `${
          (e as Error).message.replace(/^./, (c) => c.toUpperCase())
        }. Make it the plain file \`pravo init\` writes (run \`pravo init\` to write it again).`,
      ),
    ], "error");
  }
}
