import { strict as assert } from "node:assert";
import { evaluatorOf, RANDOM, sourcesOf } from "./evaluate_testing.ts";
import { settle } from "./settle.ts";
import { packageOf } from "./values.ts";

Deno.test("settle() pins the provider's default where a reference reads it, and evaluates", async () => {
  const ev = await evaluatorOf(
    sourcesOf(RANDOM + "pet: $random.#Resource.random_pet & {}\ntwo: {n: pet.length}\n"),
    { trace: false },
  );
  const res = await settle(ev);
  assert.ok(res.ok);
  assert.deepEqual(packageOf(res.json)?.two, { n: 2 });
  assert.deepEqual(ev.pins, ['"pet": "length": 2']);
});

Deno.test("settle() gives the failure when no pin helps", async () => {
  const ev = await evaluatorOf(sourcesOf(RANDOM + "x: 1 & 2\n"), { trace: false });
  const res = await settle(ev);
  assert.ok(!res.ok);
  assert.match(res.message, /x: conflicting values/);
  assert.deepEqual(ev.pins, []);
});
