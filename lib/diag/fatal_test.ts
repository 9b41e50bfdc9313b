import assert from "node:assert/strict";
import { DiagnosticsError, error } from "./diag.ts";
import { endProcess, FATAL_EVENT, FatalEvent } from "./fatal.ts";

Deno.test("endProcess() says nobody took the failure when nothing listens", () => {
  assert.equal(endProcess({ signal: 2 }), false);
});

Deno.test("endProcess() hands the failure, with its kind, to the listener that cancels it", () => {
  const seen: FatalEvent["fatal"][] = [];
  const listener = (ev: Event) => {
    seen.push((ev as FatalEvent).fatal);
    ev.preventDefault();
  };
  globalThis.addEventListener(FATAL_EVENT, listener);
  try {
    const err = new DiagnosticsError([error("The connection closed", "Run it again.")], "error");
    assert.equal(endProcess({ error: err }), true);
    assert.equal(seen.length, 1);
    assert.ok("error" in seen[0] && seen[0].error.kind === "error");
  } finally {
    globalThis.removeEventListener(FATAL_EVENT, listener);
  }
});
