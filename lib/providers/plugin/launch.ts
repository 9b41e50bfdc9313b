/**
 * Which plugin provider executable may run for a root, verified, and where
 * its socket goes.
 *
 * - In a child of `pravo mcp` (lib/workspace/pinned.ts), only the providers the
 *   server verified when it started, in the package directory where it
 *   found them, checked again against their hashes before each start
 *   (`verifyPinnedProvider`): the lock, `pravo.jsonc` and the mirrors as
 *   they are now in the root play no part.
 * - Otherwise, the package the lock pins, found in the plugin cache or the
 *   mirrors of `provider_mirrors` and checked against the lock's hashes
 *   (`providerExecutable`).
 *
 * Either way nothing inside the root ever runs, and the check of a 700 MB
 * executable costs a few `stat` calls once its hash is remembered (pravo's
 * cache folder, outside every root).
 *
 * The socket: when `$PRAVO_PLUGIN_SOCKET_DIR` names a directory (scripts/pravo
 * and `pravo mcp` set it, and grant `--allow-net=unix:DIR/pN.sock` for a few
 * N), each provider of the run gets the next of those names; otherwise the
 * provider picks its own in a private temporary directory (which needs a
 * full `--allow-net` to connect to, as tests have).
 *
 * @module
 */

import { join } from "node:path";
import { PLUGIN_SOCKETS } from "../../permissions/permissions.ts";
import type { PluginInputs } from "./inputs.ts";
import { DiagnosticsError, error } from "../../diag/diag.ts";
import { envVar, hashCachePath } from "../install/cache_dir.ts";
import {
  installationFromEnv,
  providerExecutable,
  type VerifiedProvider,
  verifyPinnedProvider,
} from "../install/executable.ts";
import { FileHashCache } from "../install/hash_cache.ts";

/** The variable that names the directory of provider sockets. */
export const SOCKET_DIR_ENV = "PRAVO_PLUGIN_SOCKET_DIR";

/** How many providers one run may start when sockets are granted by name. */
export const SOCKET_SLOTS = PLUGIN_SOCKETS.length;

let hashes: FileHashCache | undefined;

/** The cache of file hashes in pravo's cache folder (in memory only without one). */
export function fileHashCache(): FileHashCache {
  return hashes ??= new FileHashCache(hashCachePath(envVar));
}

/**
 * The verified executable of a locked plugin provider of the root; throws a
 * DiagnosticsError that says what to do when it may not run.
 */
export async function verifiedProvider(
  root: string,
  address: string,
  inputs: PluginInputs,
): Promise<VerifiedProvider> {
  if (inputs.pinned) {
    const pin = inputs.pinned.find((p) => p.address === address);
    if (!pin) {
      throw new DiagnosticsError([
        error(
          `The provider ${address} was not verified when pravo mcp started`,
          "The server runs only the plugin providers that pravo.lock.json pinned when it " +
            "started. Run `pravo init` for this provider, then ask the operator to restart " +
            "pravo mcp.",
        ),
      ], "error");
    }
    const v = verifyPinnedProvider(
      root,
      { address, version: pin.version, packageDir: pin.packageDir, hashes: pin.hashes },
      fileHashCache(),
    );
    if (v.executable !== pin.executable) {
      throw new DiagnosticsError([
        error(
          `The executable of ${address} changed since pravo mcp started`,
          `It was "${pin.executable}" and is now "${v.executable}". Ask the operator to ` +
            "restart pravo mcp.",
        ),
      ], "error");
    }
    return v;
  }
  const entry = inputs.lock()?.plugins[address];
  if (!entry) {
    throw new DiagnosticsError([
      error(
        `pravo.lock.json does not pin ${address}`,
        "Run `pravo init` to install and pin it.",
      ),
    ], "error");
  }
  const installation = installationFromEnv(envVar, Deno.cwd(), fileHashCache());
  // pravo.jsonc's mirrors, read only here: what starts no provider needs no config parser.
  return providerExecutable(root, address, entry, {
    ...installation,
    mirrors: [...await inputs.mirrors()],
  });
}

let nextSlot = 0;
let socketDir: string | undefined | null = null;

/**
 * The socket path for the next provider this process starts, or undefined
 * when no socket directory is set (the provider picks its own then).
 */
export function nextSocketPath(): string | undefined {
  if (socketDir === null) {
    const dir = envVar(SOCKET_DIR_ENV);
    socketDir = dir && dir.startsWith("/") ? dir : undefined;
  }
  if (socketDir === undefined) return undefined;
  if (nextSlot >= SOCKET_SLOTS) {
    throw new DiagnosticsError([
      error(
        "Too many plugin provider configurations in one run",
        `This run would start more than ${SOCKET_SLOTS} plugin providers, and pravo's ` +
          "permissions grant that many sockets. Use fewer provider instances in the root.",
      ),
    ], "error");
  }
  return join(socketDir, PLUGIN_SOCKETS[nextSlot++]);
}
