import assert from "node:assert/strict";
import { PLAN_FORMAT_VERSION } from "../types.ts";
import { assemblePlan } from "./assemble.ts";
import { planned } from "./_testing.ts";

Deno.test("assemblePlan() makes the plan: its nodes sorted, the skipped ones apart", () => {
  const nodes = [planned("c"), planned("a", { action: "create" }), planned("b")];
  const skipped = [{
    address: "b",
    mode: "managed" as const,
    type: "random_integer",
    name: "b",
    reason: "unchanged",
  }];
  const plan = assemblePlan({ given: [{ name: "main.cue", src: "package t\n" }] }, {
    opts: { root: "/r", tags: { env: "dev" }, actor: "alice", reason: "why", full: false },
    createdAt: new Date("2030-01-01T00:00:00.000Z"),
    identity: { lineage: "l-1", serial: 7 },
    spec: { configDigest: "cd", sentinels: [], providers: [] },
    planned: nodes,
    skipped,
    outputs: { outputs: { o: 1 }, outputsUnknown: ["u"], outputsBefore: null },
  });
  assert.match(plan.id, /^[0-9a-f-]{36}$/);
  assert.deepEqual({ ...plan, id: "" }, {
    formatVersion: PLAN_FORMAT_VERSION,
    id: "",
    createdAt: "2030-01-01T00:00:00.000Z",
    root: "/r",
    tags: { env: "dev" },
    actor: "alice",
    reason: "why",
    lineage: "l-1",
    serial: 7,
    configDigest: "cd",
    destroy: false,
    nodes: [nodes[1], nodes[0]],
    skipped,
    full: false,
    outputs: { o: 1 },
    outputsUnknown: ["u"],
    outputsBefore: null,
    sentinels: [],
    sources: [{ name: "main.cue", src: "package t\n" }],
    providers: [],
  });
  assert.deepEqual(nodes.map((n) => n.address), ["c", "a", "b"], "what it was given stays");
});
