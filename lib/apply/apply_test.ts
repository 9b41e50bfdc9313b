import { builtinWorkspace } from "../workspace/workspace_testing.ts";
import assert from "node:assert/strict";
import { plannedRoot } from "./_testing.ts";
import { applyPlan, checkFresh } from "./apply.ts";

const ROOT = `package slow

import tm "pravo.dev/providers/hashicorp/time"

$time: tm.#Provider

fast:  $time.#Resource.time_sleep & {create_duration: "0s"}
slow:  $time.#Resource.time_sleep & {create_duration: "300s"}
after: $time.#Resource.time_sleep & {create_duration: "0s", triggers: {after: slow.id}}
`;

async function setUp() {
  const planned = await plannedRoot(ROOT, { prefix: "pravo-apply-test-" });
  const r = await planned.store.createReservation({
    addresses: ["fast", "slow", "after"],
    actor: "alice",
    reason: "test",
    planId: planned.plan.id,
    ttlMs: 3_600_000,
  });
  return { ...planned, reservation: r.id };
}

Deno.test("applyPlan() interrupted before any node started: nothing recorded, the plan stays fresh and keeps its reservation, the lock is released", async () => {
  const { root, store, plan, reservation } = await setUp();
  try {
    const ac = new AbortController();
    ac.abort("SIGINT");
    const result = await applyPlan(plan, store, {
      workspace: builtinWorkspace(),
      actor: "alice",
      reason: "test",
      signal: ac.signal,
    });
    assert.equal(result.interrupted, "SIGINT");
    assert.equal(result.nothingStarted, true);
    assert.deepEqual(result.outcomes.map((o) => o.status), [
      "not_started",
      "not_started",
      "not_started",
    ]);
    assert.deepEqual(await store.readLog(), []);
    await checkFresh(plan, store); // does not throw
    assert.deepEqual((await store.listReservations()).map((r) => r.id), [reservation]);
    assert.deepEqual(await store.listLocks(), []);
  } finally {
    await store.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("applyPlan() interrupted while a node runs: that node is cancelled, its dependent not started, both logged in one entry; the reservation is released", async () => {
  const { root, store, plan } = await setUp();
  try {
    const ac = new AbortController();
    const result = await applyPlan(plan, store, {
      workspace: builtinWorkspace(),
      actor: "alice",
      reason: "test",
      signal: ac.signal,
      progress: (e) => {
        // fast is recorded before its "done" event's promise settles; slow is waiting.
        if (e.address === "fast" && e.phase === "done") setTimeout(() => ac.abort("SIGTERM"), 0);
      },
    });
    assert.equal(result.interrupted, "SIGTERM");
    assert.equal(result.nothingStarted, false);
    assert.deepEqual(
      Object.fromEntries(result.outcomes.map((o) => [o.address, o.status])),
      { fast: "applied", slow: "cancelled", after: "not_started" },
    );
    const log = await store.readLog();
    const last = log[0];
    assert.deepEqual(
      last.changes.map((c) => [c.address, c.action, c.after?.status, c.after?.signal]),
      [["slow", "interrupted", "cancelled", "SIGTERM"], [
        "after",
        "interrupted",
        "not started",
        "SIGTERM",
      ]],
    );
    assert.equal(last.actor, "alice");
    assert.equal(last.planId, plan.id);
    assert.deepEqual([...(await store.listRecords()).map((r) => r.address)], ["fast"]);
    assert.deepEqual(await store.listReservations(), []);
    assert.deepEqual(await store.listLocks(), []);
  } finally {
    await store.close();
    await Deno.remove(root, { recursive: true });
  }
});
