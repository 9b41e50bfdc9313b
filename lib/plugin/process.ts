/**
 * A provider process: started with the handshake, connected, stopped.
 *
 * {@link startPlugin} runs the executable with the environment of
 * `env.ts` (the magic cookie, the protocol versions pravo offers, a client
 * certificate for AutoMTLS, a private 0700 directory for its socket), reads
 * the handshake line from its stdout within a time limit, and connects:
 * plain gRPC over the unix socket, or mutual TLS when the provider answered
 * with its certificate. Its stderr (and what go-plugin streams over
 * GRPCStdio) is drained from the start, the tail kept for error reports.
 *
 * {@link PluginProcess.close} asks go-plugin's controller to shut down, waits
 * a grace period, then kills; every running process is tracked by `exit.ts`
 * so that none outlives pravo.
 *
 * @module
 */

import { dirname } from "node:path";
import { type Diagnostic, error } from "../diag/diag.ts";
import { makeClientCertificate } from "./cert.ts";
import { providerEnvironment } from "./env.ts";
import { track, untrack } from "./exit.ts";
import { Connection, type TlsSettings } from "./grpc.ts";
import { type Handshake, parseHandshake, quoteLine } from "./handshake.ts";
import { OutputTail } from "./output.ts";
import { shutdownMethod, stdioMethod } from "./proto/load.ts";
import type { ProtocolVersion } from "./proto/tfplugin.ts";

/** A value or the diagnostics that say why there is none. */
export interface Result<T> {
  value?: T;
  diagnostics: Diagnostic[];
}

export interface StartOptions {
  /** The provider executable, absolute. */
  command: string;
  args?: string[];
  /** The provider's name in messages: `hashicorp/aws`. */
  name: string;
  /** The protocol versions to offer; default both, 5 and 6. */
  protocols?: ProtocolVersion[];
  /** Mutual TLS on the socket, as Terraform does; default true. */
  autoMTLS?: boolean;
  /** How long the provider may take to print its handshake; default 60 s. */
  handshakeTimeoutMs?: number;
  /** How long `close()` waits after Shutdown before it kills; default 2 s. */
  shutdownGraceMs?: number;
  /** The working directory of the process. */
  cwd?: string;
  /**
   * Where the provider's unix socket is to be. Its directory is made (0700)
   * if missing and given to the provider (`PLUGIN_UNIX_SOCKET_DIR`); after
   * the handshake pravo moves the socket to this exact path, so that narrow
   * Deno permissions can grant the connection: read and write of the
   * directory and `--allow-net=unix:PATH` (Deno checks the path). By default
   * the socket is made in a private temporary directory, and connecting to
   * it needs `--allow-net`.
   */
  socketPath?: string;
  /** Variables to add to its environment (see env.ts for the rule). */
  env?: Record<string, string>;
  /** The environment to start from instead of pravo's (tests). */
  environment?: Record<string, string>;
  /** Gets every byte the provider writes, e.g. for a log file. */
  logSink?: (chunk: Uint8Array) => void;
}

/** How a process ended. */
export interface ExitInfo {
  code: number;
  signal: Deno.Signal | null;
}

function describeExit(e: ExitInfo): string {
  return e.signal ? `was killed by ${e.signal}` : `exited with code ${e.code}`;
}

/** A running provider process and its connection. */
export class PluginProcess {
  readonly name: string;
  readonly command: string;
  readonly pid: number;
  readonly handshake: Handshake;
  readonly connection: Connection;
  /** True when the connection is mutual TLS. */
  readonly tls: boolean;
  /** Resolves when the process has exited. */
  readonly exited: Promise<ExitInfo>;
  readonly #child: Deno.ChildProcess;
  readonly #tail: OutputTail;
  readonly #leftovers: string[];
  readonly #graceMs: number;
  #exit?: ExitInfo;
  #stdio?: { cancel(): void };
  #closing?: Promise<void>;

  /** @internal: made by {@link startPlugin}. */
  constructor(init: {
    name: string;
    command: string;
    child: Deno.ChildProcess;
    exited: Promise<ExitInfo>;
    tail: OutputTail;
    leftovers: string[];
    handshake: Handshake;
    tlsSettings?: TlsSettings;
    graceMs: number;
  }) {
    this.name = init.name;
    this.command = init.command;
    this.#child = init.child;
    this.pid = init.child.pid;
    this.#tail = init.tail;
    this.#leftovers = init.leftovers;
    this.handshake = init.handshake;
    this.#graceMs = init.graceMs;
    this.tls = !!init.tlsSettings;
    this.connection = new Connection(
      { network: init.handshake.network, address: init.handshake.address },
      init.tlsSettings,
    );
    this.exited = init.exited.then((e) => {
      this.#exit = e;
      return e;
    });
  }

