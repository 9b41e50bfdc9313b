import assert from "node:assert/strict";
import { markMoved, withMoves } from "./moved.ts";
import { planned, record } from "./steps/_testing.ts";

Deno.test("markMoved() marks the planned nodes whose records a move renames", () => {
  const nodes = [planned("kept"), planned("renamed")];
  markMoved(nodes, new Map([["renamed", "old"]]));
  assert.deepEqual(nodes.map((n) => n.movedFrom), [undefined, "old"]);
});

Deno.test("withMoves() puts each moving record at its new address, dependencies renamed", () => {
  const records = new Map([["old", record("old")], [
    "dep",
    record("dep", { dependencies: ["old"] }),
  ]]);
  withMoves(records, new Map([["new", "old"]]));
  assert.deepEqual([...records.keys()], ["new", "dep"]);
  assert.equal(records.get("new")?.address, "new");
  assert.deepEqual(records.get("dep")?.dependencies, ["new"]);
});
