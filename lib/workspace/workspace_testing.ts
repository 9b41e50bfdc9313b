/**
 * A workspace for tests of the layers below the commands: the built-in
 * providers alone, no pinned document, a signal that never aborts unless
 * the test aborts it.
 *
 * @module
 */

import { BUILTIN_REGISTRY } from "../providers/registry.ts";
import { pluginInputs } from "./lock.ts";
import type { Workspace } from "./types.ts";

/** What the engine's tests hand down in place of a command's workspace. */
export type TestWorkspace = Pick<
  Workspace,
  "root" | "registry" | "catalogDiagnostics" | "inputs" | "signal" | "config" | "lock" | "pinned"
>;

/** A workspace of `root` with the built-in providers alone. */
export function builtinWorkspace(
  root = "/nowhere",
  signal: AbortSignal = new AbortController().signal,
): TestWorkspace {
  return Object.freeze({
    root,
    registry: BUILTIN_REGISTRY,
    catalogDiagnostics: [],
    inputs: pluginInputs(root, signal, undefined),
    signal,
    config: { config: {} },
    lock: undefined,
  });
}

/** The providers of a root with no plugin provider: what parseSources and readRoot take. */
export const BUILTIN_ONLY = builtinWorkspace();