  /** How the process ended, once it has. */
  get exitInfo(): ExitInfo | undefined {
    return this.#exit;
  }

  /** What it wrote lately, fit for a diagnostic (see output.ts). */
  outputReport(lines = 20): string {
    return this.#tail.report(lines);
  }

  /** Every byte it wrote to stderr and stdio so far. */
  get outputBytes(): number {
    return this.#tail.total;
  }

  /** A sentence on how the process ended, or "" while it runs. */
  exitSentence(): string {
    return this.#exit ? `The provider process ${describeExit(this.#exit)}.` : "";
  }

  /** @internal: starts reading GRPCStdio (best effort: old plugins lack it). */
  streamStdio(sink: (b: Uint8Array) => void): void {
    try {
      const s = this.connection.stream(stdioMethod(), {}, (m) => {
        if (m.data?.length) sink(m.data as Uint8Array);
      });
      s.done.catch(() => {});
      this.#stdio = s;
    } catch {
      // not served
    }
  }

  /**
   * Ends the process: go-plugin's Shutdown, then SIGKILL after the grace
   * period if it is still there. Safe to call twice.
   */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    if (!this.#exit) {
      const grace = new Promise<"late">((r) => {
        const t = setTimeout(() => r("late"), this.#graceMs);
        this.exited.finally(() => clearTimeout(t));
      });
      // The process exits before it answers: an error here is expected.
      this.connection.unary(shutdownMethod(), {}, { deadlineMs: this.#graceMs }).catch(() => {});
      const how = await Promise.race([this.exited, grace]);
      if (how === "late") {
        try {
          this.#child.kill("SIGKILL");
        } catch {
          // gone meanwhile
        }
        await this.exited;
      }
    }
    this.#release();
  }

  /** Kills the process at once; synchronous, for pravo's exit path. */
  killNow(): void {
    if (!this.#exit) {
      try {
        this.#child.kill("SIGKILL");
      } catch {
        // gone
      }
    }
    this.#release();
  }

  #released = false;
  #release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#stdio?.cancel();
    this.connection.close();
    removeSync(this.#leftovers);
    untrack(this);
  }
}

/** Reads the first line of a stream; the rest goes to `rest`. */
async function firstLine(
  stream: ReadableStream<Uint8Array>,
  rest: (b: Uint8Array) => void,
): Promise<{ line?: string; overflow?: string }> {
  const reader = stream.getReader();
  const dec = new TextDecoder();
  let text = "";
  while (true) {
    const { value, done } = await reader.read();
    if (done) {
      reader.releaseLock();
      return text ? { overflow: text } : {};
    }
    const nl = value.indexOf(0x0a);
    if (nl >= 0) {
      text += dec.decode(value.subarray(0, nl + 1));
      if (nl + 1 < value.length) rest(value.subarray(nl + 1));
      // Keep draining: a full pipe would block the provider.
      (async () => {
        try {
          while (true) {
            const r = await reader.read();
            if (r.done) break;
            rest(r.value);
          }
        } catch {
          // the process is gone
        }
      })();
      return { line: text };
    }
    text += dec.decode(value, { stream: true });
    if (text.length > 4096) {
      rest(value);
      (async () => {
        try {
          while (!(await reader.read()).done) { /* drain */ }
        } catch {
          // gone
        }
      })();
      return { overflow: text };
    }
  }
}

function output(tail: OutputTail): string {
  const r = tail.report();
  return r
    ? ` Its last output:\n${r.split("\n").map((l) => `  ${l}`).join("\n")}\n`
    : " It printed nothing.";
}

/** Where the provider's socket goes, and what to remove after: a private directory, or the path asked for. */
async function socketPlace(
  opts: StartOptions,
): Promise<{ socketDir: string; leftovers: string[] } | { problem: string }> {
  try {
    if (opts.socketPath) {
      const socketDir = dirname(opts.socketPath);
      await Deno.mkdir(socketDir, { recursive: true, mode: 0o700 });
      removeSync([opts.socketPath]);
      return { socketDir, leftovers: [opts.socketPath] };
    }
    const socketDir = await Deno.makeTempDir({ prefix: "pravo-plugin-" });
    return { socketDir, leftovers: [socketDir] };
  } catch (e) {
    return {
      problem:
        `pravo could not make a private directory for its socket: ${(e as Error).message}. ` +
        "Check that the temporary directory ($TMPDIR) is writable.",
    };
  }
}

/** The provider's process, started; or why it could not be. */
function spawnProvider(
  opts: StartOptions,
  env: Record<string, string>,
  clearEnv: boolean,
): { child: Deno.ChildProcess } | { problem: string } {
  try {
    const child = new Deno.Command(opts.command, {
      args: opts.args ?? [],
      env,
      clearEnv,
      cwd: opts.cwd,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    return { child };
  } catch (e) {
    const msg = (e as Error).message;
    if (e instanceof Deno.errors.NotFound) {
      return { problem: `"${opts.command}" does not exist. Run \`pravo init\` to install it.` };
    }
    if (e instanceof Deno.errors.PermissionDenied) {
      return {
        problem:
          `"${opts.command}" cannot be run (${msg}). Check that it is an executable file, or run \`pravo init\` to install it again.`,
      };
    }
    if (e instanceof Deno.errors.NotCapable) {
      return {
        problem: `pravo's permissions do not allow running "${opts.command}" (${msg}). ` +
          "Pin the provider in pravo.lock.json with `pravo init`, then start pravo again.",
      };
    }
    return {
      problem: `Running "${opts.command}" failed: ${msg}. Check the provider's installation.`,
    };
  }
}

/**
 * The provider's handshake line, read from its stdout within the timeout;
 * or why there is none (it timed out, closed its output, wrote no line, or
 * exited first).
 */
async function handshakeLine(
  opts: StartOptions,
  child: Deno.ChildProcess,
  exited: Promise<ExitInfo>,
  killed: Killed,
  tail: OutputTail,
  sink: (b: Uint8Array) => void,
): Promise<{ line: string } | { problem: string }> {
  // Until the handshake is read, an early exit of pravo must still kill it.
  const early = { killNow: () => killSync(killed) };
  track(early);

  const timeoutMs = opts.handshakeTimeoutMs ?? 60_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const first = await Promise.race([
    firstLine(child.stdout, sink).then((r) => ({ kind: "line" as const, ...r })),
    exited.then((e) => ({ kind: "exit" as const, exit: e })),
    new Promise<{ kind: "timeout" }>((r) => {
      timer = setTimeout(() => r({ kind: "timeout" }), timeoutMs);
    }),
  ]);
  clearTimeout(timer);
  untrack(early);

  if (first.kind === "timeout") {
    return {
      problem:
        `It printed no handshake line within ${seconds(timeoutMs)} and was stopped.${
          output(tail)
        }` +
        ` Check that "${opts.command}" is a Terraform or OpenTofu provider; if the machine is busy, try again.`,
    };
  }
  let exit = first.kind === "exit" ? first.exit : undefined;
  const said = first.kind === "line" && !first.line && first.overflow
    ? ` It printed ${quoteLine(first.overflow)}.`
    : "";
  if (first.kind === "line" && !first.line) {
    // Its stdout ended, or it wrote kilobytes without a newline. Ended: it
    // is probably exiting; let the exit be seen. Still running: stop it.
    let timer: ReturnType<typeof setTimeout> | undefined;
    exit = await Promise.race([
      exited,
      new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), 500))),
    ]);
    clearTimeout(timer);
    if (!exit) {
      await kill(killed);
      return {
        problem: `Its handshake failed: ${
          first.overflow
            ? `it printed ${quoteLine(first.overflow)} instead of its handshake line`
            : "it closed its standard output before it printed its handshake line"
        }.${output(tail)} Check that "${opts.command}" is a Terraform or OpenTofu provider.`,
      };
    }
  }
  const line = first.kind === "line" ? first.line : undefined;
  if (exit || !line) {
    const e = exit ?? await exited;
    return {
      problem: `It ${describeExit(e)} before it printed its handshake line.${said}${output(tail)}` +
        ` Check that "${opts.command}" is a Terraform or OpenTofu provider built for this machine.`,
    };
  }
  return { line };
}

