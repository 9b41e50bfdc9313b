import { BUILTIN_REGISTRY } from "../../providers/registry.ts";
import assert from "node:assert/strict";
import { UNKNOWN } from "../../cue/program.ts";
import { knownFromState, planChanges, roundKnown } from "./known_values.ts";
import { planned, record } from "./_testing.ts";

Deno.test("knownFromState() gives the managed records' values as refreshed, with their secrets", () => {
  const records = new Map([
    ["a", record("a", { sensitivePaths: [["result"], ["nothing"]] })],
    ["gone", record("gone")],
    ["data", record("data", { mode: "data" })],
  ]);
  const prior = new Map([
    ["a", { id: "6", min: 1, max: 9, result: 6 }],
    ["gone", null],
    ["data", { x: 1 }],
  ]);
  const got = knownFromState(records, prior, BUILTIN_REGISTRY);
  assert.deepEqual([...got.known.keys()], ["a"]);
  assert.equal(got.known.get("a")?.result, 6);
  assert.equal(
    "min" in got.known.get("a")!,
    false,
    "an input set by the configuration is left out",
  );
  assert.deepEqual(got.secrets.get("a"), [["result"]]);
});

Deno.test("roundKnown() leaves out what the plan makes unknown, and adds what it gives and data read", () => {
  const state = {
    known: new Map([["a", { result: 5, id: "5" }], ["b", { result: 7 }]]),
    secrets: new Map([["a", [["result"]]]]),
  };
  const got = roundKnown(state, {
    lostKnown: new Map([["a", new Set(["result"])]]),
    plannedKnown: new Map([["b", { result: 8 }]]),
    dataRead: new Map([["d", { content: "x" }]]),
    dataSecrets: new Map([["d", [["content"]]]]),
  });
  assert.deepEqual(Object.fromEntries(got.known), {
    a: { id: "5" },
    b: { result: 8 },
    d: { content: "x" },
  });
  assert.deepEqual(Object.fromEntries(got.secrets), { a: [["result"]], d: [["content"]] });
  assert.deepEqual(state.known.get("a"), { result: 5, id: "5" }, "the state's values stay");
});

Deno.test("planChanges() finds the values a replace or an update makes unknown, or gives anew", () => {
  const known = new Map([
    ["r", { result: 5, id: "5" }],
    ["u", { result: 5, id: "5" }],
    ["g", { result: 5, id: "5" }],
    ["n", { result: 5, id: "5" }],
  ]);
  const nodes = [
    planned("r", { action: "replace", after: { min: 1 }, afterUnknown: ["result", "id"] }),
    planned("u", { action: "update", after: { id: "5" }, afterUnknown: ["result"] }),
    planned("g", { action: "update", after: { result: 6, id: "5", other: UNKNOWN } }),
    planned("n", { action: "no-op", after: { result: 5, id: "5" } }),
  ];
  const none = { lostKnown: new Map(), plannedKnown: new Map() };
  const got = planChanges(nodes, { known, ...none });
  assert.deepEqual(Object.fromEntries(got.lostKnown), {
    r: new Set(["result", "id"]),
    u: new Set(["result"]),
  });
  assert.deepEqual(Object.fromEntries(got.plannedKnown), { g: { result: 6 } });
  // What an earlier round found already is no change.
  const again = planChanges(nodes, { known, ...got });
  assert.equal(again.lostKnown.size, 0);
  assert.equal(again.plannedKnown.size, 0);
});
