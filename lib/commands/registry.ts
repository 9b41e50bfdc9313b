/**
 * Which module implements each command of lib/cli/commands.ts. A module is
 * loaded only when its command runs, so `--help`, `--version` and commands
 * that need no CUE never load cue-wasm or the MCP SDK.
 *
 * @module
 */

import type { CommandRun } from "../cli/command.ts";

/** The implementation of every command, by name. */
export const IMPLEMENTATIONS: Readonly<Record<string, () => Promise<{ run: CommandRun }>>> = {
  "init": () => import("./init.ts"),
  "validate": () => import("./validate.ts"),
  "fmt": () => import("./fmt.ts"),
  "convert": () => import("./convert.ts"),
  "plan": () => import("./plan.ts"),
  "show": () => import("./show.ts"),
  "apply": () => import("./apply.ts"),
  "destroy": () => import("./destroy.ts"),
  "import": () => import("./import.ts"),
  "state list": () => import("./state_list.ts"),
  "state show": () => import("./state_show.ts"),
  "state query": () => import("./state_query.ts"),
  "state dependents": () => import("./state_dependents.ts"),
  "state log": () => import("./state_log.ts"),
  "state locks": () => import("./state_locks.ts"),
  "state mv": () => import("./state_mv.ts"),
  "state rm": () => import("./state_rm.ts"),
  "state release": () => import("./state_release.ts"),
  "state unlock": () => import("./state_unlock.ts"),
  "state migrate": () => import("./state_migrate.ts"),
  "why": () => import("./why.ts"),
  "output": () => import("./output.ts"),
  "drift": () => import("./drift.ts"),
  "schema": () => import("./schema.ts"),
  "providers": () => import("./providers.ts"),
  "approve": () => import("./approve.ts"),
  "approver-key": () => import("./approver_key.ts"),
  "graph": () => import("./graph.ts"),
  "version": () => import("./version.ts"),
  "help": () => import("./help.ts"),
  "completion": () => import("./completion.ts"),
  "mcp": () => import("./mcp.ts"),
};

/** Loads the implementation of the command with this name. */
export function loadCommand(name: string): Promise<{ run: CommandRun }> {
  const load = IMPLEMENTATIONS[name];
  if (!load) throw new Error(`bug: no implementation of the command "${name}"`);
  return load();
}
