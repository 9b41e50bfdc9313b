import assert from "node:assert/strict";
import { bound, boundResult, cutDocument, prune } from "./cut.ts";

const bytes = (s: string) => new TextEncoder().encode(s).length;

Deno.test("prune() shortens lists, objects and strings to about k entries, marking each cut", () => {
  assert.deepEqual(prune([1, 2, 3, 4], 2), [1, 2, "[cut: 2 more entries]"]);
  assert.deepEqual(prune("x".repeat(100), 1), "x".repeat(32) + "[cut: 68 more characters]");
  const wide = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, i]));
  const cut = prune(wide, 0) as Record<string, unknown>;
  assert.equal(Object.keys(cut).length, 9);
  assert.equal(cut["[cut]"], "4 more fields: k8, k9, k10, k11");
  // A key such as __proto__ stays a key.
  const odd = JSON.parse('{"__proto__": [1, 2, 3]}');
  assert.deepEqual(Object.keys(prune(odd, 1) as object), ["__proto__"]);
});

Deno.test("cutDocument() is one JSON document of at most the limit, the note first, as much kept as fits", () => {
  const doc = {
    nodes: Array.from({ length: 500 }, (_, i) => ({ address: `n${i}`, action: "create" })),
    summary: { add: 500 },
  };
  const text = cutDocument(doc, "the note", 4096);
  assert.ok(bytes(text) <= 4096, `${bytes(text)}`);
  const back = JSON.parse(text);
  assert.deepEqual(Object.keys(back), ["cut", "partial"]);
  assert.equal(back.cut, "the note");
  // The small parts are whole; the long list is cut and says by how much.
  assert.deepEqual(back.partial.summary, { add: 500 });
  const kept = back.partial.nodes.length - 1;
  assert.ok(kept > 10, `${kept}`);
  assert.equal(back.partial.nodes.at(-1), `[cut: ${500 - kept} more entries]`);
  assert.deepEqual(back.partial.nodes[0], { address: "n0", action: "create" });
});

Deno.test("boundResult() keeps a short result whole, and a long JSON one is still one JSON document with the note", () => {
  assert.equal(boundResult({ stdout: '{"a": 1}', after: "" }, 1024, "x"), '{"a": 1}');
  const stdout = JSON.stringify({ result: "y".repeat(5000), expression: "e" }, null, 2);
  const text = boundResult({ stdout, after: "" }, 1024, "pravo_state_query");
  assert.ok(bytes(text) <= 1024);
  const doc = JSON.parse(text);
  assert.match(
    doc.cut,
    /^the result is \d+ bytes and this server returns at most 1024; narrow the expression, or ask the operator to raise --max-result-bytes; lists, objects and strings marked \[cut\] were shortened$/,
  );
  assert.equal(doc.partial.expression, "e");
  assert.match(doc.partial.result, /^y+\[cut: \d+ more characters\]$/);
  // A failure's stderr (the error object) follows the cut document whole.
  const err = '{\n  "error": true,\n  "exit_code": 5\n}';
  const failed = boundResult({ stdout, after: err }, 2048, "pravo_plan");
  assert.ok(bytes(failed) <= 2048);
  assert.ok(failed.endsWith("\n" + err));
  JSON.parse(failed.slice(0, failed.length - err.length - 1));
  // Output the server could not keep whole is still answered with one document.
  const flood = boundResult(
    { stdout: '{"result": "zzz', stdoutCut: true, stdoutBytes: 50_000_000, after: "" },
    1024,
    "pravo_state_query",
  );
  assert.deepEqual(Object.keys(JSON.parse(flood)), ["cut"]);
  assert.match(JSON.parse(flood).cut, /^the result is 50000000 bytes/);
});

Deno.test("bound() cuts a text that is not JSON at a line, with the note after it", () => {
  const long = Array.from({ length: 200 }, (_, i) => `line ${i}`).join("\n");
  const cut = bound(long, 100, "pravo_state_log");
  assert.match(
    cut,
    /\n\[cut: the result is \d+ bytes and this server returns at most 100; read the log/,
  );
  assert.equal(boundResult({ stdout: long, after: "" }, 100, "pravo_state_log"), cut);
});
