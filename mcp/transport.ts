/**
 * JSON-RPC 2.0 over standard input and output, one message per line.
 *
 * The SDK's stdio transport would do, but pravo's answers are a contract to
 * the byte (the seed page): the envelope is written `jsonrpc`, `id`, then
 * `result` or `error`, and what a result holds is written with its keys
 * sorted. A line that is not JSON gets a -32700 error, a line over the size
 * limit a -32600 error, and the server goes on. A client that closes our
 * stdout ends the server quietly.
 *
 * @module
 */

import { sortKeys } from "../lib/cli/output.ts";

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
    if (buf.trim() && !skipping) await this.#line(buf);
    // The client closed stdin: answer what it asked before ending.
    while (this.#pending.size) await new Promise<void>((r) => (this.#drained = r));
    await this.close();
  }

  /** Requests read and not answered yet, by id. */
  #pending = new Set<unknown>();
  #drained?: () => void;

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
    if ("method" in m && "id" in m && m.id !== null) this.#pending.add(m.id);
    if (m.method === "notifications/cancelled") this.#pending.delete(m.params?.requestId);
    this.onmessage?.(m);
  }

  async send(message: Message): Promise<void> {
    try {
      await this.#send(message);
    } finally {
      // Only once the answer is written may a closed stdin end the server:
      // the process exits right after, and a write still under way is lost.
      if (("result" in message || "error" in message) && this.#pending.delete(message.id)) {
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

const encoder = new TextEncoder();

async function writeStdout(text: string): Promise<void> {
  const bytes = encoder.encode(text);
  let off = 0;
  while (off < bytes.length) off += await Deno.stdout.write(bytes.subarray(off));
}
