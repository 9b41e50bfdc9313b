import assert from "node:assert/strict";
import { pravo, seededRoot, storeOf } from "./state_testing.ts";

Deno.test("state locks says when nothing is held", async () => {
  const root = await seededRoot();
  const { code, stdout } = await pravo(["-C", root, "state", "locks"]);
  assert.equal(code, 0);
  assert.equal(stdout, "State lock: not held.\n\nReservations: none.\n");
  const doc = JSON.parse((await pravo(["-C", root, "state", "locks", "--json"])).stdout);
  assert.deepEqual(doc, { format_version: "1.0", lock: null, reservations: [] });
  await Deno.remove(root, { recursive: true });
});

Deno.test("state locks shows the lock and the reservations with actor and reason", async () => {
  const root = await seededRoot();
  const holder = await storeOf(root);
  const lock = await holder.acquireLock({
    actor: "alice",
    reason: "rotate keys",
    command: "apply",
    timeoutMs: 0,
  });
  const res = await holder.createReservation({
    addresses: ["pw", "base"],
    actor: "bob",
    reason: "migration",
    planId: "plan-1",
    ttlMs: 3_600_000,
  });
  try {
    const { code, stdout } = await pravo(["-C", root, "state", "locks"]);
    assert.equal(code, 0);
    assert.match(
      stdout,
      /^State lock: held by "alice" \(command "apply", reason "rotate keys"\)\n/,
    );
    assert.match(stdout, new RegExp(`\\n {2}process: +${Deno.pid} on host `));
    assert.match(stdout, new RegExp(`\\n {2}since: +${lock.since}\\n`));
    assert.match(stdout, /\nReservations \(1\):\n/);
    assert.match(stdout, new RegExp(`\\n {2}${res.id}\\n {4}addresses: +base, pw\\n`));
    assert.match(stdout, /\n {4}actor: +bob\n {4}reason: +migration\n {4}plan: +plan-1\n/);

    const doc = JSON.parse((await pravo(["-C", root, "state", "locks", "--json"])).stdout);
    assert.equal(doc.lock.actor, "alice");
    assert.equal(doc.lock.reason, "rotate keys");
    assert.equal(doc.lock.command, "apply");
    assert.equal(doc.lock.pid, Deno.pid);
    assert.equal(doc.lock.since, lock.since);
    assert.equal(doc.lock.expires, lock.expires);
    assert.equal(doc.lock.stale, null);
    assert.deepEqual(doc.reservations, [{
      id: res.id,
      addresses: ["base", "pw"],
      actor: "bob",
      reason: "migration",
      plan_id: "plan-1",
      created: res.created,
      expires: res.expires,
    }]);
  } finally {
    await holder.releaseLock(lock);
    await holder.close();
  }
  await Deno.remove(root, { recursive: true });
});
