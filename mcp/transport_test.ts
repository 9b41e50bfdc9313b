import assert from "node:assert/strict";
import { LineTransport, MAX_LINE_BYTES, serialize } from "./transport.ts";

/** A transport reading `chunks` and collecting what it writes. */
function transport(chunks: string[], write?: (text: string) => Promise<void>) {
  const written: string[] = [];
  const input = ReadableStream.from(chunks.map((c) => new TextEncoder().encode(c)));
  const t = new LineTransport(input, write ?? ((s) => Promise.resolve(void written.push(s))));
  const received: Record<string, unknown>[] = [];
  const closed = new Promise<void>((resolve) => (t.onclose = resolve));
  t.onmessage = (m) => {
    received.push(m);
    // Answer requests as a server would.
    if ("id" in m && "method" in m) t.send({ id: m.id, result: { ok: true } });
  };
  return { t, written, received, closed };
}

/**
 * Runs a transport on `chunks` to the end: what the handler received, what
 * the transport wrote and those lines parsed.
 */
async function exchange(chunks: string[], write?: (text: string) => Promise<void>) {
  const { t, written, received, closed } = transport(chunks, write);
  await t.start();
  await closed;
  return { received, written, out: written.map((w) => JSON.parse(w)) };
}

/** A ping request line whose id is the JSON text `id`. */
const ping = (id: string) => `{"jsonrpc":"2.0","id":${id},"method":"ping"}\n`;

Deno.test("serialize() writes jsonrpc, id, then the result with its keys sorted", () => {
  assert.equal(
    serialize({ result: { b: 1, a: { d: "<&>", c: 2 } }, id: 3 }),
    '{"jsonrpc":"2.0","id":3,"result":{"a":{"c":2,"d":"<&>"},"b":1}}',
  );
  assert.equal(
    serialize({ error: { code: -32602, message: "unknown tool x" }, id: 5 }),
    '{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"unknown tool x"}}',
  );
});

Deno.test("LineTransport answers a line that is not JSON with -32700, one that is no request with -32600, and goes on", async () => {
  const r = await exchange([
    "not json\n",
    "[1,2]\n",
    ping("1"),
    "\n",
    '{"jsonrpc":"2.0","id":2,"meth',
    'od":"ping"}\n',
  ]);
  assert.deepEqual(r.received.map((m) => m.id), [1, 2]);
  assert.equal(r.out[0].error.code, -32700);
  assert.equal(r.out[0].id, null);
  assert.match(r.out[0].error.message, /^Parse error: the line is not JSON/);
  assert.deepEqual(r.out[1], {
    jsonrpc: "2.0",
    id: null,
    error: { code: -32600, message: "Invalid request: a message is one JSON-RPC 2.0 object" },
  });
  assert.deepEqual(r.out.slice(2).map((m) => m.id), [1, 2]);
  assert.ok(r.written.every((w) => w.endsWith("\n") && w.indexOf("\n") === w.length - 1));
});

Deno.test("LineTransport refuses a line over the limit with -32600 and reads the next one", async () => {
  const big = '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"' +
    "a".repeat(MAX_LINE_BYTES) +
    '"}}\n';
  // Sent in pieces, as a pipe delivers it.
  const pieces: string[] = [];
  for (let i = 0; i < big.length; i += 64 * 1024) pieces.push(big.slice(i, i + 64 * 1024));
  const { received, out } = await exchange([
    ...pieces,
    ping("2"),
  ]);
  assert.equal(out[0].error.code, -32600);
  assert.match(out[0].error.message, /^Request too large/);
  assert.deepEqual(received.map((m) => m.id), [2]);
  assert.equal(out.at(-1).id, 2);
});

Deno.test("LineTransport closes quietly when the client has closed our stdout", async () => {
  await exchange(
    [ping("1")],
    () => Promise.reject(new Deno.errors.BrokenPipe("closed")),
  );
});

