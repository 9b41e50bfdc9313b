/**
 * Every command's light half: name, synopsis, flags. The parser, `--help`,
 * the shell completions and the MCP tools' argument lists are drawn from
 * these; the implementations are in lib/commands/, loaded only when one runs
 * (lib/commands/registry.ts), so `--help`, `--version` and commands that need
 * no CUE never load cue-wasm or the MCP SDK.
 *
 * @module
 */

import type { CommandSpec, OptionSpec } from "./command.ts";
import { STATE_COMMANDS } from "./commands_state.ts";

/** Flags that every command accepts. */
export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  json: { type: "boolean", description: "Print one JSON document (keys sorted, two-space indent)" },
  "no-color": {
    type: "boolean",
    description: "No colour, also when stdout is a terminal (or set NO_COLOR)",
  },
  C: {
    type: "string",
    valueName: "DIR",
    description: "The root directory (default: the current directory)",
  },
  t: {
    type: "string",
    multiple: true,
    valueName: "KEY=VALUE",
    description: "Fill the field marked @tag(KEY) with VALUE; repeatable",
  },
  actor: {
    type: "string",
    valueName: "LABEL",
    description: "Who is acting (default: $PRAVO_ACTOR, then the user name)",
  },
  reason: { type: "string", valueName: "TEXT", description: "Why (default: $PRAVO_REASON)" },
  state: {
    type: "string",
    valueName: "URL",
    description: "Where the state lives (default: $PRAVO_STATE, then SQLite in .pravo/)",
  },
  help: { type: "boolean", short: "h", description: "Show help for the command" },
};

