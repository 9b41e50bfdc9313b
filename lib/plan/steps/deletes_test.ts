import assert from "node:assert/strict";
import type { Node } from "../../cue/loader.ts";
import { deleteNode, withDeletes } from "./deletes.ts";
import { planned, record } from "./_testing.ts";

const KEPT = { address: "kept", lifecycle: { prevent_destroy: true }, providerInstance: "$random" };
const spec = { nodes: [KEPT as unknown as Node] };
const records = new Map([
  ["kept", record("kept")],
  ["net.old", record("net.old", { sensitivePaths: [["result"]], dependencies: ["kept"] })],
]);
const refreshed = {
  prior: new Map([["net.old", { result: 6 }]]),
  stored: new Map([["net.old", { schemaVersion: 3 }]]),
};

Deno.test("withDeletes() deletes each record whose node is no longer in the configuration", () => {
  const kept = planned("kept");
  const got = withDeletes([kept], { spec, records, refreshed });
  assert.equal(got.length, 2);
  assert.equal(got[0], kept);
  assert.deepEqual(got[1], {
    ...deleteNode(records.get("net.old")!, { result: 6 }, "not in the configuration"),
    stored: { schemaVersion: 3 },
  });
  assert.equal(got[1].name, "old");
  assert.deepEqual(got[1].sensitive, ["result"]);
  assert.equal(got[1].deleteBecause, "not in the configuration");
});

Deno.test("withDeletes() deletes every record in a plan that destroys, a declared node keeping its lifecycle", () => {
  const got = withDeletes([planned("kept")], { spec, records, refreshed, destroy: true });
  assert.deepEqual(got.map((p) => [p.address, p.action, p.deleteBecause]), [
    ["kept", "delete", "destroy"],
    ["net.old", "delete", "destroy"],
  ]);
  assert.deepEqual(got[0].lifecycle, { prevent_destroy: true });
  assert.equal(got[0].providerInstance, "$random");
  assert.deepEqual(got[0].before, records.get("kept")!.attributes);
  assert.deepEqual(got[1].lifecycle, {});
  assert.deepEqual(got[1].stored, { schemaVersion: 3 });
});

Deno.test("withDeletes() deletes a record whose node is gone with the provider configuration its record names; a declared node's own wins", () => {
  const recs = new Map([
    ["kept", record("kept", { providerInstance: "$west" })],
    ["gone", record("gone", { providerInstance: "$west" })],
    ["older", record("older")],
  ]);
  const got = withDeletes([planned("kept")], { spec, records: recs, refreshed });
  assert.deepEqual(got.map((p) => [p.address, p.providerInstance]), [
    ["kept", undefined],
    ["gone", "$west"],
    ["older", undefined],
  ]);
  const destroy = withDeletes([], { spec, records: recs, refreshed, destroy: true });
  assert.deepEqual(destroy.map((p) => [p.address, p.providerInstance]), [
    ["kept", "$random"],
    ["gone", "$west"],
    ["older", undefined],
  ]);
});
