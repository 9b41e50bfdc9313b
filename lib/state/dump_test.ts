import assert from "node:assert/strict";
import { dumpedLog } from "./dump.ts";
import { asIso } from "./rows.ts";

Deno.test("dumpedLog() gives each entry, oldest first as read, its changes as stored text and no id", () => {
  const entry = (id: string, serial: number) => ({
    id,
    serial,
    at: new Date(Date.UTC(2030, 0, serial)),
    actor: "a",
    reason: "",
    command: "apply",
    plan_id: null,
    plan_actor: null,
    plan_reason: null,
    run_id: null,
  });
  const log = dumpedLog([entry("10", 1), entry("11", 2)], [
    { entry_id: "11", seq: 0, address: "pw", action: "update", before: '{"r":1}', after: null },
  ], asIso);
  assert.deepEqual(log.map((e) => [e.serial, e.at, e.changes]), [
    [1, "2030-01-01T00:00:00.000Z", []],
    [2, "2030-01-02T00:00:00.000Z", [
      { address: "pw", action: "update", before: '{"r":1}', after: null },
    ]],
  ]);
  assert.ok(!("id" in log[0]));
});
