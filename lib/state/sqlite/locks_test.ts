import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { migrate } from "./schema.ts";
import { deleteLock, listLocks, readLock, renewLock, writeLock } from "./locks.ts";
import { newLock } from "../lock/loop.ts";

const REQ = { actor: "ana", reason: "why", command: "apply", timeoutMs: 0 };
const ID = "0b0a5c4e-6d3c-4f6e-9a43-5e0c2f1d9b7a";

function db(): DatabaseSync {
  const d = new DatabaseSync(":memory:");
  migrate(d, ":memory:");
  return d;
}

Deno.test("writeLock() and readLock() keep one state lock, live until it expires", () => {
  const d = db();
  const site = { path: "/nowhere/state.db", now: new Date(0) };
  assert.equal(readLock(d, site), undefined);
  writeLock(d, newLock(REQ, ID, new Date(0), 60_000));
  const live = readLock(d, site);
  assert.equal(live?.info.actor, "ana");
  assert.equal(live?.info.stale, undefined, "its holder is this process, alive");
  assert.equal(live?.liveness(), "running here");
  const later = readLock(d, { ...site, now: new Date(60_000) });
  assert.equal(later?.info.stale, "it expired at 1970-01-01T00:01:00.000Z");
  writeLock(d, newLock({ ...REQ, actor: "bo" }, ID.replace("0b", "1b"), new Date(0), 1));
  assert.deepEqual(listLocks(d, site).map((l) => l.actor), ["bo"], "one lock, replaced");
  d.close();
});

Deno.test("renewLock() moves the expiry of its own lock only; deleteLock() removes it", () => {
  const d = db();
  const site = { path: "/nowhere/state.db", now: new Date(0) };
  writeLock(d, newLock(REQ, ID, new Date(0), 1000));
  assert.equal(renewLock(d, { id: ID, expires: "2030-01-01T00:00:00.000Z" }), true);
  assert.equal(readLock(d, site)?.info.expires, "2030-01-01T00:00:00.000Z");
  assert.equal(renewLock(d, { id: "another", expires: "2031-01-01T00:00:00.000Z" }), false);
  deleteLock(d, "another");
  assert.equal(listLocks(d, site).length, 1);
  deleteLock(d, ID);
  assert.deepEqual(listLocks(d, site), []);
  d.close();
});
