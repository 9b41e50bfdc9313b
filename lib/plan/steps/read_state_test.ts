import assert from "node:assert/strict";
import type { StateRecord } from "../../state/store.ts";
import { readState } from "./read_state.ts";
import { record, sourcesOf } from "./_testing.ts";

const IDENTITY = { lineage: "l-1", serial: 4, schemaVersion: 1 };

function storeOf(records: StateRecord[]) {
  return {
    identity: () => Promise.resolve(IDENTITY),
    listRecords: () => Promise.resolve(records),
  };
}

Deno.test("readState() gives the state's identity, its records by address, and their kinds", async () => {
  const sources = sourcesOf("base: $random.#Resource.random_integer & {min: 1, max: 9}");
  const got = await readState(sources, storeOf([record("base")]), { tags: {} });
  assert.deepEqual(got.identity, IDENTITY);
  assert.deepEqual([...got.records.keys()], ["base"]);
  assert.equal(got.moves.size, 0);
  assert.equal(got.knownKinds.get("base")?.type, "random_integer");
});

Deno.test("readState() plans a record that a moved entry renames at its new address", async () => {
  const sources = sourcesOf(
    'kept: $random.#Resource.random_integer & {min: 1, max: 9}\nmoved: [{from: "old", to: "kept"}]',
  );
  const old = record("old");
  const dep = record("dep", { dependencies: ["old"] });
  const got = await readState(sources, storeOf([dep, old]), { tags: {} });
  assert.deepEqual([...got.moves], [["kept", "old"]]);
  assert.deepEqual([...got.records.keys()].sort(), ["dep", "kept"]);
  assert.equal(got.records.get("kept")?.address, "kept");
  assert.deepEqual(got.records.get("dep")?.dependencies, ["kept"]);
  assert.ok(got.knownKinds.has("kept") && !got.knownKinds.has("old"));
  // A plan that destroys makes no moves.
  const destroying = await readState(sources, storeOf([dep, old]), { tags: {}, destroy: true });
  assert.deepEqual([...destroying.records.keys()].sort(), ["dep", "old"]);
});
