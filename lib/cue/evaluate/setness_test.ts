import { strict as assert } from "node:assert";
import { stats } from "../engine.ts";
import { evaluatorOf, RANDOM, sourcesOf, TIME } from "./evaluate_testing.ts";
import { type SetnessMemo, setnessOf } from "./setness.ts";

const SOURCES = sourcesOf(
  TIME + "rot: $time.#Resource.time_rotating & {rotation_days: 1}\n" +
    'later: {for k in ["a"] {(k): $time.#Resource.time_rotating & {rotation_days: 2}}}\n',
);

Deno.test("setnessOf() tells the fields a node sets, once per sources, declarations and addresses", async () => {
  const ev = await evaluatorOf(SOURCES);
  const memo: SetnessMemo = new Map();
  const q = { decls: [], packages: ev.packages, addresses: ["later.a", "rot"], memo };
  const before = stats.evaluated + stats.cached;
  const got = (await setnessOf(SOURCES, q)).setness;
  assert.ok(got.get("rot")?.has("rotation_days"));
  assert.ok(!got.get("rot")?.has("rfc3339"));
  assert.ok(got.get("later.a")?.has("rotation_days"));
  assert.equal(stats.evaluated + stats.cached, before + 1);
  assert.equal((await setnessOf(SOURCES, { ...q, addresses: ["rot", "later.a"] })).setness, got);
  assert.equal(stats.evaluated + stats.cached, before + 1);
});

Deno.test("setnessOf() tells the fields set in the nodes at a pattern, by their addresses", async () => {
  const ev = await evaluatorOf(SOURCES);
  const memo: SetnessMemo = new Map();
  const q = { decls: [], packages: ev.packages, addresses: [], memo };
  const answer = await setnessOf(SOURCES, { ...q, patterns: [["later", null], ["rot", null]] });
  const got = answer.setness;
  // rot's fields are values, not nodes: nothing at rot.*.
  assert.deepEqual([...got.keys()], ["later.a"]);
  assert.deepEqual(answer.left, []);
  assert.ok(got.get("later.a")?.has("rotation_days"));
  assert.ok(!got.get("later.a")?.has("rfc3339"));
  const deep = sourcesOf(
    TIME + '#M: t: $time.#Resource.time_static & {}\nm: {for k in ["x", "y"] {(k): #M}}\n',
  );
  const nested = await setnessOf(deep, { ...q, patterns: [["m", null, "t"]] });
  assert.deepEqual([...nested.setness.keys()], ["m.x.t", "m.y.t"]);
});

Deno.test("setnessOf() leaves out a pattern whose nodes cannot be told yet, and tells the others", async () => {
  const sources = sourcesOf(
    TIME + "rot: $time.#Resource.time_rotating & {rotation_days: 1}\n" +
      'b: {for k in ["x"] if rot.rfc3339 != "" {(k): $time.#Resource.time_static & {}}}\n',
  );
  const ev = await evaluatorOf(sources);
  const q = { decls: [], packages: ev.packages, addresses: ["rot"], memo: new Map() };
  const got = await setnessOf(sources, { ...q, patterns: [["b", null]] });
  assert.deepEqual([...got.setness.keys()], ["rot"]);
  assert.deepEqual(got.left, [["b", null]]);
});

Deno.test("learnDeclaredSetness() (through prepare) learns the setness of the nodes declared, also by comprehensions, traced or not", async () => {
  const ev = await evaluatorOf(SOURCES);
  assert.deepEqual([...ev.known.setness.keys()], ["rot", "later.a"]);
  const untraced = await evaluatorOf(SOURCES, { trace: false });
  assert.deepEqual([...untraced.known.setness.keys()], ["rot", "later.a"]);
  const none = await evaluatorOf(sourcesOf(RANDOM + "pet: $random.#Resource.random_pet\n"));
  assert.equal(none.known.setness.size, 0);
});
