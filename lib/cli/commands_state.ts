/**
 * The specifications of the `state` commands (`state list`, `state show`,
 * ... `state migrate`), in the order `--help` lists them: the part of
 * {@linkcode COMMANDS} that reads and edits the state.
 *
 * @module
 */

import type { CommandSpec } from "./command.ts";

/** The `state` commands, as {@linkcode COMMANDS} lists them. */
export const STATE_COMMANDS: CommandSpec[] = [
  {
    name: "state list",
    summary: "List the addresses in the state, or those under the addresses given",
    args: "[ADDR...]",
    minArgs: 0,
    maxArgs: Infinity,
    options: {
      id: {
        type: "string",
        valueName: "ID",
        description: "Only the records whose id attribute is ID (also -id=ID)",
      },
    },
  },
  {
    name: "state show",
    summary: "Show one record of the state",
    args: "ADDR",
    minArgs: 1,
    maxArgs: 1,
    options: {
      "show-sensitive": {
        type: "boolean",
        description: "Show sensitive values (only when stdout is a terminal)",
      },
    },
  },
  {
    name: "state query",
    summary: "Evaluate a CUE expression over the state (nodes, lineage, serial)",
    args: "EXPRESSION",
    minArgs: 1,
    maxArgs: 1,
    options: {
      limit: {
        type: "string",
        valueName: "N",
        description:
          "Show at most N elements of a list or fields of a struct (default 100; 0: all)",
      },
    },
  },
  {
    name: "state dependents",
    summary: "List the nodes that depend on a node, directly or through others",
    args: "ADDR",
    minArgs: 1,
    maxArgs: 1,
    options: {},
  },
  {
    name: "state log",
    summary: "Show the transaction log, newest first",
    args: "",
    minArgs: 0,
    maxArgs: 0,
    options: {
      limit: {
        type: "string",
        valueName: "N",
        description: "Show at most N entries (default 20; 0: all)",
      },
      address: {
        type: "string",
        valueName: "ADDR",
        description: "Only the entries that changed this node",
      },
    },
  },
  {
    name: "state locks",
    summary: "Show the state lock and the reservations",
    args: "",
    minArgs: 0,
    maxArgs: 0,
    options: {},
  },
  {
    name: "state mv",
    summary: "Move a record, or the records under an address, to another address",
    args: "FROM TO",
    minArgs: 2,
    maxArgs: 2,
    options: {},
  },
  {
    name: "state rm",
    summary: "Forget records without destroying their objects",
    args: "ADDR...",
    minArgs: 1,
    maxArgs: Infinity,
    options: {
      "dry-run": {
        type: "boolean",
        description: "List what would be removed, and remove nothing (also -dry-run)",
      },
    },
  },
  {
    name: "state release",
    summary: "Release a reservation (operators only; there is no MCP tool for it)",
    args: "ID",
    minArgs: 1,
    maxArgs: 1,
    options: {},
  },
  {
    name: "state unlock",
    summary:
      "Release the state lock a run left behind (operators only; there is no MCP tool for it)",
    args: "LOCK_ID",
    minArgs: 1,
    maxArgs: 1,
    options: {
      force: {
        type: "boolean",
        description:
          "Release it without asking (also -force); without a terminal it is refused otherwise",
      },
    },
  },
  {
    name: "state migrate",
    summary: "Copy the root's state to another store (SQLite, PostgreSQL) and verify the copy",
    args: "",
    minArgs: 0,
    maxArgs: 0,
    options: {
      to: {
        type: "string",
        valueName: "URL",
        description:
          "Where to copy it: sqlite:PATH or postgres://USER@HOST:PORT/DATABASE?root=KEY; refused when it holds the root already",
      },
    },
  },
];
