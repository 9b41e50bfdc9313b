/**
 * JSON-RPC 2.0 over standard input and output, one message per line.
 *
 * The SDK's stdio transport would do, but pravo's answers are a contract to
 * the byte (the seed page): the envelope is written `jsonrpc`, `id`, then
 * `result` or `error`, and what a result holds is written with its keys
 * sorted. A line that is not JSON gets a -32700 error, a line over the size
 * limit a -32600 error, and the server goes on. Every request gets exactly
 * one answer: one whose `id` is not a string or a whole number (an object,
 * a boolean, a fraction) is answered -32600 with an `id` of null; one whose
 * params the protocol's schema refuses (an object `progressToken`) -32602;
 * one that reuses the id of a request still being answered -32600, and the
 * first keeps its answer. A client that closes our stdout ends the server
 * quietly; one that closes our stdin gets every answer first.
 *
 * @module
 */

import { sortKeys } from "../lib/json.ts";
// @ts-types="@modelcontextprotocol/sdk/types"
import { JSONRPCRequestSchema } from "@modelcontextprotocol/sdk/types.js";

// deno-lint-ignore no-explicit-any
type Message = Record<string, any>;

/** The largest request line the server reads (1 MiB). */
export const MAX_LINE_BYTES = 1024 * 1024;

/** Writes one message: the envelope in JSON-RPC order, the payload with sorted keys. */
export function serialize(message: Message): string {
  const out: Message = { jsonrpc: "2.0" };
  if ("id" in message) out.id = message.id;
  if ("method" in message) out.method = message.method;
  if ("params" in message) out.params = sortKeys(message.params);
  if ("result" in message) out.result = sortKeys(message.result);
  if ("error" in message) out.error = message.error;
  return JSON.stringify(out);
}

export class LineTransport {
  onmessage?: (message: Message) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  #closed = false;
  #input: ReadableStream<Uint8Array>;
  #write: (text: string) => Promise<void>;

  constructor(
    input: ReadableStream<Uint8Array> = Deno.stdin.readable,
    write: (text: string) => Promise<void> = writeStdout,
  ) {
    this.#input = input;
    this.#write = write;
  }

  start(): Promise<void> {
    // Read in the background; the SDK awaits start() before it goes on.
    this.#read().catch((e) => this.onerror?.(e as Error));
    return Promise.resolve();
  }

