/**
 * The root's lock file and the inputs of its plugin providers. In a child
 * of `pravo mcp` they come from what the server pinned at start (pinned.ts)
 * and no file of the root is read for them: an agent that edits the files
 * cannot change what the child uses. `pravo.jsonc` is read in config.ts,
 * apart, so that what needs no configuration does not load its parser.
 *
 * The layers below (lib/config, lib/providers) read files or take inputs;
 * only lib/workspace knows about the pinned document.
 *
 * @module
 */
import {
  LOCK_FILE,
  type LockFileContent,
  parseLockFile,
  readLockFile,
} from "../providers/install/lock.ts";
import type { PluginInputs } from "../providers/plugin/inputs.ts";
import type { Pinned } from "./pinned.ts";

/**
 * The root's `pravo.lock.json` (the pinned one in a child of `pravo mcp`);
 * undefined when there is none.
 */
export function rootLockFile(
  root: string,
  pinned: Pinned | undefined,
): LockFileContent | undefined {
  if (!pinned) return readLockFile(root);
  const path = `${root.replace(/\/+$/, "")}/${LOCK_FILE}`;
  return pinned.lockFile === undefined ? undefined : parseLockFile(pinned.lockFile, path);
}

/**
 * What the root's plugin providers start from: its lock and mirrors, read
 * when first needed, the pinned providers in a child of `pravo mcp`, and
 * the signal that aborts at the first interrupt.
 */
export function pluginInputs(
  root: string,
  signal: AbortSignal,
  pinned: Pinned | undefined,
): PluginInputs {
  return {
    lock: () => rootLockFile(root, pinned),
    // A child of pravo mcp runs only what the server verified: none, when it verified none.
    pinned: pinned ? pinned.plugins ?? [] : undefined,
    mirrors: async () => {
      // Read only when a provider starts: what starts none needs no config parser.
      const { rootConfig } = await import("./config.ts");
      return (rootConfig(root, pinned).config.provider_mirrors ?? []).map((m) => m.path);
    },
    signal,
  };
}
