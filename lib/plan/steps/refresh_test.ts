import { BUILTIN_REGISTRY } from "../../providers/registry.ts";
import assert from "node:assert/strict";
import { warning } from "../../diag/diag.ts";
import type { ReadResourceRequest } from "../../providers/resource_provider.ts";
import { refreshDue, refreshRecords } from "./refresh.ts";
import { fakeProvider, record, sessionWith } from "./_testing.ts";

const NOW = () => new Date("2030-01-02T00:00:00.000Z");
const never = () => undefined;

Deno.test("refreshDue() says why a record is read: all, a refresh age passed or 0s, a value expired", () => {
  const rec = record("a", { refreshAge: "1h", refreshedAt: "2030-01-01T00:00:00.000Z" });
  assert.equal(
    refreshDue(rec, { refresh: "age", now: NOW, expiresAt: never }),
    "its refresh age 1h has passed since it was last read at 2030-01-01T00:00:00.000Z",
  );
  assert.equal(refreshDue(rec, { refresh: "expired", now: NOW, expiresAt: never }), undefined);
  assert.equal(refreshDue(rec, { refresh: "false", now: NOW, expiresAt: never }), undefined);
  assert.equal(
    refreshDue(record("b"), { refresh: "all", now: NOW, expiresAt: never }),
    "--refresh all reads every node",
  );
  assert.equal(
    refreshDue(record("c", { refreshAge: "0s" }), { refresh: "age", now: NOW, expiresAt: never }),
    "its refresh age is 0s: every plan reads it",
  );
  const fresh = record("d", { refreshAge: "48h", refreshedAt: "2030-01-01T00:00:00.000Z" });
  assert.equal(refreshDue(fresh, { refresh: "age", now: NOW, expiresAt: never }), undefined);
  const expired = () => "2030-01-01T12:00:00.000Z";
  assert.equal(
    refreshDue(fresh, { refresh: "expired", now: NOW, expiresAt: expired }),
    "its value expired at 2030-01-01T12:00:00.000Z",
  );
  assert.equal(
    refreshDue(fresh, { refresh: "all", now: NOW, expiresAt: expired }),
    "--refresh all reads every node",
  );
});

Deno.test("refreshRecords() reads the managed records that are due and starts the others from the state", async () => {
  const read: string[] = [];
  const provider = fakeProvider({
    readResource: (req: ReadResourceRequest) => {
      read.push(req.address);
      if (req.address === "gone") return Promise.resolve({ value: null, diagnostics: [] });
      return Promise.resolve({
        value: { attributes: { ...req.prior.attributes, result: 6 }, schemaVersion: 2 },
        diagnostics: [warning("Drifted", "it drifted")],
      });
    },
  });
  const records = new Map([
    ["due", record("due", { refreshAge: "0s" })],
    ["gone", record("gone", { refreshAge: "0s" })],
    ["kept", record("kept")],
    ["data", record("data", { mode: "data", refreshAge: "0s" })],
  ]);
  const got = await refreshRecords(records, {
    registry: BUILTIN_REGISTRY,
    session: sessionWith(provider),
    refresh: "age",
    now: NOW,
    root: "/nowhere",
    located: (n) => (d) => ({ ...d, address: n.address }),
  });
  assert.deepEqual(read.sort(), ["due", "gone"]);
  assert.deepEqual(got.prior.get("due"), { id: "5", min: 1, max: 9, result: 6 });
  assert.equal(got.prior.get("gone"), null);
  assert.deepEqual(got.prior.get("kept"), records.get("kept")!.attributes);
  assert.deepEqual(got.stored.get("due"), { schemaVersion: 2, private: undefined });
  assert.deepEqual([...got.refreshed.keys()].sort(), ["due", "gone"]);
  assert.deepEqual(got.diagnostics.map((d) => [d.address, d.summary]), [["due", "Drifted"]]);

  const none = await refreshRecords(records, {
    registry: BUILTIN_REGISTRY,
    session: sessionWith(provider),
    refresh: "false",
    now: NOW,
    root: "/nowhere",
    located: () => (d) => d,
  });
  assert.equal(none.refreshed.size, 0);
  assert.equal(none.prior.size, 4);
});
