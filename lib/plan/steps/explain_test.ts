import assert from "node:assert/strict";
import { explainNodes, skipReason } from "./explain.ts";
import { planned, record } from "./_testing.ts";

const NONE = { refreshed: new Map<string, string>(), sentinels: [] };

Deno.test("explainNodes() skips a node unchanged since apply, and gives every node its reasons", () => {
  const rec = record("same", { configDigest: "d" });
  const same = planned("same");
  const changed = planned("changed", { configDigest: "e" });
  const records = new Map([["same", rec], ["changed", record("changed", { configDigest: "d" })]]);
  const skipped = explainNodes([same, changed], { ...NONE, records });
  assert.deepEqual(skipped, [{
    address: "same",
    mode: "managed",
    type: "random_integer",
    name: "same",
    reason: skipReason(rec),
  }]);
  assert.deepEqual(same.reasons?.map((r) => r.kind), ["unchanged"]);
  assert.deepEqual(changed.reasons?.map((r) => r.kind), ["unchanged"]);
  // --full and --destroy run every node; one read from the real world runs.
  assert.deepEqual(explainNodes([same], { ...NONE, records, full: true }), []);
  assert.deepEqual(explainNodes([same], { ...NONE, records, destroy: true }), []);
  const refreshed = new Map([["same", "--refresh all reads every node"]]);
  assert.deepEqual(explainNodes([same], { ...NONE, records, refreshed }), []);
  assert.deepEqual(same.reasons?.map((r) => r.kind), ["refresh"]);
});

Deno.test("explainNodes() keeps a node that moves or whose refresh_age changes, saying so first or last", () => {
  const records = new Map([["a", record("a", { configDigest: "d", refreshAge: "1h" })]]);
  const moved = planned("a", { movedFrom: "old", refreshAge: "1h" });
  assert.deepEqual(explainNodes([moved], { ...NONE, records }), []);
  assert.deepEqual(moved.reasons?.map((r) => r.detail), [
    "its object moves from old, as a moved entry of the configuration says",
    "its configuration matches the state",
  ]);
  const aged = planned("a", { refreshAge: "2h" });
  assert.deepEqual(explainNodes([aged], { ...NONE, records }), []);
  assert.deepEqual(
    aged.reasons?.map((r) => r.detail).at(-1),
    "its refresh_age changes from 1h to 2h: apply records it, and does not touch the object",
  );
});

Deno.test("skipReason() says when the node was applied and when it is read next", () => {
  assert.equal(
    skipReason(record("a")),
    "configuration and inputs unchanged since it was applied at 2030-01-01T00:00:00.000Z, and it never needs reading again",
  );
  assert.equal(
    skipReason(record("a", { refreshAge: "1h" })),
    "configuration and inputs unchanged since it was applied at 2030-01-01T00:00:00.000Z, and its next read is due at 2030-01-01T01:00:00.000Z (refresh age 1h)",
  );
});
