/**
 * pravo: plans and applies infrastructure written in CUE.
 *
 * This file dispatches the command line to one module per command in
 * `lib/commands/`; it is the one place that exits.
 *
 * @module
 */

import { helpText, parse, parseTags } from "./lib/cli/args.ts";
import { UsageError } from "./lib/diag/usage.ts";
import { type Context, fail, type Streams } from "./lib/cli/command.ts";
import { Style } from "./lib/diag/style.ts";
import { Exit } from "./lib/cli/exit.ts";
import { DiagnosticsError } from "./lib/diag/diag.ts";
import { visible } from "./lib/diag/visible.ts";
import { FATAL_EVENT, type FatalEvent } from "./lib/diag/fatal.ts";
import { Interrupts, listen } from "./lib/workspace/interrupts.ts";
import { internalErrorDiagnostics } from "./lib/cli/internal.ts";
import { VERSION } from "./lib/version.ts";
import { placeFlags } from "./lib/diag/hint.ts";
import type { Pinned } from "./lib/workspace/pinned.ts";
import { closeAll, removeSocketDir, runningCount } from "./lib/providers/plugin/running.ts";
import { loadCommand } from "./lib/commands/registry.ts";

/** The first argument of a child of `pravo mcp` (lib/workspace/pinned.ts's `PINNED_FLAG`). */
export const PINNED_FLAG = "--pinned-stdin";

/** The global flags a child of `pravo mcp` takes from the pinned document, never from its argv. */
const PINNED_OPTIONS = ["C", "actor", "reason", "state"];

/** What {@linkcode run} tells its caller as it goes. */
export interface RunHooks {
  /** The command line is read: the command and its context, before it runs. */
  onStart?: (ctx: Context, command: string) => void;
  /** The interrupts the command runs under; default its own, which no signal reaches. */
  interrupts?: Interrupts;
}

/**
 * Runs pravo with `argv` and returns the exit code; writes through `streams`.
 * With `pinned` (a child of `pravo mcp`, lib/workspace/pinned.ts), the root, the
 * state, the policies, the actor, the reason and the operator's tags come
 * from that document, which the command's workspace carries (`Workspace.pinned`).
 */
