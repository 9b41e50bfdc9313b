/**
 * The workspace: what one command works on, as one small immutable value.
 * The command layer opens it once ({@linkcode openWorkspace}: `main.ts`, for
 * every command) and hands it down, so that what lies below reads its root's
 * configuration, lock, providers, pinned document and cancellation from an
 * argument instead of asking a process-wide global.
 *
 * It holds the root, its `pravo.jsonc`, its `pravo.lock.json`, the catalog of
 * its plugin providers and the registry built from it, what `pravo mcp`
 * pinned, and the signal that aborts at the first interrupt: nothing else.
 * It is no bag of settings (OpenTofu's `Meta`): flags stay with the command
 * that reads them, and a new member needs a reason every command shares.
 *
 * The configuration, the lock and the catalog are read when first asked
 * for, then kept: a command that needs none of them reads no file, and a
 * root without `pravo.jsonc` does not load its parser (lib/config/config.ts).
 *
 * @module
 */

import { join, resolve } from "node:path";
import { DiagnosticsError } from "../diag/diag.ts";
import type { LoadedConfig } from "../config/types.ts";
import { CONFIG_FILE } from "../config/names.ts";
import { tryCatalogFor } from "../providers/catalog.ts";
import { registryOf } from "../providers/registry.ts";
import { pluginInputs, rootLockFile } from "./lock.ts";
import type { Pinned } from "./pinned.ts";
import type { Workspace, WorkspaceCatalog } from "./types.ts";

export type { Workspace, WorkspaceCatalog };

/** What {@linkcode openWorkspace} takes besides the root. */
export interface WorkspaceOptions {
  /** The pinned document of a child of `pravo mcp`. */
  pinned?: Pinned;
  /** Aborts at the first interrupt (main.ts's). */
  signal: AbortSignal;
}

/**
 * The workspace of `root` (absolute or from the working directory): built
 * once per command. Reads nothing yet but the module of `pravo.jsonc`'s
 * reader, and that only when the root has such a file.
 */
export async function openWorkspace(root: string, opts: WorkspaceOptions): Promise<Workspace> {
  const abs = resolve(root);
  const pinned = opts.pinned !== undefined && opts.pinned.root === abs ? opts.pinned : undefined;
  const readConfig = await configReader(abs, pinned);
  const config = once(() => readConfig());
  const inputs = pluginInputs(abs, opts.signal, pinned);
  const lock = once(() => rootLockFile(abs, pinned));
  const catalog = once(() => tryCatalogFor(abs, inputs));
  const registry = once(() => registryOf(catalog().catalog));
  return Object.freeze({
    root: abs,
    get config() {
      return config();
    },
    get lock() {
      return lock();
    },
    inputs,
    get catalog() {
      return catalog().catalog;
    },
    get catalogDiagnostics() {
      return catalog().diagnostics;
    },
    get registry() {
      return registry();
    },
    ...(pinned ? { pinned } : {}),
    signal: opts.signal,
  });
}

/** The catalog of a workspace, or the lock's refusal thrown. */
export function catalogOf(ws: Workspace): WorkspaceCatalog {
  if (ws.catalog) return ws.catalog;
  throw new DiagnosticsError([...ws.catalogDiagnostics], "error");
}

/**
 * How the workspace reads `pravo.jsonc`: the pinned one; none, without
 * loading the reader, when the root has no such file; else the file.
 */
async function configReader(
  root: string,
  pinned: Pinned | undefined,
): Promise<() => LoadedConfig> {
  if (pinned) return () => ({ config: pinned.config, path: pinned.configPath });
  try {
    Deno.lstatSync(join(root, CONFIG_FILE));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return () => ({ config: {} });
    // anything else: readConfig says it as it always has
  }
  const { readConfig } = await import("../config/config.ts");
  return () => readConfig(root);
}

/** `f`'s value, computed on the first call and kept (a throw is not kept). */
function once<T>(f: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = f();
      done = true;
    }
    return value;
  };
}
