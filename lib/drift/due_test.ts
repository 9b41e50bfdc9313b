import assert from "node:assert/strict";
import { dueOf, dueRecords } from "./due.ts";

const NOW = new Date("2030-01-01T12:00:00.000Z");

function rec(address: string, refreshedAt: string, refreshAge: string | null, extra = {}) {
  return {
    address,
    mode: "managed" as const,
    type: "local_file",
    provider: "hashicorp/local",
    attributes: {},
    refreshAge,
    refreshedAt,
    ...extra,
  };
}

Deno.test("dueOf() is due once the refresh age has passed, and never without one", () => {
  assert.equal(dueOf(rec("a", "2030-01-01T11:00:00.000Z", "2h"), NOW), undefined);
  assert.equal(
    dueOf(rec("a", "2030-01-01T10:00:00.000Z", "2h"), NOW)?.dueSince,
    "2030-01-01T12:00:00.000Z",
  );
  assert.equal(dueOf(rec("a", "2000-01-01T00:00:00.000Z", null), NOW), undefined);
  assert.equal(dueOf(rec("a", "2000-01-01T00:00:00.000Z", "soon"), NOW), undefined);
  assert.equal(dueOf(rec("a", "2000-01-01T00:00:00.000Z", "0s", { mode: "data" }), NOW), undefined);
});

Deno.test("dueOf() is due when the value expired, the earlier cause first", () => {
  const rotating = (rotation: string, refreshAge: string | null) =>
    rec("r", "2030-01-01T00:00:00.000Z", refreshAge, {
      type: "time_rotating",
      provider: "hashicorp/time",
      attributes: { rotation_rfc3339: rotation },
    });
  assert.equal(dueOf(rotating("2030-01-02T00:00:00Z", null), NOW), undefined);
  assert.deepEqual(dueOf(rotating("2030-01-01T06:00:00Z", null), NOW), {
    address: "r",
    type: "time_rotating",
    refreshedAt: "2030-01-01T00:00:00.000Z",
    refreshAge: null,
    dueSince: "2030-01-01T06:00:00.000Z",
    because: ["expired"],
  });
  const both = dueOf(rotating("2030-01-01T06:00:00Z", "1h"), NOW);
  assert.equal(both?.dueSince, "2030-01-01T01:00:00.000Z");
  assert.deepEqual(both?.because, ["refresh_age", "expired"]);
});

Deno.test("dueRecords() puts the longest overdue first, then the least recently read", () => {
  const due = dueRecords([
    rec("b", "2030-01-01T09:00:00.000Z", "1h"), // due 10:00
    rec("a", "2030-01-01T08:00:00.000Z", "2h"), // due 10:00, read earlier
    rec("c", "2030-01-01T05:00:00.000Z", "1h"), // due 06:00
    rec("d", "2030-01-01T11:30:00.000Z", "1h"), // not due
  ], NOW);
  assert.deepEqual(due.map((d) => d.address), ["c", "a", "b"]);
});
