import assert from "node:assert/strict";
import { OutputTail } from "./output.ts";

const enc = new TextEncoder();

Deno.test("OutputTail.report() shows panics, plain lines, warnings and errors, never trace or debug logs", () => {
  const t = new OutputTail();
  const lines = [
    "Starting provider...",
    '{"@level":"trace","@message":"Received request","body":"secret-value"}',
    '{"@level":"debug","@message":"HTTP Request Sent","http.request.body":"password=hunter2"}',
    '{"@level":"info","@message":"configuring"}',
    '{"@level":"warn","@message":"deprecated argument"}',
    '{"@level":"error","@message":"call failed","error":"AccessDenied"}',
    "[DEBUG] Waiting for state to become: [success]",
    "[INFO] something",
    "[WARN] Truncating attribute path",
    "panic: runtime error: invalid memory address",
    "goroutine 1 [running]:",
  ];
  // Chunks that split lines and UTF-8 sequences are put back together.
  const all = enc.encode(lines.join("\n") + "\n… done\n");
  for (let i = 0; i < all.length; i += 7) t.push(all.subarray(i, i + 7));
  assert.equal(
    t.report(),
    [
      "Starting provider...",
      "warn: deprecated argument",
      "error: call failed: AccessDenied",
      "[WARN] Truncating attribute path",
      "panic: runtime error: invalid memory address",
      "goroutine 1 [running]:",
      "… done",
    ].join("\n"),
  );
  assert.doesNotMatch(t.report(), /secret-value|hunter2/);
  // Two lines: from the panic on, not the last two.
  assert.equal(t.report(2), "panic: runtime error: invalid memory address\ngoroutine 1 [running]:");
  assert.equal(t.total, all.length);
});

Deno.test("OutputTail keeps only the last part of a long output", () => {
  const t = new OutputTail(1000);
  for (let i = 0; i < 500; i++) t.push(enc.encode(`line ${i}\n`));
  assert.ok(t.text().length <= 1000);
  assert.match(t.report(1), /^line 499$/);
  const big = new OutputTail(100);
  big.push(enc.encode("x".repeat(5000) + "\nend\n"));
  assert.ok(big.text().length <= 100);
  assert.match(big.report(), /end$/);
});

Deno.test("OutputTail.report() starts at a Go panic, whose stack would push it out", () => {
  const t = new OutputTail();
  const frames = Array.from({ length: 60 }, (_, i) => `main.f${i}()\n\t/src/f.go:${i}`);
  t.push(
    enc.encode(
      ["Starting", "panic: assignment to entry in nil map", "", "goroutine 7 [running]:", ...frames]
        .join("\n"),
    ),
  );
  const r = t.report(5).split("\n");
  assert.equal(r[0], "panic: assignment to entry in nil map");
  assert.equal(r[1], "goroutine 7 [running]:");
  assert.equal(r.length, 5);
});
