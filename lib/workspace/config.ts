/**
 * The root's `pravo.jsonc`: in a child of `pravo mcp`, the configuration
 * the server pinned at start (pinned.ts), and the file is not read.
 *
 * @module
 */

import { type LoadedConfig, readConfig } from "../config/config.ts";
import type { Pinned } from "./pinned.ts";

/** The root's `pravo.jsonc` (the pinned one in a child of `pravo mcp`). */
export function rootConfig(
  root: string,
  pinned: Pinned | undefined,
): LoadedConfig {
  if (pinned) return { config: pinned.config, path: pinned.configPath };
  return readConfig(root);
}
