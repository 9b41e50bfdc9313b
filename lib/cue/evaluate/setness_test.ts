import { strict as assert } from "node:assert";
import { stats } from "../engine.ts";
import { evaluatorOf, RANDOM, sourcesOf, TIME } from "./evaluate_testing.ts";
import { type SetnessMemo, setnessOf, staticNodePaths } from "./setness.ts";

const SOURCES = sourcesOf(
  TIME + "rot: $time.#Resource.time_rotating & {rotation_days: 1}\n" +
    'later: {for k in ["a"] {(k): $time.#Resource.time_rotating & {rotation_days: 2}}}\n',
);

Deno.test("staticNodePaths() gives the nodes the sources declare, not those of comprehensions", () => {
  assert.deepEqual(staticNodePaths(SOURCES), ["rot"]);
  assert.deepEqual(staticNodePaths(sourcesOf(RANDOM + "x: 1\n")), []);
});

Deno.test("setnessOf() tells the fields a node sets, once per sources, declarations and addresses", async () => {
  const ev = await evaluatorOf(SOURCES);
  const memo: SetnessMemo = new Map();
  const q = { decls: [], packages: ev.packages, addresses: ["later.a", "rot"], memo };
  const before = stats.evaluated + stats.cached;
  const got = await setnessOf(SOURCES, q);
  assert.ok(got.get("rot")?.has("rotation_days"));
  assert.ok(!got.get("rot")?.has("rfc3339"));
  assert.ok(got.get("later.a")?.has("rotation_days"));
  assert.equal(stats.evaluated + stats.cached, before + 1);
  assert.equal(await setnessOf(SOURCES, { ...q, addresses: ["rot", "later.a"] }), got);
  assert.equal(stats.evaluated + stats.cached, before + 1);
});

Deno.test("learnDeclaredSetness() (through prepare) learns the declared nodes' setness only", async () => {
  const ev = await evaluatorOf(SOURCES);
  assert.deepEqual([...ev.known.setness.keys()], ["rot"]);
  const untraced = await evaluatorOf(SOURCES, { trace: false });
  assert.equal(untraced.known.setness.size, 0);
});
