import assert from "node:assert/strict";
import { assertPrinted, jsonDocument, refusal } from "./_testing.ts";

Deno.test("assertPrinted() passes on the exact lines, code and an empty stderr, and fails on any other", () => {
  const ran = { code: 2, stdout: "a\nb\n", stderr: "" };
  assertPrinted(ran, 2, ["a", "b", ""]);
  assert.throws(() => assertPrinted(ran, 2, ["a", "b"]));
  assert.throws(() => assertPrinted(ran, 0, ["a", "b", ""]));
  assert.throws(() => assertPrinted({ ...ran, stderr: "warning" }, 2, ["a", "b", ""]));
});

Deno.test("jsonDocument() parses a format 1.0 document and fails on another code or format", () => {
  const ran = { code: 0, stdout: '{"format_version": "1.0", "x": 1}', stderr: "" };
  assert.deepEqual(jsonDocument(ran), { format_version: "1.0", x: 1 });
  assert.throws(() => jsonDocument(ran, 2));
  assert.throws(() => jsonDocument({ ...ran, stdout: '{"format_version": "2.0"}' }));
});

Deno.test("refusal() gives the stderr of a run with that code and nothing on stdout, and fails on any other", () => {
  const ran = { code: 64, stdout: "", stderr: "Error: no\n" };
  assert.equal(refusal(ran, 64), "Error: no\n");
  assert.throws(() => refusal(ran, 1));
  assert.throws(() => refusal({ ...ran, stdout: "x" }, 64));
});
