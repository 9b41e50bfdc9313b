import assert from "node:assert/strict";
import { DiagnosticsError } from "../diag/diag.ts";
import { sensitiveMarker } from "../secrets/redact.ts";
import { newReservation } from "./store_base.ts";
import type { TxMeta } from "./store.ts";
import { HELD_BY_OTHER as OTHERS, MEMORY_KEY as KEY, MemoryStore } from "./memory_testing.ts";

const META: TxMeta = { actor: "ana", reason: "why", command: "apply" };
const REQ = { actor: "ana", reason: "", command: "apply", timeoutMs: 5_000 };

Deno.test("StoreBase runs one write at a time, in order, and a failed one does not stop the next", async () => {
  const s = new MemoryStore();
  const seen: string[] = [];
  const a = s.run(async () => {
    await new Promise((r) => setTimeout(r, 10));
    seen.push("a");
  });
  const b = s.run(() => {
    seen.push("b");
    throw new Error("b failed");
  });
  const c = s.run(() => seen.push("c"));
  await a;
  await assert.rejects(b, /b failed/);
  await c;
  assert.deepEqual(seen, ["a", "b", "c"]);
});

Deno.test("StoreBase.transaction() logs the changes redacted when it wrote, and nothing when it did not", async () => {
  const s = new MemoryStore();
  assert.equal(await s.transaction(META, () => Promise.resolve(7)), 7);
  assert.deepEqual(s.log, []);
  await s.transaction(META, async (tx) => {
    await tx.logChange({
      address: "pw",
      action: "create",
      before: null,
      after: { result: "s3cret", n: 1 },
      sensitivePaths: [["result"]],
    });
  });
  assert.deepEqual(s.log, [{
    meta: META,
    changes: [{
      seq: 0,
      address: "pw",
      action: "create",
      before: null,
      after: JSON.stringify({ n: 1, result: sensitiveMarker("s3cret", KEY) }),
    }],
  }]);
  assert.deepEqual(s.steps, ["begin write", "commit", "begin write", "commit"]);
});

Deno.test("StoreBase.transaction() rolls back what throws, refuses another holder's live lock, and a nested transaction", async () => {
  const s = new MemoryStore();
  await assert.rejects(s.transaction(META, () => Promise.reject(new Error("failed"))), /failed/);
  assert.deepEqual(s.steps, ["begin write", "rollback"]);
  s.lock = { info: OTHERS, liveness: () => "unknown" };
  s.attemptsBeforeStale = -1;
  const err = await s.transaction(META, () => Promise.resolve()).catch((e) => e);
  assert.ok(err instanceof DiagnosticsError);
  assert.equal(err.kind, "locked");
  assert.equal(err.diagnostics[0].summary, "The state is locked by another writer");
  s.lock = undefined;
  await assert.rejects(
    s.transaction(META, () => s.transaction(META, () => Promise.resolve())),
    /started inside another one of the same store/,
  );
});

Deno.test("StoreBase.acquireLock() takes the beacon first, retries until the holder's lock is stale, and takes it over", async () => {
  const s = new MemoryStore();
  s.lock = { info: OTHERS, liveness: () => "unknown" };
  s.attemptsBeforeStale = 2;
  const lock = await s.acquireLock(REQ);
  assert.equal(lock.tookOver?.id, "other");
  assert.equal(s.held(), lock);
  assert.deepEqual(s.steps, [
    "take beacon",
    "begin lock",
    "commit",
    "begin lock",
    "commit",
    "begin lock",
    "write lock new",
    "commit",
    "forget beacon",
  ]);
  await assert.rejects(s.acquireLock(REQ), /already holds the state lock/);
  s.steps.length = 0;
  await s.releaseLock(lock);
  assert.deepEqual(s.steps, ["remove lock", "release beacon"], "the row goes first");
  assert.equal(s.held(), undefined);
});

Deno.test("StoreBase.acquireLock() lets the beacon go when the wait runs out", async () => {
  const s = new MemoryStore();
  s.lock = { info: OTHERS, liveness: () => "unknown" };
  s.attemptsBeforeStale = -1;
  const err = await s.acquireLock({ ...REQ, timeoutMs: 0 }).catch((e) => e);
  assert.ok(err instanceof DiagnosticsError);
  assert.equal(err.kind, "locked");
  assert.deepEqual(s.steps, ["take beacon", "begin lock", "commit", "release beacon"]);
  assert.equal(s.held(), undefined);
});

Deno.test("StoreBase.unlock() removes a lock with a log entry, and lets go of its own or forgets another's beacon", async () => {
  const s = new MemoryStore();
  s.lock = { info: OTHERS, liveness: () => "unknown" };
  s.attemptsBeforeStale = -1;
  assert.equal(await s.unlock("nope", META), undefined);
  assert.equal(s.log.length, 0);
  assert.equal((await s.unlock("other", META))?.actor, "bo");
  assert.deepEqual(s.log.map((e) => e.changes.map((c) => [c.address, c.action])), [
    [["(state lock)", "unlock"]],
  ]);
  assert.ok(s.steps.includes("forget beacon"));
  const mine = await s.acquireLock(REQ);
  s.steps.length = 0;
  assert.equal((await s.unlock(mine.id, META))?.id, mine.id);
  assert.deepEqual(s.steps, ["begin write", "delete lock", "commit", "release beacon"]);
  assert.equal(s.held(), undefined);
});

Deno.test("StoreBase.close() releases the held lock, then closes, once; a closed store refuses use", async () => {
  const s = new MemoryStore();
  await s.acquireLock(REQ);
  s.steps.length = 0;
  await s.close();
  await s.close();
  assert.deepEqual(s.steps, ["remove lock", "release beacon", "close"]);
  await assert.rejects(s.transaction(META, () => Promise.resolve()), /used after close/);
});

Deno.test("StoreBase.createReservation() writes it in a write transaction; newReservation() sorts its addresses once each", async () => {
  const s = new MemoryStore();
  const ask = { addresses: ["web", "db", "web"], actor: "x", reason: "y", planId: "z", ttlMs: 1 };
  const r = await s.createReservation(ask);
  assert.deepEqual(s.steps, ["begin write", "reserve db,web", "commit"]);
  assert.deepEqual(r.addresses, ["db", "web"]);
  const n = newReservation({ ...ask, addresses: ["b", "B", "a"], ttlMs: 60_000 }, new Date(0));
  assert.deepEqual(n.addresses, ["B", "a", "b"], "by code unit");
  assert.equal(n.created, "1970-01-01T00:00:00.000Z");
  assert.equal(n.expires, "1970-01-01T00:01:00.000Z");
  assert.equal(await s.releaseReservation(r.id), true);
});
