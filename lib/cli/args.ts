/**
 * Parsing the command line: the command word(s), the global flags and the
 * command's own flags, wherever they stand.
 *
 * @module
 */

import { parseArgs } from "node:util";
import type { CommandSpec, OptionSpec, OptionValues } from "./command.ts";
import { COMMANDS, findCommand, GLOBAL_OPTIONS, groups } from "./commands.ts";
import { didYouMean } from "../diag/diag.ts";
import { rewriteSingleDash } from "./single_dash.ts";
import { UsageError } from "../diag/usage.ts";

export interface Parsed {
  /** Absent when no command was given (`pravo`, `pravo --help`). */
  command?: CommandSpec;
  options: OptionValues;
  args: string[];
}

/** Every long flag of pravo, for reading Terraform's single-dash spellings. */
function longFlags(): Map<string, OptionSpec> {
  const all = new Map<string, OptionSpec>([["version", { type: "boolean", description: "" }]]);
  for (const opts of [GLOBAL_OPTIONS, ...COMMANDS.map((c) => c.options)]) {
    for (const [k, o] of Object.entries(opts)) if (k.length > 1) all.set(k, o);
  }
  return all;
}

/** Splits `argv` into the command, its options and its positional arguments. */
export function parse(argv: string[]): Parsed {
  // Terraform's `-out=F`, `-auto-approve`, `-target=A` (lib/cli/single_dash.ts).
  const rewritten = rewriteSingleDash(argv, longFlags());
  if ("error" in rewritten) throw new UsageError(rewritten.error);
  // `-C=DIR` as `-C DIR`.
  argv = rewritten.argv.flatMap((a) => {
    const short = /^-([A-Za-z])=(.*)$/s.exec(a);
    return short ? [`-${short[1]}`, short[2]] : [a];
  });
  // Find the command words: the first one or two arguments that are neither
  // flags nor the values of global flags that take one.
  const words: number[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const a = argv[i];
    if (a === "--") break;
    if (a.startsWith("-") && a !== "-") {
      if (!a.includes("=") && takesValue(a)) i++;
      continue;
    }
    if (words.length === 1 && !groups().has(argv[words[0]])) break;
    words.push(i);
  }
  if (words.length === 0) {
    // Only global flags (`pravo --version`, `pravo --help`).
    const { values } = parseGlobal(argv, { version: { type: "boolean", description: "" } });
    return { options: values, args: [] };
  }
  let name = argv[words[0]];
  if (groups().has(name)) {
    if (words.length < 2) {
      // `pravo state --help` is `pravo help state`: the group's commands, exit 0.
      if (argv.some((a) => a === "--help" || a === "-h")) {
        return { command: findCommand("help")!, options: {}, args: [name] };
      }
      const subs = COMMANDS.filter((c) => c.name.startsWith(name + " ")).map((c) => c.name);
      throw new UsageError(`"${name}" needs a subcommand: ${subs.join(", ")}`, name);
    }
    name = `${name} ${argv[words[1]]}`;
  } else {
    words.length = 1;
  }
  const command = findCommand(name);
  if (!command) {
    const hint = didYouMean(name, COMMANDS.map((c) => c.name));
    throw new UsageError(
      `unknown command "${name}"${hint ? ` (${hint})` : ""}; run "pravo --help" for the list`,
    );
  }
  const rest = argv.filter((_, i) => !words.includes(i));
  const { values, positionals } = parseGlobal(rest, command.options, command);
  if (!values.help) {
    if (positionals.length < command.minArgs) {
      throw new UsageError(
        `"${command.name}" needs ${command.args}; run "pravo ${command.name} --help"`,
        command.name,
      );
    }
    if (positionals.length > command.maxArgs) {
      const extra = positionals[command.maxArgs];
      throw new UsageError(
        `"${command.name}" takes ${
          command.maxArgs === 0 ? "no arguments" : `at most ${command.maxArgs}`
        }, and "${extra}" is one too many`,
        command.name,
      );
    }
  }
  return { command, options: values, args: positionals };
}

function takesValue(flag: string): boolean {
  const name = flag.replace(/^-+/, "");
  const spec = GLOBAL_OPTIONS[name] ??
    Object.values(GLOBAL_OPTIONS).find((o) => o.short === name);
  return spec?.type === "string";
}

