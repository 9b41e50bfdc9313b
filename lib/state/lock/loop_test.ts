import assert from "node:assert/strict";
import { DiagnosticsError } from "../../diag/diag.ts";
import { lockWithRetry, newLock } from "./loop.ts";
import type { LockRequest } from "../store.ts";
import { HELD_BY_OTHER as HELD } from "../memory_testing.ts";

const REQ: LockRequest = { actor: "ana", reason: "why", command: "apply", timeoutMs: 200 };
const WHERE = { backend: "sqlite" as const, path: "/tmp/state.db" };

Deno.test("lockWithRetry() tries again until the attempt takes the lock", async () => {
  let tries = 0;
  const lock = await lockWithRetry(REQ, WHERE, () => {
    tries++;
    return Promise.resolve(
      tries < 3
        ? { held: HELD, liveness: "unknown" }
        : { acquired: newLock(REQ, "mine", new Date(0), 1000) },
    );
  });
  assert.equal(tries, 3);
  assert.equal(lock.id, "mine");
  assert.equal(lock.expires, "1970-01-01T00:00:01.000Z");
  assert.equal(lock.pid, Deno.pid);
});

Deno.test("lockWithRetry() reports the holder as locked once the wait runs out, and a timeout of 0 tries once", async () => {
  let tries = 0;
  await assert.rejects(
    lockWithRetry({ ...REQ, timeoutMs: 0 }, WHERE, () => {
      tries++;
      return Promise.resolve({ held: HELD, liveness: "unknown" as const });
    }),
    (e) =>
      e instanceof DiagnosticsError && e.kind === "locked" &&
      /bo/.test(e.diagnostics[0].detail + e.diagnostics[0].summary),
  );
  assert.equal(tries, 1);
});

Deno.test("newLock() records the stale lock it takes over", () => {
  const lock = newLock(REQ, "mine", new Date(0), 1000, { ...HELD, stale: "it expired" });
  assert.equal(lock.tookOver?.id, "other");
  assert.equal(newLock(REQ, "m", new Date(0), 1).tookOver, undefined);
});
