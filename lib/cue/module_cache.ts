/**
 * Where the dependency modules `pravo init` fetched are kept, outside every
 * root: `modules/sha256/HEX.zip` in pravo's cache folder
 * (`$XDG_CACHE_HOME/pravo`, else `~/.cache/pravo`), named by the SHA-256 of
 * the zip, so that one file serves every root that pins those bytes.
 *
 * A module is read from there, and checked against the digest
 * `pravo.lock.json` pins, each time a configuration is loaded; nothing is
 * fetched then. In a child of `pravo mcp` it comes from the pinned
 * document instead: the bytes the server read and checked at start.
 *
 * @module
 */

import { join } from "node:path";
import type { Pinned } from "../workspace/pinned.ts";
import { fromBase64 } from "../bytes.ts";
import { writeFileAtomic } from "../files/atomic.ts";
import { envVar, pravoCacheHome } from "../providers/install/cache_dir.ts";
import type { LockedModule } from "../providers/install/lock.ts";
import { zipFilesOf } from "../providers/install/zip.ts";
import { sha256Digest } from "./registry.ts";

/** The folder of fetched modules in pravo's cache folder; undefined without one. */
export function moduleCacheDir(
  env: (name: string) => string | undefined = envVar,
): string | undefined {
  const home = pravoCacheHome(env);
  return home ? join(home, "modules") : undefined;
}

/** The file of a module's zip in the cache. */
export function zipPathIn(dir: string, digest: string): string {
  return join(dir, "sha256", digest.replace(/^sha256:/, "") + ".zip");
}

/** Keeps a module's zip in the cache (atomically; a file already there is left as it is). */
export async function storeModuleZip(
  dir: string,
  digest: string,
  zip: Uint8Array,
): Promise<string> {
  const path = zipPathIn(dir, digest);
  await Deno.mkdir(join(dir, "sha256"), { recursive: true });
  await writeFileAtomic(path, zip);
  return path;
}

/** The cached zip's bytes when they have the digest; undefined when missing or different. */
export function cachedModuleZip(dir: string, digest: string): Uint8Array | undefined {
  let bytes: Uint8Array;
  try {
    bytes = Deno.readFileSync(zipPathIn(dir, digest));
  } catch {
    return undefined;
  }
  return sha256Digest(bytes) === digest ? bytes : undefined;
}

/** A module that cannot be read as the lock pins it. */
export class ModuleReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ModuleReadError";
  }
}

/**
 * The files of a locked module, by their names in the module's zip
 * (`pets/pets.cue`), read from the pinned document in a child of `pravo
 * mcp`, else from the cache; each time checked against the lock's digest.
 */
export function lockedModuleFiles(
  module: string,
  lock: LockedModule,
  pinned: Pinned | undefined,
): Map<string, Uint8Array> {
  let bytes: Uint8Array | undefined;
  const p = pinned;
  if (p) {
    const m = p.modules?.find((x) => x.module === module && x.digest === lock.digest);
    if (!m) {
      throw new ModuleReadError(
        `pravo mcp did not read ${module} ${lock.version} from pravo's cache when it started: an operator runs \`pravo init\`, then starts the server again`,
      );
    }
    bytes = fromBase64(m.zip) ?? new Uint8Array();
  } else {
    const dir = moduleCacheDir();
    if (!dir) {
      throw new ModuleReadError(
        `pravo has no cache folder ($XDG_CACHE_HOME and $HOME are unset), where ${module} would be: set HOME, and run \`pravo init\``,
      );
    }
    try {
      bytes = Deno.readFileSync(zipPathIn(dir, lock.digest));
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) {
        throw new ModuleReadError(
          `${module} ${lock.version} is not in pravo's cache (${dir}): run \`pravo init\` to fetch it`,
        );
      }
      throw new ModuleReadError(
        `cannot read ${module} ${lock.version} from pravo's cache: ${(e as Error).message}`,
      );
    }
  }
  const got = sha256Digest(bytes);
  if (got !== lock.digest) {
    throw new ModuleReadError(
      `the copy of ${module} ${lock.version} in pravo's cache has the digest ${got}, not the ${lock.digest} pravo.lock.json pins: it was altered. Remove it and run \`pravo init\``,
    );
  }
  try {
    return zipFilesOf(bytes);
  } catch (e) {
    throw new ModuleReadError(
      `the zip of ${module} ${lock.version} cannot be read: ${(e as Error).message}`,
    );
  }
}
