import assert from "node:assert/strict";
import { DiagnosticsError } from "../diag/diag.ts";
import { Interrupts, stoppedNow, stoppingNote } from "./interrupts.ts";

Deno.test("Interrupts.receive(): nothing held stops at once; something held lets the command stop; a second signal stops at once", () => {
  const idle = new Interrupts();
  assert.deepEqual(idle.receive("SIGINT"), { kind: "exit", signal: "SIGINT", again: false });
  assert.equal(idle.signal.aborted, true);
  assert.equal(idle.signal.reason, "SIGINT");

  const busy = new Interrupts();
  const release = busy.hold("the state lock L");
  const first = busy.receive("SIGTERM");
  assert.deepEqual(first, { kind: "stopping", signal: "SIGTERM", held: ["the state lock L"] });
  assert.equal(busy.received, "SIGTERM");
  assert.match(
    stoppingNote(first as Extract<typeof first, { kind: "stopping" }>),
    /then the state lock L is released/,
  );
  assert.throws(() => busy.throwIfInterrupted("Nothing was applied."), (e: unknown) => {
    assert.ok(e instanceof DiagnosticsError);
    assert.equal(e.kind, "terminated", "SIGTERM: 128 + 15");
    assert.equal(e.diagnostics[0].summary, "Interrupted by SIGTERM");
    assert.match(e.diagnostics[0].detail, /^Nothing was applied\./);
    return true;
  });
  const second = busy.receive("SIGINT");
  assert.deepEqual(second, {
    kind: "exit",
    signal: "SIGINT",
    again: true,
    held: ["the state lock L"],
  });
  assert.match(
    stoppedNow(second as Extract<typeof second, { kind: "exit" }>).diagnostics[0].summary,
    /Stopped at once by a second SIGINT/,
  );
  release();
  release();
  assert.deepEqual(busy.held(), []);
});
