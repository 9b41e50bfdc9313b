import assert from "node:assert/strict";
import { Interrupts } from "../../workspace/interrupts.ts";
import { HeldLock, NO_BEACON } from "./held.ts";
import type { AcquiredLock } from "../store.ts";

const LOCK = { id: "held-test-lock" } as AcquiredLock;

Deno.test("HeldLock holds off the interrupts until letGo(), which releases the beacon once", async () => {
  let released = 0;
  const interrupts = new Interrupts();
  const held = new HeldLock(LOCK, { release: () => void released++ }, (w) => interrupts.hold(w));
  assert.ok(interrupts.held().includes("the state lock held-test-lock"));
  await held.letGo();
  await held.letGo();
  assert.equal(released, 1);
  assert.ok(!interrupts.held().includes("the state lock held-test-lock"));
});

Deno.test("HeldLock.renewEvery() renews every third of the ttl, a failure tried again, until stopped", async () => {
  const held = new HeldLock(LOCK, NO_BEACON);
  let calls = 0;
  held.renewEvery(30, () => ++calls === 1 ? Promise.reject(new Error("busy")) : Promise.resolve());
  const started = performance.now();
  while (calls < 3 && performance.now() - started < 5000) {
    await new Promise((r) => setTimeout(r, 5));
  }
  held.stopRenewing();
  const seen = calls;
  assert.ok(seen >= 3, `renewed ${seen} times`);
  await new Promise((r) => setTimeout(r, 40));
  assert.equal(calls, seen, "no renewal after stopRenewing()");
  await held.letGo();
});
