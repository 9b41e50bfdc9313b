/**
 * `pravo init`'s part for CUE dependency modules: each module of
 * `cue.mod/module.cue`'s `deps` that the root does not vendor under
 * `cue.mod/pkg` is fetched from its registry (registry.ts) into pravo's
 * cache (module_cache.ts), unless the cache already holds the bytes the
 * lock pins, and pinned in `pravo.lock.json` by version and digest.
 *
 * A version the lock pins keeps its digest: a registry that now serves
 * other bytes under it is refused (the module was published again, or
 * altered), unless `pravo init -upgrade` is asked to take the new bytes.
 *
 * @module
 */

import { lstatSync } from "node:fs";
import { join } from "node:path";
import { type Diagnostic, DiagnosticsError, error } from "../diag/diag.ts";
import { isModuleKey, type LockedModule } from "../providers/install/lock.ts";
import { FileRefusal, readRegular } from "../files/regular.ts";
import { ConfinementError, realInsideRoot } from "../providers/confine.ts";
import { dependencies, MODULE_FILE, VENDOR_DIR } from "./modules.ts";
import { cachedModuleZip, moduleCacheDir, storeModuleZip, zipPathIn } from "./module_cache.ts";
import { FetchError, fetchModule, parseCueRegistry, RegistryError } from "./registry.ts";

/** What init did for one dependency module, in its JSON document. */
export interface ModuleDoc {
  /** `example.com/pets@v0`. */
  module: string;
  version: string;
  /** `fetched` from a registry now; `cached`: the cache held the pinned bytes; `vendored`: under cue.mod/pkg. */
  action: "fetched" | "cached" | "vendored";
  /** The zip's digest (not for a vendored module). */
  digest?: string;
  /** For `fetched`: `host/repository:version`. */
  from?: string;
  /** The zip in pravo's cache, absolute (not for a vendored module). */
  path?: string;
}

/** The text of the root's cue.mod/module.cue; undefined when there is none or it cannot be read (validate says why). */
function moduleFileText(root: string): string | undefined {
  try {
    lstatSync(join(root, MODULE_FILE));
  } catch {
    return undefined; // not a CUE module
  }
  try {
    return new TextDecoder().decode(
      readRegular(realInsideRoot(root, MODULE_FILE), { maxBytes: 1 << 20 }),
    );
  } catch (e) {
    if (e instanceof ConfinementError || e instanceof FileRefusal) return undefined;
    throw e;
  }
}

/** The modules of the root's deps, fetched or found; the lock's entries for them. */
export async function installModules(options: {
  root: string;
  previous: Record<string, LockedModule> | undefined;
  upgrade: boolean;
  env: (name: string) => string | undefined;
  /** Called before each download. */
  onFetch?: (module: string, version: string, host: string) => void;
  fetchImpl?: typeof fetch;
}): Promise<{ locked: Record<string, LockedModule>; modules: ModuleDoc[] } | undefined> {
  const { root, previous, upgrade, env } = options;
  const src = moduleFileText(root);
  if (src === undefined) return undefined;
  const deps = dependencies(src);
  if (deps.length === 0) return undefined;
  const at = (d: { line: number; column: number }) => ({
    range: { file: MODULE_FILE, line: d.line, column: d.column },
  });
  const fail = (d: Diagnostic): never => {
    throw new DiagnosticsError([d], "error");
  };
  const locked: Record<string, LockedModule> = {};
  const modules: ModuleDoc[] = [];
  let resolver: ReturnType<typeof parseCueRegistry> | undefined;
  const cacheDir = moduleCacheDir(env);
  for (const d of deps) {
    // Before it names a folder, a registry path or a key of the lock.
    if (!isModuleKey(d.key)) {
      fail(error(
        `"${d.key}" in the deps of ${MODULE_FILE} is not a CUE module path with its major version`,
        `A dependency is keyed by its module path, a domain first, and its major version, as CUE writes it: "example.com/pets@v0": v: "v0.1.0". Correct the key in ${MODULE_FILE} and run \`pravo init\` again.`,
        at(d),
      ));
    }
    let vendored = false;
    try {
      lstatSync(join(root, VENDOR_DIR, d.module));
      vendored = true;
    } catch { /* not vendored */ }
    if (vendored) {
      modules.push({ module: d.key, version: d.version, action: "vendored" });
      continue;
    }
    if (!cacheDir) {
      fail(error(
        `pravo cannot tell where to keep ${d.key}`,
        "Neither $XDG_CACHE_HOME nor $HOME is set, and modules are kept in pravo's cache folder outside the root. Set HOME (or XDG_CACHE_HOME) and run `pravo init` again.",
        at(d),
      ));
    }
    const prev = previous?.[d.key];
    const pinned = prev && prev.version === d.version ? prev : undefined;
    if (pinned && cachedModuleZip(cacheDir!, pinned.digest)) {
      locked[d.key] = pinned;
      modules.push({
        module: d.key,
        version: d.version,
        action: "cached",
        digest: pinned.digest,
        path: zipPathIn(cacheDir!, pinned.digest),
      });
      continue;
    }
    try {
      resolver ??= parseCueRegistry(env("CUE_REGISTRY"));
    } catch (e) {
      if (!(e instanceof RegistryError)) throw e;
      fail(error(
        "$CUE_REGISTRY cannot be read",
        `${e.message}. Write it as CUE reads it: a registry such as localhost:5000 or registry.example.com/cue-modules, or prefix=registry routes, separated by commas.`,
        at(d),
      ));
    }
    const loc = resolver!.resolve(d.module);
    options.onFetch?.(d.key, d.version, loc.host);
    let got;
    try {
      got = await fetchModule(loc, d.key, d.version, options.fetchImpl);
    } catch (e) {
      if (!(e instanceof FetchError)) throw e;
      fail(error(
        `Cannot fetch the module ${d.key} ${d.version}`,
        `${e.message}. ${
          e.notFound
            ? "Publish that version there (`cue mod publish`), correct the version in cue.mod/module.cue, or set $CUE_REGISTRY to the registry that holds it."
            : "Check $CUE_REGISTRY and the registry, then run `pravo init` again; or vendor the module under cue.mod/pkg."
        }`,
        at(d),
      ));
    }
    if (pinned && got!.digest !== pinned.digest && !upgrade) {
      fail(error(
        `The registry's ${d.key} ${d.version} is not the one pravo.lock.json pins`,
        `${got!.from} has the digest ${
          got!.digest
        }, and pravo.lock.json pins ${pinned.digest} for that version: the module was published again under the same version, or altered. Nothing was written. If you trust the new bytes, run \`pravo init -upgrade\` to pin them.`,
        at(d),
      ));
    }
    const path = await storeModuleZip(cacheDir!, got!.digest, got!.zip);
    locked[d.key] = { version: d.version, digest: got!.digest, manifest: got!.manifest };
    modules.push({
      module: d.key,
      version: d.version,
      action: "fetched",
      digest: got!.digest,
      from: got!.from,
      path,
    });
  }
  return { locked, modules };
}
