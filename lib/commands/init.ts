/**
 * `pravo init`: prepares a root. Creates `.pravo/` and the state store (or
 * keeps the one there, with its lineage); installs the plugin providers that
 * `pravo.jsonc` requires into the plugin cache (from the mirrors of
 * `provider_mirrors`, the registries, or the cache itself: see
 * `lib/providers/install/installer.ts`); and pins in `pravo.lock.json` the
 * versions of the providers pravo ships and the version, constraints and
 * hashes of each plugin provider. A locked version is kept unless
 * `-upgrade`. Running it again is harmless. No CUE is loaded.
 *
 * @module
 */

import { join } from "node:path";
import { type CommandRun, emit, emitWarnings } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { type Diagnostic, DiagnosticsError, error } from "../diag/diag.ts";
import { displayAddress, parseProviderSource } from "../providers/install/address.ts";
import { hashCachePath, providerCacheDir } from "../providers/install/cache_dir.ts";
import { FileHashCache } from "../providers/install/hash_cache.ts";
import { REGISTRY_OVERRIDE_ENV, registryOverrides } from "../providers/install/http.ts";
import {
  type InstalledProvider,
  installProviders,
  type LockedPlugin,
} from "../providers/install/installer.ts";
import { LOCK_FILE, type LockFileContent, lockFileText } from "../providers/install/lock.ts";
import { currentPlatform } from "../providers/install/platform.ts";
import { RegistrySource } from "../providers/install/registry_source.ts";
import { InstallError } from "../providers/install/source.ts";
import { PROVIDERS } from "../providers/registry.ts";
import type { ProviderSchema } from "../providers/schema.ts";
import { readConfig } from "../config/config.ts";
import { openStore, PRAVO_DIR, stateLocation } from "../state/open.ts";
import { loadKey } from "../keys/key.ts";
import { writeFileAtomic } from "../files/atomic.ts";
import { type InitDoc, type InstalledDoc, type ProviderLock, renderInit } from "../render/init.ts";

export { LOCK_FILE };

function env(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined; // no permission to read it: as if unset
  }
}

export const run: CommandRun = async (ctx, opts) => {
  await requireDirectory(ctx.root);
  // pravo's key, made when missing: plan files are sealed with it.
  const key = loadKey({ root: ctx.root, create: true });
  const { config } = ctx.workspace.config;
  const previous = ctx.workspace.lock;
  // Providers first: when one cannot be installed, the root is left as it was.
  const plugins = await installPlugins(ctx, config, previous, Boolean(opts.upgrade));
  // Then the CUE dependency modules of cue.mod/module.cue (lib/cue/install_modules.ts).
  const { installModules } = await import("../cue/install_modules.ts");
  const modules = await installModules({
    root: ctx.root,
    previous: previous?.modules,
    upgrade: Boolean(opts.upgrade),
    env,
    onFetch: (module, version, host) => {
      if (!ctx.json) ctx.streams.stderr(`Downloading ${module} ${version} from ${host}...\n`);
    },
  });
  const where = await stateLocation(ctx);
  if (where.isDefault) await makePravoDir(ctx.root);
  const store = await openStore(ctx, { create: true });
  let identity;
  try {
    identity = await store.identity();
  } finally {
    await store.close();
  }
  const lock = providerLock(PROVIDERS, plugins.locked);
  const lockPath = join(ctx.root, LOCK_FILE);
  const status = await writeLockFile(lockPath, lock, modules?.locked ?? {});
  const removed = Object.keys(previous?.plugins ?? {}).filter((a) => !(a in plugins.locked))
    .sort();
  const doc: InitDoc = {
    format_version: "1.0",
    root: ctx.root,
    state: {
      backend: store.location.backend,
      path: store.location.path,
      lineage: identity.lineage,
      serial: identity.serial,
      created: store.created,
    },
    key: { fingerprint: key.fingerprint, source: key.source, created: key.created },
    providers: lock.providers,
    installed: plugins.installed.map(installedDoc),
    removed,
    ...(plugins.cache ? { plugin_cache: plugins.cache } : {}),
    ...(modules ? { modules: modules.modules } : {}),
    warnings: plugins.warnings,
    lock_file: { path: lockPath, status },
  };
  emitWarnings(ctx, plugins.warnings);
  emit(ctx, doc, () => renderInit(doc, ctx.style));
  return Exit.OK;
};

function installedDoc(p: InstalledProvider): InstalledDoc {
  return {
    address: p.address,
    version: p.lock.version,
    action: p.action,
    matched_lock: p.matchedLock,
    from: p.kind,
    origin: p.origin,
    package_dir: p.packageDir,
    executable: p.executable,
    ...(p.signedBy ? { signed_by: p.signedBy } : {}),
  };
}

