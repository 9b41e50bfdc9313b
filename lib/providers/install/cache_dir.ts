/**
 * Where installed providers live, and checks that keep them out of a root.
 *
 * Packages are installed into a plugin cache in Terraform's unpacked layout,
 * `DIR/HOSTNAME/NAMESPACE/TYPE/VERSION/OS_ARCH/`:
 *
 * - `$TF_PLUGIN_CACHE_DIR` when it is set, so that pravo and Terraform share
 *   one cache (pravo reads what Terraform put there and Terraform reads what
 *   pravo put there);
 * - else `$XDG_CACHE_HOME/pravo/providers`, else `~/.cache/pravo/providers`.
 *
 * Never inside the root, for two reasons. An agent may write any file in a
 * root, so an executable there could be one it planted: pravo runs no
 * executable whose real path is inside the root. And one cache serves every
 * root, so the 700 MB AWS provider is stored once, as with Terraform's
 * plugin cache.
 *
 * The hashes of installed files (`hash_cache.ts`) are remembered beside it,
 * in `$XDG_CACHE_HOME/pravo/file-hashes.json` (else `~/.cache/pravo/...`).
 *
 * @module
 */

import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { ProviderAddress } from "./address.ts";
import { type Platform, platformString } from "./platform.ts";
import { type Version, versionString } from "./version.ts";

/** The environment variables read here. */
export const CACHE_ENV_VARS: readonly string[] = ["TF_PLUGIN_CACHE_DIR", "XDG_CACHE_HOME", "HOME"];

type Env = (name: string) => string | undefined;

/** Where the plugin cache is, and what said so. */
export interface CacheLocation {
  dir: string;
  from: "TF_PLUGIN_CACHE_DIR" | "XDG_CACHE_HOME" | "HOME";
}

function expandHome(path: string, env: Env): string {
  const home = env("HOME");
  if ((path === "~" || path.startsWith("~/")) && home) return join(home, path.slice(1));
  return path;
}

/** A variable of pravo's environment; undefined where it may not be read. */
export function envVar(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

/** pravo's cache folder, outside every root: file hashes, schemas. */
export function pravoCacheFolder(): string | undefined {
  return pravoCacheHome(envVar);
}

/**
 * pravo's own cache folder: `$XDG_CACHE_HOME/pravo`, else `~/.cache/pravo`;
 * undefined when neither can be told (no `HOME`).
 */
export function pravoCacheHome(env: Env): string | undefined {
  const xdg = env("XDG_CACHE_HOME");
  if (xdg && isAbsolute(xdg)) return join(xdg, "pravo");
  const home = env("HOME");
  if (home && isAbsolute(home)) return join(home, ".cache", "pravo");
  return undefined;
}

/** The plugin cache, from the environment; `cwd` resolves a relative `$TF_PLUGIN_CACHE_DIR`. */
export function providerCacheDir(env: Env, cwd: string): CacheLocation | undefined {
  const tf = env("TF_PLUGIN_CACHE_DIR");
  if (tf) return { dir: resolve(cwd, expandHome(tf, env)), from: "TF_PLUGIN_CACHE_DIR" };
  const home = pravoCacheHome(env);
  if (!home) return undefined;
  return {
    dir: join(home, "providers"),
    from: env("XDG_CACHE_HOME") && isAbsolute(env("XDG_CACHE_HOME")!) ? "XDG_CACHE_HOME" : "HOME",
  };
}

/** The file that remembers file hashes, in pravo's cache folder. */
export function hashCachePath(env: Env): string | undefined {
  const home = pravoCacheHome(env);
  return home ? join(home, "file-hashes.json") : undefined;
}

/** A package's directory in a cache: `DIR/HOST/NS/TYPE/VERSION/OS_ARCH`. */
export function packageDirIn(
  dir: string,
  address: ProviderAddress,
  version: Version,
  platform: Platform,
): string {
  return join(
    dir,
    address.hostname,
    address.namespace,
    address.type,
    versionString(version),
    platformString(platform),
  );
}

/**
 * The real path of `path`, symbolic links resolved; for a path that does not
 * exist (yet), that of its nearest existing ancestor with the rest appended.
 */
export function realPathOf(path: string): string {
  let p = resolve(path);
  const rest: string[] = [];
  for (;;) {
    try {
      return join(Deno.realPathSync(p), ...rest.reverse());
    } catch (e) {
      if (e instanceof Deno.errors.NotCapable || e instanceof Deno.errors.PermissionDenied) {
        // pravo may not look here, so it cannot use what is here either.
        return join(p, ...rest.reverse());
      }
      if (!(e instanceof Deno.errors.NotFound)) throw e;
      const parent = dirname(p);
      if (parent === p) return resolve(path);
      rest.push(p.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      p = parent;
    }
  }
}

/** True when `path` is the root or inside it, comparing real paths. */
export function isInsideRoot(path: string, root: string): boolean {
  const rel = relative(realPathOf(root), realPathOf(path));
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