/** Starts a provider and connects to it; diagnostics say why not. */
export async function startPlugin(opts: StartOptions): Promise<Result<PluginProcess>> {
  const protocols = opts.protocols ?? [5, 6];
  const who = `the provider "${opts.name}"`;
  const cantStart = (detail: string): Result<PluginProcess> => ({
    diagnostics: [error(`Cannot start ${who}`, detail)],
  });

  const place = await socketPlace(opts);
  if ("problem" in place) return cantStart(place.problem);
  const { socketDir, leftovers } = place;
  const cleanDir = () => Promise.resolve(removeSync(leftovers));

  const cert = opts.autoMTLS === false ? undefined : await makeClientCertificate();
  const { env, clearEnv } = providerEnvironment({
    protocols,
    provider: opts.name,
    clientCertPem: cert?.certPem,
    socketDir,
    extra: opts.env,
    source: opts.environment,
  });

  const spawned = spawnProvider(opts, env, clearEnv);
  if ("problem" in spawned) {
    await cleanDir();
    return cantStart(spawned.problem);
  }
  const child = spawned.child;

  const tail = new OutputTail();
  const sink = (b: Uint8Array) => {
    tail.push(b);
    try {
      opts.logSink?.(b);
    } catch {
      // a failing log sink must not stop the provider
    }
  };
  // Drain stderr from the first byte to the last.
  const stderrDone = (async () => {
    try {
      for await (const chunk of child.stderr) sink(chunk);
    } catch {
      // the process is gone
    }
  })();
  const exited = child.status.then(async (s) => {
    await Promise.race([stderrDone, new Promise((r) => setTimeout(r, 200))]);
    return { code: s.code, signal: s.signal } as ExitInfo;
  });

  const killed: Killed = { proc: child, exited, leftovers };
  const abandon = async (summary: string, detail: string): Promise<Result<PluginProcess>> => {
    await kill(killed);
    await cleanDir();
    return { diagnostics: [error(summary, detail)] };
  };
  const read = await handshakeLine(opts, child, exited, killed, tail, sink);
  if ("problem" in read) return abandon(`${cap(who)} did not start`, read.problem);
  const line = read.line;
  const hs = parseHandshake(line, protocols);
  if (!hs.ok) {
    return abandon(
      `${cap(who)} did not start`,
      `Its handshake failed: ${hs.problem}.${output(tail)}` +
        ` Check that "${opts.command}" is a Terraform or OpenTofu provider that speaks protocol ${
          protocols.join(" or ")
        }.`,
    );
  }

  if (opts.socketPath && hs.value.network === "unix" && hs.value.address !== opts.socketPath) {
    try {
      Deno.renameSync(hs.value.address, opts.socketPath);
    } catch (e) {
      return abandon(
        `${cap(who)} did not start`,
        `pravo could not move its socket from "${hs.value.address}" to "${opts.socketPath}": ${
          (e as Error).message
        }. The provider may be too old to honour PLUGIN_UNIX_SOCKET_DIR: use a newer version of it.`,
      );
    }
    hs.value.address = opts.socketPath;
  }

  let tlsSettings: TlsSettings | undefined;
  if (hs.value.serverCert) {
    tlsSettings = {
      serverPem: hs.value.serverCert.pem,
      serverDer: hs.value.serverCert.der,
      clientCertPem: cert?.certPem,
      clientKeyPem: cert?.keyPem,
    };
  }
  const proc = new PluginProcess({
    name: opts.name,
    command: opts.command,
    child,
    exited,
    tail,
    leftovers,
    handshake: hs.value,
    tlsSettings,
    graceMs: opts.shutdownGraceMs ?? 2000,
  });
  track(proc);
  proc.exited.then(() => untrack(proc));
  proc.streamStdio(sink);
  return { value: proc, diagnostics: [] };
}

interface Killed {
  proc: Deno.ChildProcess;
  exited: Promise<ExitInfo>;
  leftovers: string[];
}

/** Removes files and directories, quietly: they may be gone already. */
function removeSync(paths: string[]): void {
  for (const p of paths) {
    try {
      Deno.removeSync(p, { recursive: true });
    } catch {
      // gone, or not ours to remove
    }
  }
}

async function kill(k: Killed): Promise<void> {
  try {
    k.proc.kill("SIGKILL");
  } catch {
    // gone
  }
  await k.exited;
}

function killSync(k: Killed): void {
  try {
    k.proc.kill("SIGKILL");
  } catch {
    // gone
  }
  removeSync(k.leftovers);
}

function cap(s: string): string {
  return s[0].toUpperCase() + s.slice(1);
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
