import assert from "node:assert/strict";
import {
  asIso,
  asText,
  changesByEntry,
  lockOfRow,
  logOfRows,
  recordOfRow,
  reservationOfRow,
  storedChangeOfRow,
} from "./rows.ts";

Deno.test("rows: a time reads back as ISO text from SQLite's text and PostgreSQL's Date alike", () => {
  const at = "2026-12-02T01:02:03.004Z";
  assert.equal(asText(at), at);
  assert.equal(asIso(new Date(at)), at);
  assert.equal(asIso("2026-12-02 01:02:03.004+00"), at);
  const row = {
    id: "r1",
    addresses: '["a.x"]',
    actor: "ana",
    reason: "",
    plan_id: "p",
    created: at,
    expires: at,
  };
  assert.deepEqual(
    reservationOfRow(row, asText),
    reservationOfRow({ ...row, addresses: ["a.x"] }, asIso),
  );
  const lock = lockOfRow({
    id: "l",
    actor: "a",
    reason: "r",
    command: "apply",
    pid: "7",
    hostname: "h",
    since: at,
    expires: at,
  }, asText);
  assert.equal(lock.pid, 7);
  assert.equal(lock.stale, undefined, "whether a lock is stale is the store's to say");
});

Deno.test("rows: a record keeps its provider data and a null refresh age", () => {
  const rec = recordOfRow({
    address: "local_file.a",
    mode: "managed",
    type: "local_file",
    provider: "hashicorp/local",
    attributes: '{"content":"x"}',
    sensitive_paths: "[]",
    dependencies: '["local_file.b"]',
    config_digest: "d",
    created_at: "t1",
    updated_at: "t2",
    refreshed_at: "t3",
    refresh_age: null,
    provider_data: "",
  }, asText);
  assert.deepEqual(rec.attributes, { content: "x" });
  assert.deepEqual(rec.dependencies, ["local_file.b"]);
  assert.equal(rec.refreshAge, null);
  assert.equal("private" in rec, false);
});

Deno.test("rows: log changes go to their entries, in order, and an entry without changes has none", () => {
  const entries = [
    {
      id: 2,
      serial: 5,
      at: "t2",
      actor: "b",
      reason: "",
      command: "apply",
      plan_id: "p",
      plan_actor: null,
      plan_reason: null,
      run_id: null,
    },
    {
      id: 1,
      serial: 4,
      at: "t1",
      actor: "a",
      reason: "r",
      command: "state rm",
      plan_id: null,
      plan_actor: null,
      plan_reason: null,
      run_id: "run",
    },
  ];
  const changes = [
    { entry_id: 2, address: "x", action: "create", before: null, after: '{"v":1}' },
    { entry_id: 2, address: "y", action: "delete", before: '{"v":2}', after: null },
  ];
  const log = logOfRows(entries, changes, asText);
  assert.deepEqual(log.map((e) => [e.id, e.changes.map((c) => c.address)]), [[2, ["x", "y"]], [
    1,
    [],
  ]]);
  assert.deepEqual(log[0].changes[0].after, { v: 1 });
  assert.equal(log[1].run, "run");
  assert.equal(log[0].planActor, null);
});

Deno.test("changesByEntry() groups the rows of log_changes by entry, in order; storedChangeOfRow() keeps their JSON as text", () => {
  const rows = [
    { entry_id: 7, seq: 0, address: "x", action: "create", before: null, after: '{"v":1}' },
    { entry_id: "8", seq: 0, address: "z", action: "read", before: null, after: null },
    { entry_id: 7, seq: 1, address: "y", action: "delete", before: '{"v":2}', after: null },
  ];
  const byEntry = changesByEntry(rows, storedChangeOfRow);
  assert.deepEqual([...byEntry.keys()], ["7", "8"]);
  assert.deepEqual(byEntry.get("7"), [
    { address: "x", action: "create", before: null, after: '{"v":1}' },
    { address: "y", action: "delete", before: '{"v":2}', after: null },
  ]);
  assert.deepEqual(changesByEntry(rows, (c) => c.seq).get("7"), [0, 1]);
});
