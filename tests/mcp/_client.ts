/**
 * Test helpers for `pravo mcp`: a real MCP client (the SDK's `Client` over
 * `StdioClientTransport`) connected to the server started in a root, either
 * from the source with `deno run -A main.ts mcp` or through `scripts/pravo
 * mcp` (the narrow permissions an operator runs), or a raw server for what a
 * client library would not send; the roots (tests/_pravo.ts) and the look at
 * processes (tests/_processes.ts) its tests use, passed on.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { fileURLToPath } from "node:url";
import {
  type ApproverKey,
  approverKey,
  makeRoot,
  pravo,
  SEED,
  seedRoot,
  SLEEPY,
  sleepyPlanned,
} from "../_pravo.ts";
import { processesWith, waitFor } from "../_processes.ts";

export { type ApproverKey, approverKey, makeRoot, pravo, SEED, seedRoot, SLEEPY, sleepyPlanned };
export { processesWith, waitFor };

export const PROJECT = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");
export const MAIN = `${PROJECT}/main.ts`;
export const SCRIPT = `${PROJECT}/scripts/pravo`;

/**
 * A transport that asks for a protocol version of its choice in `initialize`
 * (the SDK's client always asks for its latest) and keeps the version the
 * server answered with.
 */
class AskVersion implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The protocolVersion of the initialize result. */
  negotiated?: string;
  #inner: Transport;
  #version?: string;
  #initId?: string | number;

  constructor(inner: Transport, version?: string) {
    this.#inner = inner;
    this.#version = version;
  }

  start(): Promise<void> {
    this.#inner.onclose = () => this.onclose?.();
    this.#inner.onerror = (e) => this.onerror?.(e);
    this.#inner.onmessage = (m) => {
      const r = m as { id?: string | number; result?: { protocolVersion?: string } };
      if (r.id !== undefined && r.id === this.#initId) this.negotiated = r.result?.protocolVersion;
      this.onmessage?.(m);
    };
    return this.#inner.start();
  }

  send(message: JSONRPCMessage): Promise<void> {
    const m = message as { id?: string | number; method?: string; params?: object };
    if (m.method === "initialize") {
      this.#initId = m.id;
      if (this.#version !== undefined) {
        message = {
          ...message,
          params: { ...m.params, protocolVersion: this.#version },
        } as JSONRPCMessage;
      }
    }
    return this.#inner.send(message);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}

export interface Session {
  client: Client;
  /** The protocol version the server answered `initialize` with. */
  negotiated: string;
  /** The server's process id. */
  pid: number;
  /** What the server wrote on stderr so far. */
  stderr(): string;
  close(): Promise<void>;
  /** What `await using` calls: close(). */
  [Symbol.asyncDispose](): Promise<void>;
}

export interface ConnectOptions {
  /** `pravo mcp` flags. */
  args?: string[];
  /** Start the server through scripts/pravo (narrow permissions) rather than `deno run -A`. */
  script?: boolean;
  /** With `script`: another launcher of the same kind (scripts/pravo-bundle). */
  command?: string;
  /** The protocol version to ask for; default the SDK's latest. */
  protocolVersion?: string;
  env?: Record<string, string>;
}

/** Starts `pravo mcp ARGS` in `root` and connects the SDK's client to it. */
export async function connect(root: string, opts: ConnectOptions = {}): Promise<Session> {
  const args = ["mcp", ...(opts.args ?? [])];
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: Deno.env.get("HOME") ?? "/root",
    PRAVO_ACTOR: "test",
    ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
    ...opts.env,
  };
  const inner = new StdioClientTransport({
    command: opts.script ? opts.command ?? SCRIPT : Deno.execPath(),
    args: opts.script ? args : ["run", "-A", "--quiet", MAIN, ...args],
    cwd: root,
    env,
    stderr: "pipe",
  });
  let err = "";
  inner.stderr?.on("data", (c: Uint8Array | string) => {
    err += typeof c === "string" ? c : new TextDecoder().decode(c);
  });
  const transport = new AskVersion(inner, opts.protocolVersion);
  const client = new Client({ name: "pravo-tests", version: "1" });
  await client.connect(transport);
  return {
    client,
    negotiated: transport.negotiated ?? "",
    pid: inner.pid ?? 0,
    stderr: () => err,
    close: () => client.close(),
    [Symbol.asyncDispose]: () => client.close(),
  };
}

/** The result of a tools/call, as the tests read it. */
export interface ToolResult {
  content: { type: string; text: string }[];
  isError?: boolean;
  structuredContent?: { exit_code: number };
}

/** Calls a tool and returns its result. */
export async function call(
  s: Session,
  name: string,
  args: Record<string, unknown> = {},
  options: { signal?: AbortSignal; onprogress?: (p: { progress: number }) => void } = {},
): Promise<ToolResult> {
  return await s.client.callTool({ name, arguments: args }, undefined, {
    signal: options.signal,
    onprogress: options.onprogress,
    timeout: 120_000,
  }) as ToolResult;
}

/** The exit code of the pravo process behind a result (none when no process ran). */
export function exitCode(r: ToolResult): number | undefined {
  return r.structuredContent?.exit_code;
}

/** The text of a result. */
export function text(r: ToolResult): string {
  return r.content.map((c) => c.text).join("");
}

/** A raw `pravo mcp` process, for what a client library would not send. */
export function rawServer(root: string, args: string[] = []) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", MAIN, "mcp", ...args],
    cwd: root,
    env: { PRAVO_ACTOR: "test" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  return {
    child,
    async send(line: string): Promise<void> {
      await writer.write(new TextEncoder().encode(line));
    },
    /** The next line the server wrote. */
    async read(): Promise<string> {
      for (;;) {
        const nl = buf.indexOf("\n");
        if (nl >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          return line;
        }
        const { value, done } = await lines.read();
        if (done) throw new Error(`the server ended; read so far: ${buf}`);
        buf += value;
      }
    },
    /** Closes the server's stdin, as a client that is done does; reading goes on. */
    async closeStdin(): Promise<void> {
      await writer.close();
    },
    async end(): Promise<Deno.CommandStatus> {
      await writer.close().catch(() => {});
      lines.releaseLock();
      await child.stdout.cancel().catch(() => {});
      const status = await child.status;
      await child.stderr.cancel().catch(() => {});
      return status;
    },
  };
}
