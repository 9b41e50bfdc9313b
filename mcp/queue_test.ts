import assert from "node:assert/strict";
import { CallQueue, QueueFull } from "./queue.ts";

Deno.test("CallQueue runs at most max at once; the rest wait in order and run as slots free", async () => {
  const q = new CallQueue(2, 10);
  const order: string[] = [];
  const a = await q.acquire();
  const b = await q.acquire();
  const c = q.acquire().then((release) => (order.push("c"), release));
  const d = q.acquire().then((release) => (order.push("d"), release));
  await Promise.resolve();
  assert.deepEqual([q.running, q.waiting, order], [2, 2, []]);
  a();
  a(); // a second release changes nothing
  const releaseC = await c;
  assert.deepEqual([q.running, q.waiting, order], [2, 1, ["c"]]);
  b();
  const releaseD = await d;
  assert.deepEqual(order, ["c", "d"]);
  releaseC();
  releaseD();
  assert.deepEqual([q.running, q.waiting], [0, 0]);
});

Deno.test("CallQueue: a call cancelled while it waits leaves the line; a full line refuses at once", async () => {
  const q = new CallQueue(1, 1);
  const first = await q.acquire();
  const abort = new AbortController();
  const waiting = q.acquire(abort.signal);
  await assert.rejects(q.acquire(), QueueFull);
  abort.abort("cancelled");
  await assert.rejects(waiting, (e) => e === "cancelled");
  assert.equal(q.waiting, 0);
  const next = q.acquire();
  first();
  (await next)();
  assert.deepEqual([q.running, q.waiting], [0, 0]);
  const again = await q.acquire();
  const stopped = q.acquire();
  q.rejectWaiting("stopping");
  await assert.rejects(stopped, (e) => e === "stopping");
  again();
});