  async #read(): Promise<void> {
    const decoder = new TextDecoder();
    let buf = "";
    let skipping = false;
    for await (const chunk of this.#input) {
      buf += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (skipping) {
          skipping = false;
          continue;
        }
        await this.#line(line);
      }
      if (buf.length > MAX_LINE_BYTES) {
        await this.#tooLarge(buf.length);
        buf = "";
        skipping = true; // drop the rest of that line
      }
    }
    if (buf.trim() && !skipping && !this.#stopped) await this.#line(buf);
    // The client closed stdin: answer what it asked before ending.
    await this.#drain();
    await this.close();
  }

  /**
   * The arguments of each tools/call as JSON.parse read them: the SDK's
   * schema copies them into a fresh object, where a `__proto__` key becomes
   * the prototype instead of an argument, so the server checks these.
   */
  #arguments = new Map<string, unknown>();

  /** The arguments of the tools/call with this id, as the client sent them. */
  takeArguments(id: string | number): unknown {
    const key = idKey(id);
    const args = this.#arguments.get(key);
    this.#arguments.delete(key);
    return args;
  }

  /** Requests read and not answered yet, by {@link idKey}. */
  #pending = new Map<string, unknown>();
  #drained?: () => void;
  #stopped = false;

  /**
   * Waits until every request read is answered. Should a request be left
   * that nothing will answer (a bug), it is answered with -32603 once
   * nothing has been written for `idleMs`, so that the server still ends.
   */
  async #drain(idleMs = 30_000): Promise<void> {
    while (this.#pending.size) {
      const before = this.#written;
      const answered = new Promise<boolean>((r) => (this.#drained = () => r(true)));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const idle = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), idleMs)));
      const done = await Promise.race([answered, idle]);
      clearTimeout(timer);
      if (!done && this.#written === before && this.#idle()) {
        for (const id of [...this.#pending.values()]) {
          await this.send({
            id,
            error: {
              code: -32603,
              message: "Internal error: the server could not answer this request",
            },
          });
        }
      }
    }
  }

  /** Messages written so far: a drain that sees none for a while ends. */
  #written = 0;
  /** True when no call is running: set by the server. */
  #idle: () => boolean = () => true;

  /** Tells the transport how to know that no call is running. */
  set isIdle(f: () => boolean) {
    this.#idle = f;
  }

  /**
   * Stops reading requests (the server is stopping), waits at most `ms` for
   * the answers to the requests already read, then closes.
   */
  stop(ms: number): void {
    if (this.#stopped) return;
    this.#stopped = true;
    (async () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        this.#drain(ms),
        new Promise((r) => (timer = setTimeout(r, ms))),
      ]);
      clearTimeout(timer);
      await this.close();
    })();
  }

  async #tooLarge(size: number): Promise<void> {
    await this.send({
      id: null,
      error: {
        code: -32600,
        message:
          `Request too large: more than ${size} bytes on one line; the server reads at most ${MAX_LINE_BYTES} bytes a message`,
      },
    });
  }

  async #line(line: string): Promise<void> {
    if (!line.trim()) return;
    if (new TextEncoder().encode(line).length > MAX_LINE_BYTES) {
      await this.#tooLarge(line.length);
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch (e) {
      await this.send({
        id: null,
        error: {
          code: -32700,
          message: `Parse error: the line is not JSON (${(e as Error).message})`,
        },
      });
      return;
    }
    if (
      !message || typeof message !== "object" || Array.isArray(message) ||
      (message as Message).jsonrpc !== "2.0"
    ) {
      await this.send({
        id: (message as Message)?.id ?? null,
        error: { code: -32600, message: "Invalid request: a message is one JSON-RPC 2.0 object" },
      });
      return;
    }
    const m = message as Message;
    if (this.#stopped) return;
    if ("id" in m && !validId(m.id)) {
      await this.send({
        id: null,
        error: {
          code: -32600,
          message: `Invalid request: an id is a string or a whole number, not ${describe(m.id)}`,
        },
      });
      return;
    }
    if ("method" in m && typeof m.method !== "string") {
      await this.send({
        id: "id" in m ? m.id : null,
        error: { code: -32600, message: "Invalid request: method is not a string" },
      });
      return;
    }
    if ("method" in m && "id" in m) {
      const checked = JSONRPCRequestSchema.safeParse(m);
      if (!checked.success) {
        const issue = checked.error.issues[0];
        const where = issue?.path?.length ? issue.path.join(".") : "the request";
        const token = m.params?._meta?.progressToken;
        const text = token !== undefined && !validId(token)
          ? "params._meta.progressToken must be a string or a whole number"
          : `${where}: ${issue?.message ?? "not what the protocol allows"}`;
        await this.send({ id: m.id, error: { code: -32602, message: `Invalid params: ${text}` } });
        return;
      }
      const key = idKey(m.id);
      if (this.#pending.has(key)) {
        // The first request keeps its id and its answer; this one is refused.
        await this.#send({
          id: m.id,
          error: {
            code: -32600,
            message: `Invalid request: id ${
              JSON.stringify(m.id)
            } is already used by a request this server is still answering; give each request its own id`,
          },
        });
        return;
      }
      this.#pending.set(key, m.id);
      const args = m.params?.arguments;
      if (m.method === "tools/call" && args && typeof args === "object") {
        this.#arguments.set(key, args);
      }
    }
    if (m.method === "notifications/cancelled" && validId(m.params?.requestId)) {
      this.#pending.delete(idKey(m.params.requestId));
      this.#arguments.delete(idKey(m.params.requestId));
      if (this.#pending.size === 0) this.#drained?.();
    }
    this.onmessage?.(m);
  }

  async send(message: Message): Promise<void> {
    try {
      await this.#send(message);
    } finally {
      // Only once the answer is written may a closed stdin end the server:
      // the process exits right after, and a write still under way is lost.
      this.#written++;
      if (
        ("result" in message || "error" in message) && validId(message.id) &&
        this.#pending.delete(idKey(message.id))
      ) {
        this.#arguments.delete(idKey(message.id));
        if (this.#pending.size === 0) this.#drained?.();
      }
    }
  }

  async #send(message: Message): Promise<void> {
    if (this.#closed) return;
    try {
      await this.#write(serialize(message) + "\n");
    } catch (e) {
      if (e instanceof Deno.errors.BrokenPipe) {
        // The client is gone: nothing to answer anymore.
        await this.close();
        return;
      }
      throw e;
    }
  }

  close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.onclose?.();
    }
    return Promise.resolve();
  }
}

/** A request id the server accepts: a string, or a whole number. */
function validId(id: unknown): id is string | number {
  return typeof id === "string" || Number.isSafeInteger(id);
}

/** A key for an id: 1 and "1" are two ids. */
function idKey(id: string | number): string {
  return `${typeof id}:${id}`;
}

/** What a wrong id is, for the error message. */
function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "number") return `the number ${v}`;
  if (typeof v === "object") return "an object";
  return `a ${typeof v}`;
}

const encoder = new TextEncoder();

async function writeStdout(text: string): Promise<void> {
  const bytes = encoder.encode(text);
  let off = 0;
  while (off < bytes.length) off += await Deno.stdout.write(bytes.subarray(off));
}