function parseGlobal(
  argv: string[],
  own: Record<string, OptionSpec>,
  command?: CommandSpec,
): { values: OptionValues; positionals: string[] } {
  const all = { ...GLOBAL_OPTIONS, ...own };
  const options: Record<
    string,
    { type: "boolean" | "string"; short?: string; multiple?: boolean }
  > = {};
  for (const [k, o] of Object.entries(all)) {
    options[k] = {
      type: o.type,
      ...(o.short ? { short: o.short } : {}),
      ...(o.multiple ? { multiple: true } : {}),
    };
  }
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options,
      allowPositionals: true,
      strict: true,
    });
    for (const [k, o] of Object.entries(all)) {
      if (o.type !== "string" || o.multiple) continue;
      const flag = k.length === 1 ? `-${k}` : `--${k}`;
      const given = argv.filter((a) => a === flag || a.startsWith(flag + "=")).length;
      if (given > 1) throw new UsageError(`${flag} may be given once`, command?.name);
    }
    return { values: values as OptionValues, positionals };
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const msg = (e as Error).message;
    const unknown = /Unknown option '([^']+)'/.exec(msg);
    if (unknown) {
      const flag = unknown[1];
      const names = Object.keys(all).map((k) => (k.length === 1 ? `-${k}` : `--${k}`));
      const hint = didYouMean(flag, names);
      const where = command ? `"${command.name}"` : "pravo";
      throw new UsageError(
        `unknown flag ${flag} for ${where}${hint ? ` (${hint})` : ""}; run "pravo ${
          command?.name ?? ""
        }${command ? " " : ""}--help" for the flags`,
        command?.name,
      );
    }
    const missing = /Option '(?:-\w, )?--?([\w-]+)(?: <value>)?' argument missing/.exec(msg);
    if (missing) {
      const name = missing[1];
      const spec = all[name];
      const flag = name.length === 1 ? `-${name}` : `--${name}`;
      throw new UsageError(
        `flag ${flag} needs a value: ${flag} ${spec?.valueName ?? "VALUE"}`,
        command?.name,
      );
    }
    const ambiguous = /Option '([^']+)'.*(?:does not take an argument|argument is ambiguous)/.exec(
      msg,
    );
    if (ambiguous) {
      throw new UsageError(`flag ${ambiguous[1]}: ${msg}`, command?.name);
    }
    throw new UsageError(msg, command?.name);
  }
}

/** Parses `-t KEY=VALUE` values into a record; a malformed one is a usage error. */
export function parseTags(values: string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values ?? []) {
    const eq = v.indexOf("=");
    if (eq <= 0) {
      throw new UsageError(`tag "${v}" is not KEY=VALUE: write -t ${v || "name"}=value`);
    }
    // Defined, not assigned: a key such as __proto__ is a tag like any other.
    Object.defineProperty(out, v.slice(0, eq), {
      value: v.slice(eq + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** The help text of a command, or of pravo when none is given. */
export function helpText(command?: CommandSpec): string {
  const flagLines = (opts: Record<string, OptionSpec>) =>
    Object.entries(opts).map(([k, o]) => {
      const flag = (k.length === 1 ? `-${k}` : `--${k}`) + (o.short ? `, -${o.short}` : "") +
        (o.type === "string" ? ` ${o.valueName ?? "VALUE"}` : "");
      return `  ${flag.padEnd(24)} ${o.description}`;
    });
  if (!command) {
    const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
    return [
      "Usage: pravo [global flags] COMMAND [flags] [args]",
      "",
      "pravo plans and applies infrastructure written in CUE.",
      "",
      "Commands:",
      ...COMMANDS.map((c) => `  ${c.name.padEnd(width)} ${c.summary}`),
      "",
      "Global flags:",
      ...flagLines(GLOBAL_OPTIONS),
      "  --version                Print the version",
      "",
      'Run "pravo COMMAND --help" for a command\'s own flags.',
      "",
    ].join("\n");
  }
  const lines = [
    `Usage: pravo ${command.name}${Object.keys(command.options).length ? " [flags]" : ""}${
      command.args ? " " + command.args : ""
    }`,
    "",
    command.summary + ".",
    "",
  ];
  if (Object.keys(command.options).length) {
    lines.push("Flags:", ...flagLines(command.options), "");
  }
  lines.push("Global flags:", ...flagLines(GLOBAL_OPTIONS), "");
  return lines.join("\n");
}
