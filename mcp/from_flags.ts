/**
 * A tool's input schema and argument list, drawn from its command's flag
 * specifications (lib/cli/commands.ts): the tool says only which of the
 * command's flags an agent may pass, under what name, and how to describe
 * each to a model. What a flag's value is (a boolean, a string, one of some
 * choices, a repeatable list) comes from the command itself, so the two
 * cannot disagree, and a tool that names a flag its command does not have
 * fails when the tool list is built (mcp/tools_test.ts builds it).
 *
 * The argument list is always the same shape: the tags (`-t`), the
 * command's words, the positional values, then the flags in the order the
 * tool lists them, each `--flag` or `--flag=value`.
 *
 * @module
 */

import type { CommandSpec, OptionSpec } from "../lib/cli/command.ts";
import { findCommand, GLOBAL_OPTIONS } from "../lib/cli/commands.ts";

/** A JSON Schema for one tool's arguments or result. */
export type JsonSchema = Record<string, unknown>;

/** A tool argument that is a flag of its command. */
export interface FlagArg {
  /** The command's option: `include-skipped`. */
  flag: string;
  /** What the argument means, written for a model. */
  description: string;
  /** A string option that the command reads as a whole number of at least this. */
  minimum?: number;
  /** A repeatable option passed once, its values joined by commas: `--only=a,b`. */
  joined?: boolean;
}

/** The tool argument that holds the command's positional value or values. */
export interface PositionalArg {
  /** Its name among the tool's arguments: `planfile`, `types`. */
  name: string;
  description: string;
  /** Whether an agent must give it; default: when the command needs one. */
  required?: boolean;
}

/** What a tool takes of its command. */
export interface ToolArgs {
  /** The command, as lib/cli/commands.ts names it: `plan`, `state show`. */
  command: string;
  positional?: PositionalArg;
  /** Whether the tool takes tags, which the global `-t` passes. */
  tags?: boolean;
  /** The flags an agent may pass, by argument name, in the order of the argument list. */
  flags?: Record<string, FlagArg>;
}

/** The pattern of one tag, `key=value`. */
export const TAG_PATTERN = "^[A-Za-z_][A-Za-z0-9_.-]*=";

const TAGS_DESCRIPTION =
  "Tags as key=value strings; each fills the field marked @tag(key), as -t key=value does";

/** A tool's arguments as checked and passed: the schema, its positional name, the argument list. */
export interface GeneratedArgs {
  inputSchema: JsonSchema;
  /** The argument that reaches the command line as a word of its own, if any. */
  positional?: string;
  argv(args: Record<string, unknown>): string[];
}

function commandOf(name: string): CommandSpec {
  const c = findCommand(name);
  if (!c) throw new Error(`bug: a tool runs "${name}", which is no command of lib/cli/commands.ts`);
  return c;
}

function optionOf(c: CommandSpec, flag: string): OptionSpec {
  const o = Object.hasOwn(c.options, flag) ? c.options[flag] : undefined;
  if (!o) throw new Error(`bug: a tool passes --${flag}, which "pravo ${c.name}" does not take`);
  return o;
}

/** The schema of a flag's value, as its option spec says it is. */
function flagSchema(o: OptionSpec, f: FlagArg): JsonSchema {
  if (o.type === "boolean") return { type: "boolean", description: f.description };
  if (o.multiple) return { type: "array", items: { type: "string" }, description: f.description };
  if (f.minimum !== undefined) {
    return { type: "integer", minimum: f.minimum, description: f.description };
  }
  if (o.choices) return { type: "string", enum: [...o.choices], description: f.description };
  return { type: "string", description: f.description };
}

/** The words of one flag for an argument's value. */
function flagWords(flag: string, o: OptionSpec, f: FlagArg, value: unknown): string[] {
  if (value === undefined) return [];
  if (o.type === "boolean") return value ? [`--${flag}`] : [];
  if (o.multiple) {
    const values = value as string[];
    if (f.joined) return values.length ? [`--${flag}=${values.join(",")}`] : [];
    return values.map((v) => `--${flag}=${v}`);
  }
  return [`--${flag}=${value}`];
}

/**
 * The input schema and argument list of a tool that runs `args.command`;
 * `tagWords` turns the tags into `-t` words.
 */
export function fromFlags(
  args: ToolArgs,
  tagWords: (args: Record<string, unknown>) => string[],
): GeneratedArgs {
  const command = commandOf(args.command);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const p = args.positional;
  const many = command.maxArgs > 1;
  if (p) {
    if (command.maxArgs === 0) {
      throw new Error(
        `bug: "pravo ${command.name}" takes no positional value, yet a tool passes one`,
      );
    }
    properties[p.name] = many
      ? {
        type: "array",
        items: { type: "string" },
        ...(command.minArgs > 0 ? { minItems: command.minArgs } : {}),
        description: p.description,
      }
      : { type: "string", description: p.description };
    if (p.required ?? command.minArgs > 0) required.push(p.name);
  }
  if (args.tags) {
    if (!GLOBAL_OPTIONS.t?.multiple) throw new Error("bug: the global -t is not repeatable");
    properties.tags = {
      type: "array",
      items: { type: "string", pattern: TAG_PATTERN },
      description: TAGS_DESCRIPTION,
    };
  }
  const flags = Object.entries(args.flags ?? {}).map(([name, f]) => {
    const o = optionOf(command, f.flag);
    if (f.joined && !o.multiple) throw new Error(`bug: --${f.flag} is not repeatable`);
    if (name === "tags" || name === p?.name) throw new Error(`bug: two arguments are "${name}"`);
    properties[name] = flagSchema(o, f);
    return { name, o, f };
  });
  const inputSchema: JsonSchema = {
    type: "object",
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
  return {
    inputSchema,
    positional: p?.name,
    argv(a) {
      const out = args.tags ? tagWords(a) : [];
      out.push(...command.name.split(" "));
      if (p && a[p.name] !== undefined) {
        out.push(...(many ? a[p.name] as string[] : [a[p.name] as string]));
      }
      for (const { name, o, f } of flags) out.push(...flagWords(f.flag, o, f, a[name]));
      return out;
    },
  };
}
