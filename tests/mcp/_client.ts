/**
 * Test helpers for `pravo mcp`: a real MCP client (the SDK's `Client` over
 * `StdioClientTransport`) connected to the server started in a root, either
 * from the source with `deno run -A main.ts mcp` or through `scripts/pravo
 * mcp` (the narrow permissions an operator runs); roots; and a look at the
 * processes that the server starts.
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
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { makeRoot, pravo, SEED } from "../_pravo.ts";

export { makeRoot, pravo, SEED };

export const PROJECT = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");
export const MAIN = `${PROJECT}/main.ts`;
export const SCRIPT = `${PROJECT}/scripts/pravo`;

/** A root with a resource whose creation takes `seconds`: for timeouts and cancellation. */
export const SLEEPY = (seconds: number) =>
  `package slow

import tm "pravo.dev/providers/hashicorp/time"

$time: tm.#Provider

nap: $time.#Resource.time_sleep & {create_duration: "${seconds}s"}
`;

/**
 * A new root whose resource takes `seconds` to create, after `pravo init`,
 * with its plan saved in x.plan: an apply_plan call that runs that long.
 */
export async function sleepyPlanned(seconds: number): Promise<string> {
  const root = await makeRoot({ "main.cue": SLEEPY(seconds) });
  assert.equal((await pravo(root, ["init"])).code, 0);
  assert.equal((await pravo(root, ["plan", "--out", "x.plan"])).code, 2);
  return root;
}

/** A new root holding the seed page's main.cue, after `pravo init`. */
export async function seedRoot(files: Record<string, string> = {}): Promise<string> {
  const root = await makeRoot({ "main.cue": SEED, ...files });
  const init = await pravo(root, ["init"]);
  if (init.code !== 0) throw new Error(`pravo init failed: ${init.stderr}`);
  return root;
}

/** An approver key pair in a folder of its own; `await using` removes the folder. */
export interface ApproverKey {
  /** The private key's path. */
  key: string;
  /** The public key's path. */
  pub: string;
  /** The folder that holds both. */
  dir: string;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * A new approver key pair, made by `pravo approver-key` in a folder of its
 * own outside every root: the private key's path and the public key's.
 */
export async function approverKey(): Promise<ApproverKey> {
  const dir = await Deno.makeTempDir({ prefix: "pravo-approver-" });
  await Deno.mkdir(`${dir}/elsewhere`); // the directory it runs in: not where the key goes
  const r = await pravo(`${dir}/elsewhere`, ["approver-key", `${dir}/op`]);
  if (r.code !== 0) throw new Error(`pravo approver-key failed: ${r.stderr}`);
  return {
    key: `${dir}/op`,
    pub: `${dir}/op.pub`,
    dir,
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

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

/** The processes whose command line mentions `needle`, with their argument lists. */
export function processesWith(needle: string): { pid: number; argv: string[] }[] {
  const found: { pid: number; argv: string[] }[] = [];
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    let raw: string;
    try {
      raw = Deno.readTextFileSync(`/proc/${e.name}/cmdline`);
    } catch {
      continue; // ended meanwhile
    }
    const argv = raw.split("\0").filter((w, i, all) => i < all.length - 1 || w !== "");
    if (argv.some((w) => w.includes(needle))) found.push({ pid: Number(e.name), argv });
  }
  return found;
}

/** Waits until `check` is true, at most `ms`. */
export async function waitFor(check: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
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
