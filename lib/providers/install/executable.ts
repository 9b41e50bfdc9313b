/**
 * The check before a plugin provider starts: which executable, and is it
 * the one the lock pins?
 *
 * {@link providerExecutable} takes a lock entry and the installation (the
 * plugin cache, and the mirrors of `provider_mirrors`, whose unpacked
 * packages are used where they are) and returns the executable's absolute
 * real path, after verifying that the package's `h1:` hash is one the lock
 * holds and that neither the package nor the executable is inside the root.
 * The first package found (the cache, then the mirrors in order) that
 * matches the lock is used. It refuses with a diagnostic that says what to
 * do otherwise.
 *
 * Hashing the 700 MB AWS provider takes about half a second; with a
 * {@link FileHashCache} (kept outside the root) the next verification of an
 * unchanged file costs a few `stat` calls: see `hash_cache.ts` for why that
 * is sound.
 *
 * What `pravo mcp` must do with it: read `pravo.lock.json` and the mirrors of
 * `pravo.jsonc` and verify every plugin provider once, at start
 * ({@link verifyLockedProviders}), then give its children exactly those
 * executables (`--allow-run`) and their package directories
 * (`--allow-read`), and the pinned lock entries, so that a lock or
 * configuration edited in the root mid-session changes nothing.
 *
 * @module
 */

import { DiagnosticsError, error } from "../../diag/diag.ts";
import { displayAddress, parseProviderSource, type ProviderAddress } from "./address.ts";
import { isInsideRoot, packageDirIn, providerCacheDir } from "./cache_dir.ts";
import { hashPackageDir, hashScheme } from "./hash.ts";
import type { FileHashCache } from "./hash_cache.ts";
import { FilesystemMirrorSource } from "./filesystem_mirror_source.ts";
import { findExecutable, type LockedPlugin } from "./installer.ts";
import { readLockFile } from "./lock.ts";
import { currentPlatform, type Platform, platformString } from "./platform.ts";
import { InstallError } from "./source.ts";
import { parseVersion } from "./version.ts";

/** Where providers are installed, and the hash cache to verify them with. */
export interface Installation {
  /** The plugin cache, absolute. */
  cacheDir: string;
  /** The mirrors of `provider_mirrors`, absolute, in order. */
  mirrors?: readonly string[];
  hashCache?: FileHashCache;
  /** Default: the platform pravo runs on. */
  platform?: Platform;
}

/** A plugin provider that may start. */
export interface VerifiedProvider {
  /** `registry.terraform.io/hashicorp/aws`. */
  address: string;
  version: string;
  /** The executable, absolute, symbolic links resolved. */
  executable: string;
  /** Its package directory, absolute, symbolic links resolved. */
  packageDir: string;
  /** The package's `h1:` hash, one of the lock's. */
  h1: string;
}

function refuse(summary: string, detail: string): DiagnosticsError {
  return new DiagnosticsError([error(summary, detail)], "error");
}

/**
 * Verifies the installed package of a locked plugin provider and returns
 * its executable. `root` is the root pravo works on: nothing inside it runs.
 */
export function providerExecutable(
  root: string,
  address: string,
  lock: LockedPlugin,
  installation: Installation,
): VerifiedProvider {
  const addr = parseProviderSource(address);
  const name = `${displayAddress(addr)} ${lock.version}`;
  const version = parseVersion(lock.version);
  if (!version) throw refuse(`The lock of ${name} is malformed`, "Run `pravo init`.");
  const platform = installation.platform ?? currentPlatform();
  const h1s = lock.hashes.filter((h) => hashScheme(h) === "h1");
  if (h1s.length === 0) {
    throw refuse(
      `pravo.lock.json has no h1: hash of ${name}`,
      `Only the package's own hash (h1:) can vouch for an installed package, and the lock has ` +
        `none for this provider (it may have been pinned on another platform than ` +
        `${platformString(platform)}). Run \`pravo init\` here to add it.`,
    );
  }
  const candidates = [packageDirIn(installation.cacheDir, addr, version, platform)];
  for (const mirror of installation.mirrors ?? []) {
    // The layout's own path first: it needs no listing of the mirror, which
    // narrow permissions may not grant (only the package directory).
    candidates.push(packageDirIn(mirror, addr, version, platform));
    const dir = new FilesystemMirrorSource(mirror).unpackedDir(addr, version, platform);
    if (dir && !candidates.includes(dir)) candidates.push(dir);
  }
  let problem: DiagnosticsError | undefined;
  for (const candidate of candidates) {
    let packageDir: string;
    try {
      packageDir = Deno.realPathSync(candidate);
    } catch (e) {
      if (
        e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotCapable ||
        e instanceof Deno.errors.PermissionDenied
      ) {
        continue; // not there, or pravo may not look there: not usable
      }
      throw e;
    }
    try {
      return verifyPackage(
        root,
        { address, name, addr, version: lock.version },
        packageDir,
        h1s,
        installation,
      );
    } catch (e) {
      if (!(e instanceof DiagnosticsError)) throw e;
      problem ??= e;
    }
  }
  if (problem) throw problem;
  throw refuse(
    `${name} is not installed`,
    `There is no package in "${candidates[0]}"${
      candidates.length > 1 ? " nor in the mirrors" : ""
    }. Run \`pravo init\` to install it (with the same $TF_PLUGIN_CACHE_DIR as now, if you set it).`,
  );
}

