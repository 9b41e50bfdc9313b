/**
 * `pravo help [COMMAND]`: the same text as `pravo --help` and
 * `pravo COMMAND --help`; `pravo help state` lists the state commands.
 *
 * @module
 */

import type { CommandRun } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { helpText } from "../cli/args.ts";
import { UsageError } from "../diag/usage.ts";
import { COMMANDS, findCommand, groups } from "../cli/commands.ts";
import { didYouMean } from "../diag/diag.ts";

export const run: CommandRun = (ctx, _opts, args) => {
  ctx.streams.stdout(helpFor(args));
  return Promise.resolve(Exit.OK);
};

/** The help text for `pravo help ARGS`; an unknown command is a usage error. */
export function helpFor(args: string[]): string {
  if (args.length === 0) return helpText();
  const name = args.join(" ");
  const command = findCommand(name);
  if (command) return helpText(command);
  if (args.length === 1 && groups().has(name)) {
    const subs = COMMANDS.filter((c) => c.name.startsWith(name + " "));
    const width = Math.max(...subs.map((c) => c.name.length)) + 2;
    return [
      `Usage: pravo ${name} COMMAND [flags] [args]`,
      "",
      "Commands:",
      ...subs.map((c) => `  ${c.name.padEnd(width)} ${c.summary}`),
      "",
      `Run "pravo help ${name} COMMAND" for a command's flags.`,
      "",
    ].join("\n");
  }
  const hint = didYouMean(name, COMMANDS.map((c) => c.name));
  throw new UsageError(
    `unknown command "${name}"${hint ? ` (${hint})` : ""}; run "pravo help" for the list`,
  );
}
