/**
 * The shape of a command and the context it runs in.
 *
 * Commands are thin: parse flags (done by `main.ts` from the spec), call the
 * engine, hand the result to a view, return an exit code.
 *
 * @module
 */

import { type Diagnostic, DiagnosticsError } from "../diag/diag.ts";
import { exitCodeOf } from "./exit.ts";
import { diagnosticsJson, renderDiagnostics } from "../render/diagnostics.ts";
import { Style } from "../diag/style.ts";
import { stableJson } from "../json.ts";
import type { Workspace } from "../workspace/types.ts";
import type { Interrupts } from "../workspace/interrupts.ts";

/** An option a command accepts, with its help text. */
export interface OptionSpec {
  type: "boolean" | "string";
  short?: string;
  multiple?: boolean;
  description: string;
  /** The placeholder shown in help for a string option: `FILE`. */
  valueName?: string;
  /** The values a string option takes, when it takes only some (shell completion offers them). */
  choices?: string[];
}

/** The light half of a command: what `--help` and the parser need. */
export interface CommandSpec {
  /** `validate`, or two words for a subcommand: `state show`. */
  name: string;
  summary: string;
  /** Positional arguments as shown in the synopsis: `PLANFILE`, `[TYPE...]`. */
  args: string;
  /** Least and most positional arguments (`Infinity` for no limit). */
  minArgs: number;
  maxArgs: number;
  options: Record<string, OptionSpec>;
}

export type OptionValues = Record<string, string | boolean | string[] | boolean[] | undefined>;

export type CommandRun = (
  ctx: Context,
  opts: OptionValues,
  args: string[],
) => Promise<number>;

/** Where a command's writes go: real streams in `main.ts`, buffers in tests. */
export interface Streams {
  /**
   * Human views and documents. Invisible and bidirectional characters are
   * shown as escapes on the way out (lib/diag/visible.ts).
   */
  stdout(text: string): void;
  stderr(text: string): void;
  /**
   * Standard output as it is, for a value a script reads (`output NAME`
   * piped); default `stdout`.
   */
  raw?(text: string): void;
  /** Standard output is a terminal. */
  isTerminal: boolean;
}

/** What every command gets: the global flags, resolved. */
export interface Context {
  /** The root directory, absolute. */
  root: string;
  /** What the command works on: the root's configuration, lock, providers, pins, signal. */
  workspace: Workspace;
  /**
   * The interrupts of the run, owned by the command layer (main.ts feeds it
   * the signals): what is held, whether one came; its signal is the workspace's.
   */
  interrupts: Interrupts;
  json: boolean;
  color: boolean;
  style: Style;
  /** `-t KEY=VALUE` tags, in the order given. */
  tags: Record<string, string>;
  actor: string;
  reason: string;
  /** The state location from `--state` or `$PRAVO_STATE`, if any. */
  state?: string;
  /**
   * `-C DIR` and `--state LOC` as given on the command line: what a command
   * that a message suggests needs to reach the same root and state
   * (lib/diag/hint.ts).
   */
  place?: string[];
  streams: Streams;
}

/** Prints a document: the JSON form with `--json`, else the human view. */
export function emit(ctx: Context, doc: unknown, human: () => string): void {
  if (ctx.json) {
    ctx.streams.stdout(stableJson(doc) + "\n");
  } else {
    const text = human();
    if (text !== "") ctx.streams.stdout(text.endsWith("\n") ? text : text + "\n");
  }
}

/** Prints warnings (to stderr) without ending the command. */
export function emitWarnings(ctx: Context, diags: readonly Diagnostic[]): void {
  const warnings = diags.filter((d) => d.severity === "warning");
  if (warnings.length === 0) return;
  if (ctx.json) return; // carried inside the JSON document by the command
  ctx.streams.stderr(renderDiagnostics(warnings, ctx.style) + "\n");
}

/**
 * Reports diagnostics that end a command and returns its exit code. They go
 * to stderr: with `--json` as one JSON error object
 * (`{"diagnostics": [...], "error": true, "exit_code": N}`), so that stdout
 * keeps only the command's result document.
 */
export function fail(
  ctx: Pick<Context, "json" | "streams" | "style">,
  err: DiagnosticsError,
): number {
  if (ctx.json) {
    ctx.streams.stderr(
      stableJson({
        diagnostics: diagnosticsJson(err.diagnostics),
        error: true,
        exit_code: exitCodeOf(err.kind),
      }) + "\n",
    );
  } else {
    ctx.streams.stderr(renderDiagnostics(err.diagnostics, ctx.style));
  }
  return exitCodeOf(err.kind);
}
