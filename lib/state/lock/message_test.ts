import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { DiagnosticsError } from "../../diag/diag.ts";
import { lockedError } from "./message.ts";
import { SqliteStore } from "../sqlite/store.ts";
import type { LockInfo } from "../store.ts";

const LOCK: LockInfo = {
  id: "0b0a5c4e-6d3c-4f6e-9a43-5e0c2f1d9b7a",
  actor: "alice",
  reason: "rotate keys",
  command: "apply",
  pid: 4242,
  hostname: "ci-7",
  since: "2030-01-02T03:04:05.000Z",
  expires: "2030-01-02T03:06:05.000Z",
};
const WHERE = { backend: "sqlite" as const, path: "/srv/demo/.pravo/state.db" };

Deno.test("lockedError() says what to do from what is known of the holder, and never to wait for one that may be gone", () => {
  const detail = (liveness: "running here" | "session alive" | "unknown") =>
    lockedError(LOCK, WHERE, { liveness, waitedMs: 10_000 }).diagnostics[0].detail;
  assert.match(
    detail("running here"),
    /is running on this host\. Wait for it to finish, or stop it/,
  );
  assert.match(detail("running here"), /`kill -INT 4242`/);
  assert.match(detail("session alive"), /connection to the state store is alive/);
  const unknown = detail("unknown");
  assert.match(unknown, /cannot tell from here whether process 4242 is still running/);
  assert.match(unknown, /`pravo state unlock 0b0a5c4e-6d3c-4f6e-9a43-5e0c2f1d9b7a`/);
  assert.match(unknown, /lapses at 2030-01-02T03:06:05\.000Z/);
  assert.match(unknown, /Waited 10\.0s/);
  assert.equal(lockedError(LOCK, WHERE, { liveness: "unknown" }).kind, "locked");
});

Deno.test("SqliteStore: a lock held from another host is reported as one pravo cannot see, with state unlock", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/state.db`;
  const s = await SqliteStore.open(path, { create: true });
  const db = new DatabaseSync(path);
  db.prepare(
    `INSERT INTO locks (name, id, actor, reason, command, pid, hostname, pid_start, since, expires)
     VALUES ('state', ?, 'alice', 'rotate keys', 'apply', 4242, 'another-host', NULL, ?, ?)`,
  ).run(LOCK.id, new Date().toISOString(), new Date(Date.now() + 60_000).toISOString());
  db.close();
  try {
    const err = await s.acquireLock({ actor: "bob", reason: "", command: "apply", timeoutMs: 0 })
      .then(() => undefined, (e) => e);
    assert.ok(err instanceof DiagnosticsError, String(err));
    assert.match(err.diagnostics[0].detail, /host "another-host"/);
    assert.match(err.diagnostics[0].detail, /cannot tell from here/);
    assert.match(err.diagnostics[0].detail, new RegExp(`pravo state unlock ${LOCK.id}`));
  } finally {
    await s.close();
    await Deno.remove(dir, { recursive: true });
  }
});