Deno.test("LineTransport ends, after the client closed stdin, only once every answer is written", async () => {
  const written: string[] = [];
  const slowWrite = async (s: string) => {
    await new Promise((r) => setTimeout(r, 50));
    written.push(s);
  };
  await exchange([
    ping("1") + ping("2"),
  ], slowWrite);
  // What the process would still write after this point is lost when it exits.
  assert.deepEqual(written.map((w) => JSON.parse(w).id), [1, 2]);
});

Deno.test("LineTransport answers an id that is an object, a boolean, a fraction or null with -32600 and id null", async () => {
  const { received, out } = await exchange([
    ping('{"a":1}'),
    ping("true"),
    ping("1.5"),
    ping("null"),
    ping("[1]"),
    ping("3"),
  ]);
  assert.deepEqual(
    out.slice(0, 5).map((m) => [m.id, m.error.code, m.error.message]),
    [
      "an object",
      "a boolean",
      "the number 1.5",
      "null",
      "a list",
    ].map((what) => [
      null,
      -32600,
      `Invalid request: an id is a string or a whole number, not ${what}`,
    ]),
  );
  assert.deepEqual(received.map((m) => m.id), [3]);
  assert.equal(out[5].id, 3);
});

Deno.test("LineTransport answers params the protocol refuses (an object progressToken) with -32602 and the id", async () => {
  const { received, out } = await exchange([
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":{"a":1}}}}\n',
    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":"x"}\n',
    '{"jsonrpc":"2.0","id":3,"method":7}\n',
  ]);
  assert.deepEqual(out[0], {
    jsonrpc: "2.0",
    id: 1,
    error: {
      code: -32602,
      message: "Invalid params: params._meta.progressToken must be a string or a whole number",
    },
  });
  assert.equal(out[1].id, 2);
  assert.equal(out[1].error.code, -32602);
  assert.deepEqual([out[2].id, out[2].error.code], [3, -32600]);
  assert.deepEqual(received, []);
});

Deno.test("LineTransport refuses a second request with the id of one still being answered, and keeps the first's answer", async () => {
  const written: string[] = [];
  const input = ReadableStream.from(
    [
      '{"jsonrpc":"2.0","id":7,"method":"slow"}\n',
      ping("7"),
      ping('"7"'),
    ].map((c) => new TextEncoder().encode(c)),
  );
  const t = new LineTransport(input, (s) => Promise.resolve(void written.push(s)));
  const received: Record<string, unknown>[] = [];
  const closed = new Promise<void>((resolve) => (t.onclose = resolve));
  t.onmessage = (m) => {
    received.push(m);
    const answer = () => t.send({ id: m.id, result: { method: m.method } });
    if (m.method === "slow") setTimeout(answer, 100);
    else answer();
  };
  await t.start();
  await closed;
  const out = written.map((w) => JSON.parse(w));
  // "7" is another id than 7; the second 7 is refused; the first is answered last.
  assert.deepEqual(received.map((m) => [m.id, m.method]), [[7, "slow"], ["7", "ping"]]);
  assert.equal(out.length, 3);
  assert.deepEqual([out[0].id, out[0].error.code], [7, -32600]);
  assert.match(
    out[0].error.message,
    /id 7 is already used by a request this server is still answering/,
  );
  assert.deepEqual(out[1], { jsonrpc: "2.0", id: "7", result: { method: "ping" } });
  assert.deepEqual(out[2], { jsonrpc: "2.0", id: 7, result: { method: "slow" } });
});

Deno.test("LineTransport keeps the arguments of a tools/call as JSON.parse read them: __proto__ stays an own key", async () => {
  const t2 = new LineTransport(
    ReadableStream.from([
      new TextEncoder().encode(
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"__proto__":{"out":"y"}}}}\n',
      ),
    ]),
    () => Promise.resolve(),
  );
  let args: unknown;
  t2.onmessage = (m) => {
    args = t2.takeArguments(m.id);
    t2.send({ id: m.id, result: {} });
  };
  const closed2 = new Promise<void>((resolve) => (t2.onclose = resolve));
  await t2.start();
  await closed2;
  assert.deepEqual(Object.keys(args as object), ["__proto__"]);
  assert.equal((args as Record<string, unknown>).out, undefined);
});
