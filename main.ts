/**
 * pravo: plans and applies infrastructure written in CUE.
 *
 * This file dispatches the command line to one module per command in
 * `lib/commands/`; it is the one place that exits.
 *
 * @module
 */

import { helpText, parse, parseTags, UsageError } from "./lib/cli/args.ts";
import { type Context, fail, type Streams } from "./lib/cli/command.ts";
import { Style } from "./lib/cli/output.ts";
import { Exit } from "./lib/cli/exit.ts";
import { DiagnosticsError } from "./lib/diag/diag.ts";
import { interrupts, listen } from "./lib/cli/interrupt.ts";
import { internalErrorDiagnostics } from "./lib/cli/internal.ts";
import { VERSION } from "./lib/version.ts";
import { isAbsolute, resolve } from "node:path";

/** What {@linkcode run} tells its caller as it goes. */
export interface RunHooks {
  /** The command line is read: the command and its context, before it runs. */
  onStart?: (ctx: Context, command: string) => void;
}

/** Runs pravo with `argv` and returns the exit code; writes through `streams`. */
export async function run(
  argv: string[],
  streams: Streams,
  env: (name: string) => string | undefined,
  hooks: RunHooks = {},
): Promise<number> {
  let parsed;
  try {
    parsed = parse(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      streams.stderr(`Error: ${e.message}\n`);
      return Exit.USAGE;
    }
    throw e;
  }
  const { command, options, args } = parsed;
  if (options.version && !command) {
    streams.stdout(
      options.json ? JSON.stringify({ version: VERSION }, null, 2) + "\n" : `pravo ${VERSION}\n`,
    );
    return Exit.OK;
  }
  if (options.help || !command) {
    streams.stdout(helpText(command));
    return command || options.help ? Exit.OK : Exit.USAGE;
  }
  const noColor = Boolean(options["no-color"]) || (env("NO_COLOR") ?? "") !== "";
  const color = !noColor && streams.isTerminal;
  let tags: Record<string, string>;
  try {
    tags = parseTags(options.t as string[] | undefined);
  } catch (e) {
    streams.stderr(`Error: ${(e as Error).message}\n`);
    return Exit.USAGE;
  }
  const dir = (options.C as string | undefined) ?? ".";
  const ctx: Context = {
    root: isAbsolute(dir) ? resolve(dir) : resolve(Deno.cwd(), dir),
    json: Boolean(options.json),
    color,
    style: new Style(color),
    tags,
    actor: (options.actor as string | undefined) ?? env("PRAVO_ACTOR") ?? env("USER") ?? "unknown",
    reason: (options.reason as string | undefined) ?? env("PRAVO_REASON") ?? "",
    state: (options.state as string | undefined) ?? env("PRAVO_STATE"),
    streams,
  };
  hooks.onStart?.(ctx, command.name);
  try {
    const impl = await command.load();
    return await impl.run(ctx, options, args);
  } catch (e) {
    if (e instanceof DiagnosticsError) return fail(ctx, e);
    if (e instanceof UsageError) {
      streams.stderr(`Error: ${e.message}\n`);
      return Exit.USAGE;
    }
    // Not a bug after all: a full disk, a read-only file system.
    const known = internalErrorDiagnostics(e);
    if (known) return fail(ctx, known);
    throw e;
  }
}

function envGetter(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined; // no permission to read it: as if unset
  }
}

const encoder = new TextEncoder();

function writeAll(rid: typeof Deno.stdout, text: string): void {
  const bytes = encoder.encode(text);
  let off = 0;
  while (off < bytes.length) off += rid.writeSync(bytes.subarray(off));
}

if (import.meta.main) {
  const streams: Streams = {
    stdout: (t) => {
      try {
        writeAll(Deno.stdout, t);
      } catch (e) {
        if (e instanceof Deno.errors.BrokenPipe) Deno.exit(0);
        throw e;
      }
    },
    stderr: (t) => {
      try {
        writeAll(Deno.stderr, t);
      } catch {
        // nowhere left to report to
      }
    },
    isTerminal: Deno.stdout.isTerminal(),
  };
  let code: number;
  try {
    code = await run(Deno.args, streams, envGetter, {
      onStart(ctx, command) {
        // pravo mcp handles its own end (its children are the ones that hold).
        if (command === "mcp") return;
        listen(interrupts, {
          note: (text) => {
            if (!ctx.json) streams.stderr(text);
          },
          exitNow: (err) => Deno.exit(fail(ctx, err)),
        });
      },
    });
  } catch (e) {
    streams.stderr(
      `Error: internal error: ${
        (e as Error)?.stack ?? e
      }\n\nThis is a bug in pravo; please report it with the command you ran.\n`,
    );
    code = Exit.ERROR;
  }
  Deno.exit(code);
}