function verifyPackage(
  root: string,
  who: { address: string; name: string; addr: ProviderAddress; version: string },
  packageDir: string,
  h1s: string[],
  installation: Installation,
): VerifiedProvider {
  if (isInsideRoot(packageDir, root)) {
    throw refuse(
      `The package of ${who.name} is inside the root`,
      `"${packageDir}" is in the root, where anyone who may edit the root could have put it; ` +
        "pravo never runs an executable from inside the root. Keep the plugin cache and the " +
        "mirrors outside the root, and run `pravo init` again.",
    );
  }
  let executable: string;
  try {
    executable = findExecutable(packageDir, who.addr);
  } catch (e) {
    if (e instanceof InstallError) throw new DiagnosticsError([e.diagnostic], "error");
    throw e;
  }
  if (isInsideRoot(executable, root)) {
    throw refuse(
      `The executable of ${who.name} is inside the root`,
      `"${executable}" is in the root; pravo never runs an executable from inside the root. ` +
        "Run `pravo init` again with the plugin cache outside the root.",
    );
  }
  const h1 = hashPackageDir(packageDir, installation.hashCache);
  installation.hashCache?.save();
  if (!h1s.includes(h1)) {
    throw refuse(
      `The installed package of ${who.name} does not match pravo.lock.json`,
      `"${packageDir}" has ${h1}, and the lock pins ${h1s.join(", ")}. The package or the lock ` +
        "changed since `pravo init`: if the lock was edited, restore it from version control; " +
        "otherwise run `pravo init` to install the pinned package again.",
    );
  }
  return { address: who.address, version: who.version, executable, packageDir, h1 };
}

/** A plugin provider pinned where it was found: what a run that starts it is given. */
export interface PinnedProvider {
  address: string;
  version: string;
  /** The package directory found and verified when it was pinned. */
  packageDir: string;
  /** The lock's hashes. */
  hashes: readonly string[];
}

/**
 * Verifies a provider pinned earlier (by `pravo mcp` at start) in the very
 * package directory it was found in, without looking anywhere else: the
 * check a child makes before it starts the provider. Same refusals as
 * {@link providerExecutable}.
 */
export function verifyPinnedProvider(
  root: string,
  pin: PinnedProvider,
  hashCache?: FileHashCache,
): VerifiedProvider {
  const addr = parseProviderSource(pin.address);
  const name = `${displayAddress(addr)} ${pin.version}`;
  const h1s = pin.hashes.filter((h) => hashScheme(h) === "h1");
  let packageDir: string;
  try {
    packageDir = Deno.realPathSync(pin.packageDir);
  } catch {
    throw refuse(
      `${name} is not where it was pinned`,
      `"${pin.packageDir}" cannot be read any more. Run \`pravo init\`, then start again.`,
    );
  }
  if (packageDir !== pin.packageDir) {
    throw refuse(
      `The package of ${name} moved since it was pinned`,
      `"${pin.packageDir}" now leads to "${packageDir}". Run \`pravo init\`, then start again.`,
    );
  }
  return verifyPackage(
    root,
    { address: pin.address, name, addr, version: pin.version },
    packageDir,
    h1s,
    { cacheDir: "", hashCache },
  );
}

/**
 * Verifies every plugin provider of the root's lock file, as `pravo mcp`
 * does at start; none when there is no lock file.
 */
export function verifyLockedProviders(
  root: string,
  installation: Installation,
): VerifiedProvider[] {
  const lock = readLockFile(root);
  if (!lock) return [];
  return Object.entries(lock.plugins).sort(([a], [b]) => a < b ? -1 : 1).map(([address, entry]) =>
    providerExecutable(root, address, entry, installation)
  );
}

/** The installation the environment names: `$TF_PLUGIN_CACHE_DIR`, else pravo's cache. */
export function installationFromEnv(
  env: (name: string) => string | undefined,
  cwd: string,
  hashCache?: FileHashCache,
): Installation {
  const where = providerCacheDir(env, cwd);
  if (!where) {
    throw refuse(
      "pravo cannot tell where providers are installed",
      "Neither $TF_PLUGIN_CACHE_DIR, $XDG_CACHE_HOME nor $HOME is set. Set one of them.",
    );
  }
  return { cacheDir: where.dir, hashCache };
}
