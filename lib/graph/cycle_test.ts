import assert from "node:assert/strict";
import { findCycle } from "./cycle.ts";

Deno.test("findCycle() returns undefined for a graph without a cycle", () => {
  assert.equal(findCycle([]), undefined);
  assert.equal(
    findCycle([
      { address: "a", dependencies: ["b", "c"] },
      { address: "b", dependencies: ["d"] },
      { address: "c", dependencies: ["d"] },
      { address: "d", dependencies: [] },
    ]),
    undefined,
    "a diamond is not a cycle",
  );
  assert.equal(
    findCycle([{ address: "a", dependencies: ["elsewhere"] }]),
    undefined,
    "a dependency on an address that is no node is ignored",
  );
});

Deno.test("findCycle() returns the nodes on a cycle, in order, from the first address", () => {
  assert.deepEqual(
    findCycle([
      { address: "b", dependencies: ["a"] },
      { address: "a", dependencies: ["b"] },
    ]),
    ["a", "b"],
  );
  assert.deepEqual(
    findCycle([
      { address: "start", dependencies: ["x"] },
      { address: "x", dependencies: ["y"] },
      { address: "y", dependencies: ["z"] },
      { address: "z", dependencies: ["x"] },
    ]),
    ["x", "y", "z"],
    "the path to the cycle is not part of it",
  );
  assert.deepEqual(findCycle([{ address: "self", dependencies: ["self"] }]), ["self"]);
});