export const COMMANDS: CommandSpec[] = [
  {
    name: "init",
    summary: "Prepare the root: the state store, the plugin providers and the provider lock",
    args: "",
    minArgs: 0,
    maxArgs: 0,
    options: {
      upgrade: {
        type: "boolean",
        description:
          "Choose the newest versions the constraints allow, not the locked ones (also -upgrade)",
      },
    },
  },
  {
    name: "validate",
    summary: "Check the specification and count what it declares",
    args: "",
    minArgs: 0,
    maxArgs: 0,
    options: {},
  },
  {
    name: "fmt",
    summary: "Rewrite the root's .cue files in CUE's canonical format (as cue fmt)",
    args: "[FILE...]",
    minArgs: 0,
    maxArgs: Infinity,
    options: {
      check: {
        type: "boolean",
        description: "Write nothing; list the files that would change and exit 3 if any",
      },
      diff: { type: "boolean", description: "Print the changes as a unified diff" },
    },
  },
  {
    name: "convert",
    summary: "Write the CUE of a Terraform configuration (DIR) into the root",
    args: "DIR",
    minArgs: 1,
    maxArgs: 1,
    options: {
      from: {
        type: "string",
        valueName: "FORMAT",
        choices: ["terraform"],
        description: "What DIR holds: terraform (a directory of .tf files); required",
      },
      force: {
        type: "boolean",
        description: "Write over the root's .cue files of the same names (the others stay)",
      },
    },
  },
  {
    name: "plan",
    summary: "Show what apply would change; save it with --out for apply",
    args: "",
    minArgs: 0,
    maxArgs: 0,
    options: {
      out: {
        type: "string",
        valueName: "FILE",
        description: "Save the plan to FILE (written atomically) for `pravo apply FILE`",
      },
      refresh: {
        type: "string",
        valueName: "MODE",
        choices: ["age", "expired", "false", "all"],
        description:
          "What to read from the real world: age (default: records past their refresh age), expired, false, all",
      },
      destroy: { type: "boolean", description: "Plan to destroy every node in the state" },
      replace: {
        type: "string",
        multiple: true,
        valueName: "ADDR",
        description: "Replace this node even if nothing changed; repeatable",
      },
      full: {
        type: "boolean",
        description: "Run every node, also those whose configuration and inputs did not change",
      },
      "include-skipped": {
        type: "boolean",
        description: "List the nodes the plan left alone too (address, mode, type, name)",
      },
      reserve: {
        type: "boolean",
        description:
          "Reserve the nodes this plan changes, so no one else changes them until it is applied",
      },
      "reserve-for": {
        type: "string",
        valueName: "DURATION",
        description: "How long a reservation lasts (default 1h)",
      },
      policy: {
        type: "string",
        multiple: true,
        valueName: "FILE",
        description:
          "A CUE policy the plan must satisfy; repeatable. Refused: exit 5, no plan file",
      },
    },
  },
  {
    name: "show",
    summary: "Show a saved plan, and whether it is stale or approved",
    args: "PLANFILE",
    minArgs: 1,
    maxArgs: 1,
    options: {
      approver: {
        type: "string",
        multiple: true,
        valueName: "FILE.pub",
        description:
          "An approver's public key (outside the root): say whether the plan is approved by one; repeatable",
      },
      format: {
        type: "string",
        valueName: "FORMAT",
        choices: ["pravo", "terraform"],
        description:
          "terraform: print the plan in Terraform's JSON plan format (as terraform show -json), without secrets",
      },
    },
  },
  {
    name: "apply",
    summary: "Apply a saved plan, or plan and ask first",
    args: "[PLANFILE]",
    minArgs: 0,
    maxArgs: 1,
    options: {
      only: {
        type: "string",
        multiple: true,
        valueName: "A,B",
        description: "Apply only these nodes of the plan",
      },
      "with-dependencies": {
        type: "boolean",
        description:
          "With --only: also apply the changes those nodes depend on, as Terraform's -target does",
      },
      "auto-approve": {
        type: "boolean",
        description: "Without a plan file: apply without asking (also -auto-approve)",
      },
      parallelism: {
        type: "string",
        valueName: "N",
        description: "How many nodes to apply at once (default 10)",
      },
      "expect-digest": {
        type: "string",
        valueName: "SHA256",
        description:
          "Apply the plan file only if its bytes have this SHA-256 (pravo mcp --require-approval)",
      },
      refresh: {
        type: "string",
        valueName: "MODE",
        choices: ["age", "expired", "false", "all"],
        description: "Without a plan file: as plan --refresh",
      },
      destroy: { type: "boolean", description: "Without a plan file: destroy every node" },
      replace: {
        type: "string",
        multiple: true,
        valueName: "ADDR",
        description: "Without a plan file: as plan --replace",
      },
      policy: {
        type: "string",
        multiple: true,
        valueName: "FILE",
        description:
          "A CUE policy the plan must satisfy, judged before anything is applied; repeatable",
      },
    },
  },
  {
    name: "destroy",
    summary: "Destroy every node in the state: plan --destroy, then apply (asks first)",
    args: "",
    minArgs: 0,
    maxArgs: 0,
    options: {
      "auto-approve": {
        type: "boolean",
        description: "Destroy without asking (also -auto-approve)",
      },
      refresh: {
        type: "string",
        valueName: "MODE",
        choices: ["age", "expired", "false", "all"],
        description: "What to read from the real world first, as plan --refresh",
      },
      parallelism: {
        type: "string",
        valueName: "N",
        description: "How many nodes to destroy at once (default 10)",
      },
      policy: {
        type: "string",
        multiple: true,
        valueName: "FILE",
        description:
          "A CUE policy the plan must satisfy, judged before anything is destroyed; repeatable",
      },
    },
  },
  {
    name: "import",
    summary:
      "Bring an existing object into the state at a node the root declares, or take over a Terraform state",
    args: "ADDR ID | --from terraform FILE.tfstate",
    minArgs: 1,
    maxArgs: 2,
    options: {
      from: {
        type: "string",
        valueName: "TOOL",
        choices: ["terraform"],
        description:
          "terraform: take over every object of FILE.tfstate, a Terraform or OpenTofu state (format 4)",
      },
      "generate-config": {
        type: "string",
        valueName: "FILE",
        description:
          "For a node the root does not declare yet: write its CUE, read from the provider, into this new .cue file of the root, then import it",
      },
      type: {
        type: "string",
        valueName: "TYPE",
        description: "With --generate-config: the node's type, when ADDR does not end in TYPE.NAME",
      },
      provider: {
        type: "string",
        valueName: "NAME",
        description:
          "With --generate-config: the provider configuration ($NAME) to declare the node on, when several offer the type",
      },
    },
  },
  ...STATE_COMMANDS,
  {
    name: "why",
    summary: "Say why nodes are or are not in the plan",
    args: "ADDR...",
    minArgs: 1,
    maxArgs: Infinity,
    options: {
      refresh: {
        type: "string",
        valueName: "MODE",
        choices: ["age", "expired", "false", "all"],
        description: "What to read from the real world, as plan --refresh",
      },
      replace: {
        type: "string",
        multiple: true,
        valueName: "ADDR",
        description: "As plan --replace",
      },
    },
  },
  {
    name: "output",
    summary: "Show the root's outputs, with the values applied",
    args: "[NAME]",
    minArgs: 0,
    maxArgs: 1,
    options: {
      "show-sensitive": {
        type: "boolean",
        description: "Show sensitive values (only when stdout is a terminal)",
      },
    },
  },
  {
    name: "drift",
    summary: "Read the real world and report how it differs from the state",
    args: "",
    minArgs: 0,
    maxArgs: 0,
    options: {
      due: {
        type: "boolean",
        description:
          "List the records past their refresh age, the longest overdue first; read nothing",
      },
      limit: {
        type: "string",
        valueName: "N",
        description: "With --due: list at most N records (default 20)",
      },
    },
  },
  {
    name: "schema",
    summary: "Show the attributes of one or more types",
    args: "TYPE...",
    minArgs: 1,
    maxArgs: Infinity,
    options: {
      required: {
        type: "boolean",
        description: "Show only the attributes the configuration must set",
      },
    },
  },
  {
    name: "providers",
    summary: "List the providers, their versions and their types",
    args: "",
    minArgs: 0,
    maxArgs: 0,
    options: {},
  },
  {
    name: "approve",
    summary: "Sign that a saved plan was reviewed (for pravo mcp --require-approval)",
    args: "PLANFILE",
    minArgs: 1,
    maxArgs: 1,
    options: {
      key: {
        type: "string",
        valueName: "FILE",
        description:
          "The approver's private key, made by `pravo approver-key` (default: $PRAVO_APPROVER_KEY)",
      },
    },
  },
  {
    name: "approver-key",
    summary: "Make an approver's key pair, FILE and FILE.pub, outside the root",
    args: "FILE",
    minArgs: 1,
    maxArgs: 1,
    options: {},
  },
  {
    name: "graph",
    summary: "Show the dependency graph of the root's nodes, in DOT or JSON",
    args: "",
    minArgs: 0,
    maxArgs: 0,
    options: {
      plan: {
        type: "string",
        valueName: "PLANFILE",
        description: "Colour the nodes by the action this saved plan gives them",
      },
    },
  },
  {
    name: "version",
    summary: "Show pravo's version, the platform and the providers' versions",
    args: "",
    minArgs: 0,
    maxArgs: 0,
    options: {},
  },
  {
    name: "help",
    summary: "Show the help of pravo or of a command",
    args: "[COMMAND]",
    minArgs: 0,
    maxArgs: 2,
    options: {},
  },
  {
    name: "completion",
    summary: "Print a shell completion script for bash, zsh or fish",
    args: "bash|zsh|fish",
    minArgs: 1,
    maxArgs: 1,
    options: {},
  },
  {
    name: "mcp",
    summary: "Serve pravo to an AI agent over the Model Context Protocol on stdio",
    args: "",
    minArgs: 0,
    maxArgs: 0,
    options: {
      policy: {
        type: "string",
        multiple: true,
        valueName: "FILE",
        description:
          "A policy (absolute path) that every plan and apply the server runs must satisfy; repeatable",
      },
      "read-only": { type: "boolean", description: "Register no tool that can change anything" },
      "require-approval": {
        type: "boolean",
        description:
          "Apply only plan files that an operator approved with `pravo approve` (needs --approver)",
      },
      approver: {
        type: "string",
        multiple: true,
        valueName: "FILE.pub",
        description:
          "An approver's public key (absolute path, outside the root) whose approvals the server trusts; repeatable; implies --require-approval",
      },
      "max-result-bytes": {
        type: "string",
        valueName: "N",
        description: "Cut a tool result longer than N bytes, with a note (default 40960)",
      },
      timeout: {
        type: "string",
        valueName: "DURATION",
        description: "Stop a tool call that runs longer (default 10m)",
      },
      "max-calls": {
        type: "string",
        valueName: "N",
        description: "Run at most N tool calls at once; the others wait their turn (default 2)",
      },
      "call-memory": {
        type: "string",
        valueName: "MIB",
        description:
          "The memory one tool call's process may use, in MiB: half for JavaScript, half for CUE (default 2048)",
      },
    },
  },
];

/** The command with this name (one word, or two for `state show`). */
export function findCommand(name: string): CommandSpec | undefined {
  return COMMANDS.find((c) => c.name === name);
}

/** Names of commands that have subcommands (`state`). */
export function groups(): Set<string> {
  return new Set(COMMANDS.filter((c) => c.name.includes(" ")).map((c) => c.name.split(" ")[0]));
}
