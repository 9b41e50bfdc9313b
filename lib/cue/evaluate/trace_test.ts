import { strict as assert } from "node:assert";
import { evaluatorOf, firstTree, RANDOM, sourcesOf } from "./evaluate_testing.ts";
import { traceUnknowns } from "./trace.ts";

const SOURCES = sourcesOf(
  RANDOM + "base: $random.#Resource.random_integer & {min: 1, max: 9}\nn: base.result + 1\n" +
    "pw: $random.#Resource.random_password & {length: 12}\n",
);

Deno.test("traceUnknowns() gives each unknown value a sentinel and evaluates with them", async () => {
  const ev = await evaluatorOf(SOURCES);
  const { tree, found } = await firstTree(ev);
  const t = await traceUnknowns(ev, { found, tree });
  assert.deepEqual(t.sentinels, [
    { address: "base", attr: "result" },
    { address: "base", attr: "id" },
    { address: "pw", attr: "result" },
    { address: "pw", attr: "bcrypt_hash" },
    { address: "pw", attr: "id" },
  ]);
  assert.deepEqual([...t.unknownSecrets], ["pw"]);
  assert.equal(t.standInHolders.length, 5);
  assert.equal(t.traced?.n, 8000000000000001);
});

Deno.test("traceUnknowns() does nothing for an evaluation that does not trace, or a value known", async () => {
  const ev = await evaluatorOf(SOURCES, { trace: false });
  const { tree, found } = await firstTree(ev);
  assert.deepEqual(await traceUnknowns(ev, { found, tree }), {
    sentinels: [],
    standInHolders: [],
    unknownSecrets: new Set(),
  });
  const known = new Map([["base", { result: 4, id: "4" }]]);
  const some = await evaluatorOf(SOURCES, { known });
  const first = await firstTree(some);
  const t = await traceUnknowns(some, first);
  assert.ok(!t.sentinels.some((s) => s.address === "base"));
  assert.equal(t.traced?.n, 5);
});
