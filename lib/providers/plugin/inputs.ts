/**
 * What a root's plugin providers are built from. The providers take it as
 * an input and never ask for it: the workspace (lib/workspace/) reads it
 * from the root, or from what `pravo mcp` pinned in its children.
 *
 * @module
 */

import type { LockFileContent } from "../install/lock.ts";

/**
 * A plugin provider the server verified at start: the only executable of
 * that provider a child may run, in the package directory where it was
 * found (checked again against its hashes before each start).
 */
export interface PinnedPlugin {
  /** `registry.terraform.io/hashicorp/aws`. */
  address: string;
  version: string;
  /** The package directory, absolute, links resolved. */
  packageDir: string;
  /** The executable in it, absolute, links resolved. */
  executable: string;
  /** The lock's hashes at start. */
  hashes: string[];
}

/** The inputs of a root's plugin providers. */
export interface PluginInputs {
  /**
   * The root's `pravo.lock.json` (undefined: there is none); throws a
   * DiagnosticsError when it is malformed. Read when first needed.
   */
  lock(): LockFileContent | undefined;
  /**
   * In a child of `pravo mcp`: the plugin providers the server verified at
   * start, the only ones that may run. Undefined otherwise.
   */
  pinned?: readonly PinnedPlugin[];
  /** `provider_mirrors` of `pravo.jsonc`, absolute; read when a provider first starts. */
  mirrors(): Promise<readonly string[]>;
  /** Aborts at the first interrupt: the running providers are sent Stop. */
  signal?: AbortSignal;
}
