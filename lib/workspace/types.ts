/**
 * The workspace's type alone (workspace.ts opens one), so that a module
 * that names it (the commands' Context) loads nothing of what opens it.
 *
 * @module
 */

import type { Diagnostic } from "../diag/diag.ts";
import type { LoadedConfig } from "../config/types.ts";
import type { LockFileContent } from "../providers/install/lock.ts";
import type { PluginInputs } from "../providers/plugin/inputs.ts";
import type { PluginCatalog, PluginEntry, Registry } from "../providers/registry.ts";
import type { Pinned } from "./pinned.ts";

/** What one command works on (see the module's doc). */
export interface Workspace {
  /** The root directory, absolute. */
  readonly root: string;
  /** `pravo.jsonc` (the pinned one in a child of `pravo mcp`), read when first asked for. */
  readonly config: LoadedConfig;
  /** `pravo.lock.json` as read (the pinned one in a child); undefined when there is none. */
  readonly lock: LockFileContent | undefined;
  /** What the root's plugin providers start from: the lock, the pins, the mirrors, the signal. */
  readonly inputs: PluginInputs;
  /** The catalog of the root's plugin providers; undefined when its lock is refused. */
  readonly catalog: WorkspaceCatalog | undefined;
  /** Why there is no catalog: the lock's diagnostics (empty when there is one). */
  readonly catalogDiagnostics: readonly Diagnostic[];
  /** The providers pravo ships and the root's plugin providers: every type lookup's. */
  readonly registry: Registry;
  /** The document `pravo mcp` pinned, in a child of the server serving this root. */
  readonly pinned?: Pinned;
  /** Aborts at the first interrupt. */
  readonly signal: AbortSignal;
}

/** What the commands use of the catalog of a root's plugin providers (catalog.ts's RootCatalog). */
export interface WorkspaceCatalog extends PluginCatalog {
  /** The plugin providers the lock pins, by source. */
  readonly entries: ReadonlyMap<string, PluginEntry>;
  /** The entry of a source (`hashicorp/aws`) or a full address. */
  entry(sourceOrAddress: string): PluginEntry | undefined;
  /** True when the provider's schema is at hand (cached, or fetched in this run). */
  hasSchema(source: string): boolean;
}
