/**
 * What a command that may start plugin providers is granted, for
 * scripts/pravo (which cannot read JSON, nor tell the packages apart, in
 * bash): the executables of the providers the root's `pravo.lock.json`
 * pins, in the plugin cache and the mirrors of `provider_mirrors` where
 * their packages are, and the package directories.
 *
 *   deno run --allow-read --allow-env=... main.ts --plugin-grant ROOT
 *
 * prints one line per package: `PACKAGE_DIR<TAB>EXECUTABLE` (links
 * resolved), nothing when the root pins no plugin provider. Nothing is
 * verified here: pravo checks a package against the lock's hashes before it
 * starts its provider, and never runs one from inside the root (nor is one
 * listed). A lock or configuration that cannot be read lists nothing: pravo
 * reports it when it reads them itself.
 *
 * @module
 */

import { addressString, parseProviderSource } from "../providers/install/address.ts";
import { isInsideRoot, packageDirIn, providerCacheDir } from "../providers/install/cache_dir.ts";
import { FilesystemMirrorSource } from "../providers/install/filesystem_mirror_source.ts";
import { findExecutable } from "../providers/install/installer.ts";
import { currentPlatform } from "../providers/install/platform.ts";
import { parseVersion } from "../providers/install/version.ts";
import { rootLockFile } from "../workspace/lock.ts";
import { rootConfig } from "../workspace/config.ts";

/** A package a run may start the provider of. */
export interface GrantedPackage {
  packageDir: string;
  executable: string;
}

function env(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

/** The packages of the root's locked plugin providers that are installed, in order. */
export function pluginGrant(root: string): GrantedPackage[] {
  let lock, mirrors: string[];
  try {
    // Asked by scripts/pravo before any command runs: never a child of pravo mcp.
    lock = rootLockFile(root, undefined);
    mirrors = (rootConfig(root, undefined).config.provider_mirrors ?? []).map((m) => m.path);
  } catch {
    return [];
  }
  const cache = providerCacheDir(env, Deno.cwd());
  const platform = currentPlatform();
  const out: GrantedPackage[] = [];
  for (
    const [address, pin] of Object.entries(lock?.plugins ?? {}).sort(([a], [b]) => a < b ? -1 : 1)
  ) {
    const addr = parseProviderSource(address);
    const version = parseVersion(pin.version);
    if (!version || addressString(addr) !== address) continue;
    const candidates: string[] = [];
    if (cache) candidates.push(packageDirIn(cache.dir, addr, version, platform));
    for (const m of mirrors) {
      const dir = new FilesystemMirrorSource(m).unpackedDir(addr, version, platform);
      if (dir) candidates.push(dir);
    }
    for (const c of candidates) {
      try {
        const packageDir = Deno.realPathSync(c);
        if (isInsideRoot(packageDir, root)) continue;
        const executable = findExecutable(packageDir, addr);
        if (isInsideRoot(executable, root)) continue;
        if (!out.some((p) => p.executable === executable)) out.push({ packageDir, executable });
      } catch {
        // not there, or no executable: nothing to grant
      }
    }
  }
  return out;
}

/** The first argument that makes pravo print {@linkcode pluginGrant} for the root that follows. */
export const PLUGIN_GRANT_FLAG = "--plugin-grant";

/** The lines scripts/pravo reads: `PACKAGE_DIR<TAB>EXECUTABLE`. */
export function pluginGrantText(root: string): string {
  return pluginGrant(root).map((p) => `${p.packageDir}\t${p.executable}\n`).join("");
}
