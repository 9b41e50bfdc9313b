import { BUILTIN_REGISTRY } from "../../providers/registry.ts";
import assert from "node:assert/strict";
import type { StateRecord } from "../../state/store.ts";
import { planSession } from "../session.ts";
import { planNodes } from "./plan_nodes.ts";
import { record, sourcesOf, specOf } from "./_testing.ts";

const BODY = `a: $random.#Resource.random_integer & {min: 1, max: 9}
b: $random.#Resource.random_integer & {min: 1, max: 9, seed: "b"}`;

async function plan(records: Map<string, StateRecord>, opts = {}) {
  const sources = sourcesOf(BODY);
  const spec = await specOf(sources);
  const { session } = planSession(sources, { root: "/nowhere", tags: {} }, {
    records,
    knownKinds: new Map(),
  });
  const prior = new Map([...records].map(([a, r]) => [a, r.attributes]));
  return await planNodes(spec, {
    registry: BUILTIN_REGISTRY,
    opts: { root: "/nowhere", tags: {}, actor: "t", reason: "r", ...opts },
    session,
    records,
    refreshed: { prior, stored: new Map(), refreshed: new Map() },
    dataRead: new Map(),
    dataSecrets: new Map(),
    located: () => (d) => d,
  });
}

Deno.test("planNodes() plans every node of the evaluation, in its order", async () => {
  const got = await plan(new Map());
  assert.deepEqual(got.planned.map((p) => [p.address, p.action]), [["a", "create"], [
    "b",
    "create",
  ]]);
  assert.deepEqual(got.diagnostics, []);
});

Deno.test("planNodes() leaves a node unchanged since apply as it is, and plans the others", async () => {
  const first = await plan(new Map());
  const a = first.planned[0];
  const records = new Map([
    ["a", record("a", { configDigest: a.configDigest, attributes: { min: 1, max: 9, result: 3 } })],
    ["b", record("b", { configDigest: "other", attributes: { min: 1, max: 9, result: 3 } })],
  ]);
  const got = await plan(records);
  assert.deepEqual(got.planned.map((p) => [p.address, p.action]), [["a", "no-op"], [
    "b",
    "replace",
  ]]);
  assert.deepEqual(got.planned[0].after, { min: 1, max: 9, result: 3 });
  // --replace replaces it all the same.
  const replaced = await plan(records, { replace: ["a"] });
  assert.deepEqual(replaced.planned[0].replaceBecause, ["requested"]);
});