export async function run(
  argv: string[],
  streams: Streams,
  env: (name: string) => string | undefined,
  pinned?: Pinned,
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
  // Loaded once the command is known, so that --version and --help load
  // neither node:path nor node:os (tests/startup_test.ts).
  const [{ isAbsolute, resolve }, { mergeTags }, { defaultActor }, { openWorkspace }] =
    await Promise.all([
      import("node:path"),
      import("./lib/workspace/pinned.ts"),
      import("./lib/cli/actor.ts"),
      import("./lib/workspace/workspace.ts"),
    ]);
  const noColor = Boolean(options["no-color"]) || (env("NO_COLOR") ?? "") !== "";
  const color = !noColor && streams.isTerminal;
  let tags: Record<string, string>;
  try {
    tags = parseTags(options.t as string[] | undefined);
  } catch (e) {
    streams.stderr(`Error: ${(e as Error).message}\n`);
    return Exit.USAGE;
  }
  if (pinned) {
    const given = PINNED_OPTIONS.find((o) => options[o] !== undefined);
    if (given) {
      streams.stderr(
        `Error: ${
          given.length === 1 ? "-" : "--"
        }${given} is given by pravo mcp's pinned document in a pinned run; leave it out\n`,
      );
      return Exit.USAGE;
    }
    const merged = mergeTags(pinned.tags, tags);
    if ("conflict" in merged) {
      const k = merged.conflict;
      streams.stderr(
        `Error: tag "${k}" is set by the server to ${
          JSON.stringify(pinned.tags[k])
        }: the operator's tags win; leave ${k} out of tags\n`,
      );
      return Exit.USAGE;
    }
    tags = merged.tags;
  }
  const dir = pinned?.root ?? (options.C as string | undefined) ?? ".";
  const root = isAbsolute(dir) ? resolve(dir) : resolve(Deno.cwd(), dir);
  // One per command, owned here: main() feeds it the signals.
  const interrupts = hooks.interrupts ?? new Interrupts();
  const ctx: Context = {
    root,
    workspace: await openWorkspace(root, { pinned, signal: interrupts.signal }),
    interrupts,
    json: Boolean(options.json),
    color,
    style: new Style(color),
    tags,
    actor: pinned?.actor ?? await defaultActor(options.actor as string | undefined, env),
    reason: pinned?.reason ?? (options.reason as string | undefined) ?? env("PRAVO_REASON") ?? "",
    // A pinned run's state location is the pinned one (lib/state/open.ts).
    state: pinned ? undefined : (options.state as string | undefined) ?? env("PRAVO_STATE"),
    place: pinned ? [] : placeFlags(options),
    streams,
  };
  hooks.onStart?.(ctx, command.name);
  try {
    const impl = await loadCommand(command.name);
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
  } finally {
    // The plugin providers this command started end with it.
    if (runningCount()) await closeAll();
    removeSocketDir();
    if (env("PRAVO_TIMINGS")) {
      const { timingsReport } = await import("./lib/cli/timings.ts");
      streams.stderr(JSON.stringify({ pravo_timings: await timingsReport() }) + "\n");
    }
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

/** All of standard input as text, at most `limit` bytes. */
async function readStdin(limit: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of Deno.stdin.readable) {
    size += chunk.length;
    if (size > limit) throw new Error(`standard input holds more than ${limit} bytes`);
    chunks.push(chunk);
  }
  // Loaded here: lib/bytes.ts needs node:buffer, which --version and --help must not load.
  const { concat } = await import("./lib/bytes.ts");
  return new TextDecoder().decode(concat(chunks));
}

if (import.meta.main) {
  const streams: Streams = {
    // What reads differently from what it is (bidi controls, zero-width
    // characters) is shown as an escape in every view and message.
    stdout: (t) => streams.raw!(visible(t)),
    raw: (t) => {
      try {
        writeAll(Deno.stdout, t);
      } catch (e) {
        if (e instanceof Deno.errors.BrokenPipe) Deno.exit(0);
        throw e;
      }
    },
    stderr: (t) => {
      try {
        writeAll(Deno.stderr, visible(t));
      } catch {
        // nowhere left to report to
      }
    },
    isTerminal: Deno.stdout.isTerminal(),
  };
  // A failure raised off the call stack (lib/diag/fatal.ts) ends the process
  // here, reported as the command reports its failures once it has started.
  let failWith = (err: DiagnosticsError) =>
    fail({ json: false, streams, style: new Style(false) }, err);
  globalThis.addEventListener(FATAL_EVENT, (ev) => {
    const { fatal } = ev as FatalEvent;
    ev.preventDefault();
    Deno.exit("signal" in fatal ? 128 + fatal.signal : failWith(fatal.error));
  });
  let code: number;
  try {
    let argv = Deno.args;
    let pinned: Pinned | undefined;
    if (argv[0] === "--plugin-grant" && argv.length === 2) {
      // scripts/pravo asks which provider executables a command may run.
      const { pluginGrantText } = await import("./lib/cli/plugin_grant.ts");
      streams.stdout(pluginGrantText(argv[1]));
      Deno.exit(0);
    }
    if (argv[0] === PINNED_FLAG) {
      // A child of pravo mcp: what the server pinned comes first, on stdin.
      const { MAX_PINNED_BYTES, parsePinned } = await import("./lib/workspace/pinned.ts");
      pinned = parsePinned(await readStdin(MAX_PINNED_BYTES));
      argv = argv.slice(1);
    }
    // The interrupts of this process's one command: the signals reach it here.
    const interrupts = new Interrupts();
    code = await run(argv, streams, envGetter, pinned, {
      interrupts,
      onStart(ctx, command) {
        failWith = (err) => fail(ctx, err);
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
