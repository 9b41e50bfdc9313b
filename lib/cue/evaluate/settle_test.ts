import { strict as assert } from "node:assert";
import { evaluatorOf, RANDOM, sourcesOf, TIME } from "./evaluate_testing.ts";
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

Deno.test("settle() asks again the setness of the nodes it could not tell before, and pins what they leave unset", async () => {
  // b's nodes exist when rot's rfc3339 is not null: unknown before rot is pinned.
  const ev = await evaluatorOf(sourcesOf(
    TIME + "rot: $time.#Resource.time_rotating & {rotation_days: 30}\n" +
      'b: {for k in ["x"] if rot.rfc3339 != null {(k): $time.#Resource.time_static & {}}}\n' +
      'u: {for k in ["x"] {(k): {at: b[k].rfc3339}}}\n',
  ));
  assert.deepEqual(ev.pending, [["b", null]]);
  const res = await settle(ev);
  assert.ok(res.ok, res.ok ? "" : res.message);
  assert.deepEqual(packageOf(res.json)?.u, { x: { at: "⟦pravo:?⟧" } });
  assert.deepEqual(ev.pending, []);
  assert.ok(ev.defaultPins.includes('"b": "x": "rfc3339": "⟦pravo:?⟧"'));
});
