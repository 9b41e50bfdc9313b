import assert from "node:assert/strict";
import type { LogEntry, StateRecord } from "../state/store.ts";
import { recordsOfPlan } from "./plan_json_state.ts";
import { node, plan, record, skipped } from "./plan_json_testing.ts";

function reader(serial: number, log: { serial: number; addresses: string[] }[]) {
  const records: StateRecord[] = [record("test_thing.a"), record("test_thing.b")];
  return {
    identity: () => Promise.resolve({ lineage: "l", serial, schemaVersion: 5 }),
    listRecords: () => Promise.resolve(records),
    readLog: (opts: { limit?: number } = {}) =>
      Promise.resolve(
        log.slice().reverse().slice(0, opts.limit).map((e, i): LogEntry => ({
          id: i,
          serial: e.serial,
          at: "",
          actor: "",
          reason: "",
          command: "apply",
          planId: null,
          planActor: null,
          planReason: null,
          run: null,
          changes: e.addresses.map((address) => ({
            address,
            action: "update",
            before: null,
            after: null,
          })),
        })),
      ),
  };
}

const skippedB = plan([node("test_thing.c")], {
  skipped: [skipped("test_thing.b")],
});

Deno.test("recordsOfPlan() gives the records of a plan made at the state's serial", async () => {
  const recs = await recordsOfPlan(reader(1, []), skippedB, { path: "x.plan" });
  assert.deepEqual(recs.map((r) => r.address), ["test_thing.a", "test_thing.b"]);
});

Deno.test("recordsOfPlan() accepts a stale plan whose records did not change since", async () => {
  const r = reader(3, [{ serial: 2, addresses: ["test_thing.a"] }, {
    serial: 3,
    addresses: ["x"],
  }]);
  assert.equal((await recordsOfPlan(r, skippedB, { path: "x.plan" })).length, 2);
});

Deno.test("recordsOfPlan() refuses a stale plan whose skipped node changed since", async () => {
  const r = reader(2, [{ serial: 1, addresses: ["test_thing.b"] }, {
    serial: 2,
    addresses: ["test_thing.b"],
  }]);
  await assert.rejects(
    () => recordsOfPlan(r, skippedB, { path: "x.plan" }),
    /Saved plan "x.plan" is stale/,
  );
});

Deno.test("recordsOfPlan() refuses a plan of another state", async () => {
  await assert.rejects(
    () => recordsOfPlan(reader(1, []), { ...skippedB, lineage: "other" }, { path: "x.plan" }),
    /was made for another root/,
  );
});