/** Installs the plugin providers of `pravo.jsonc`; nothing when it requires none. */
async function installPlugins(
  ctx: Parameters<CommandRun>[0],
  config: ReturnType<typeof readConfig>["config"],
  previous: LockFileContent | undefined,
  upgrade: boolean,
): Promise<{
  locked: Record<string, LockedPlugin>;
  installed: InstalledProvider[];
  warnings: Diagnostic[];
  cache?: InitDoc["plugin_cache"];
}> {
  const requirements = config.providers ?? [];
  if (requirements.length === 0) return { locked: {}, installed: [], warnings: [] };
  const cache = providerCacheDir(env, Deno.cwd());
  if (!cache) {
    throw new DiagnosticsError([
      error(
        "pravo cannot tell where to install providers",
        "Neither $TF_PLUGIN_CACHE_DIR, $XDG_CACHE_HOME nor $HOME is set. Set " +
          "$TF_PLUGIN_CACHE_DIR to a directory outside the root.",
      ),
    ], "error");
  }
  let overrides;
  try {
    overrides = registryOverrides(env(REGISTRY_OVERRIDE_ENV));
  } catch (e) {
    if (e instanceof InstallError) throw new DiagnosticsError([e.diagnostic], "usage");
    throw e;
  }
  const hashCache = new FileHashCache(hashCachePath(env));
  const result = await installProviders({
    root: ctx.root,
    requirements: requirements.map((r) => ({
      address: r.address,
      source: r.source,
      constraints: r.constraints,
      range: r.range,
    })),
    locked: previous?.plugins ?? {},
    upgrade,
    mirrors: config.provider_mirrors ?? [],
    cacheDir: cache.dir,
    hashCache,
    platform: currentPlatform(),
    registry: new RegistrySource(overrides),
    onEvent: (e) => {
      if (!ctx.json) {
        const name = displayAddress(parseProviderSource(e.address));
        ctx.streams.stderr(`Downloading ${name} ${e.version} from ${new URL(e.url).host}...\n`);
      }
    },
  });
  return {
    locked: Object.fromEntries(result.providers.map((p) => [p.address, p.lock])),
    installed: result.providers,
    warnings: [...overrides.warnings, ...result.warnings],
    cache: { path: cache.dir, from: cache.from },
  };
}

/**
 * The lock of these providers: the built-in ones' versions by source, and
 * the plugin ones' pins by address.
 */
export function providerLock(
  providers: readonly ProviderSchema[],
  plugins: Readonly<Record<string, LockedPlugin>> = {},
): ProviderLock {
  const out: ProviderLock = { format_version: "1.0", providers: {} };
  for (const p of [...providers].sort((a, b) => a.source.localeCompare(b.source))) {
    out.providers[p.source] = { version: p.version };
  }
  for (const [address, lock] of Object.entries(plugins).sort(([a], [b]) => a < b ? -1 : 1)) {
    out.providers[address] = lock;
  }
  return out;
}

async function requireDirectory(root: string): Promise<void> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(root);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    throw new DiagnosticsError([
      error(
        "The root directory does not exist",
        `There is no directory "${root}". Create it, or name the root with -C DIR.`,
      ),
    ], "error");
  }
  if (!info.isDirectory) {
    throw new DiagnosticsError([
      error(
        "The root is not a directory",
        `"${root}" is a file. Name the directory that holds the .cue files with -C DIR.`,
      ),
    ], "error");
  }
}

/**
 * Makes `.pravo/` (0700) with a `.gitignore` that keeps it out of version
 * control: the state holds the values of sensitive attributes.
 */
async function makePravoDir(root: string): Promise<void> {
  const dir = join(root, PRAVO_DIR);
  try {
    await Deno.mkdir(dir, { mode: 0o700 });
    await Deno.chmod(dir, 0o700);
  } catch (e) {
    if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
  }
  const ignore = join(dir, ".gitignore");
  try {
    await Deno.writeTextFile(
      ignore,
      "# The state holds secret values: keep it out of version control.\n*\n",
      { createNew: true },
    );
  } catch (e) {
    if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
  }
}

/** Writes the lock file atomically when its content differs; says what it did. */
async function writeLockFile(
  path: string,
  lock: ProviderLock,
  modules: LockFileContent["modules"],
): Promise<"created" | "updated" | "unchanged"> {
  const builtins: LockFileContent["builtins"] = {};
  const plugins: LockFileContent["plugins"] = {};
  for (const [k, v] of Object.entries(lock.providers)) {
    if ("hashes" in v) plugins[k] = v;
    else builtins[k] = v;
  }
  const text = lockFileText({ builtins, plugins, modules });
  let old: string | undefined;
  try {
    old = await Deno.readTextFile(path);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  if (old === text) return "unchanged";
  // A full disk leaves no half-written file behind: the old one stays.
  await writeFileAtomic(path, text);
  return old === undefined ? "created" : "updated";
}
