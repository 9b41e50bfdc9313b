/**
 * A minimal MCP client for the benchmarks: raw JSON-RPC lines to one
 * `pravo mcp` server over stdio, one request at a time.
 *
 * @module
 */

/** One server, started, initialised, ready for tools/call. */
export class McpClient {
  #child: Deno.ChildProcess;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #lines: AsyncIterator<string>;
  #id = 0;

  private constructor(child: Deno.ChildProcess) {
    this.#child = child;
    this.#writer = child.stdin.getWriter();
    this.#lines = lines(child.stdout)[Symbol.asyncIterator]();
  }

  /** Starts the server with `argv` in `cwd` and completes the handshake. */
  static async start(argv: string[], cwd: string): Promise<McpClient> {
    const [exe, ...args] = argv;
    const child = new Deno.Command(exe, {
      args,
      cwd,
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const c = new McpClient(child);
    await c.request("initialize", {
      protocolVersion: "2024-11-05",
      capabilities: {},
      clientInfo: { name: "pravo-bench", version: "1" },
    });
    await c.#send({ jsonrpc: "2.0", method: "notifications/initialized" });
    return c;
  }

  async #send(msg: unknown): Promise<void> {
    await this.#writer.write(new TextEncoder().encode(JSON.stringify(msg) + "\n"));
  }

  /** Sends a request and waits for its response; returns the result. */
  async request(method: string, params: unknown): Promise<Record<string, unknown>> {
    const id = ++this.#id;
    await this.#send({ jsonrpc: "2.0", id, method, params });
    for (;;) {
      const next = await this.#lines.next();
      if (next.done) throw new Error(`pravo mcp ended before answering ${method}`);
      const msg = JSON.parse(next.value);
      if (msg.id !== id) continue; // a notification
      if (msg.error) throw new Error(`${method}: ${JSON.stringify(msg.error)}`);
      return msg.result;
    }
  }

  /** Calls a tool; throws when its result is an error. */
  async call(name: string, args: Record<string, unknown>): Promise<void> {
    const r = await this.request("tools/call", { name, arguments: args });
    if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
  }

  /** Closes stdin and waits for the server to end. */
  async close(): Promise<void> {
    await this.#writer.close();
    await this.#child.status;
  }
}

async function* lines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buf = "";
  for await (const chunk of stream) {
    buf += decoder.decode(chunk, { stream: true });
    let nl;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (line.trim()) yield line;
    }
  }
}
