import { strict as assert } from "node:assert";
import { evaluatorOf, firstTree, sourcesOf, TIME } from "./evaluate_testing.ts";
import { learnFoundSetness } from "./found_setness.ts";

Deno.test("learnFoundSetness() asks the setness of the nodes found that the sources declare through a let", async () => {
  const ev = await evaluatorOf(sourcesOf(
    TIME + "rot: $time.#Resource.time_rotating & {rotation_days: 1}\n" +
      "let R = $time.#Resource.time_rotating\n" +
      'later: {for k in ["a"] {(k): R & {rotation_days: 2}}}\n',
  ));
  assert.deepEqual([...ev.known.setness.keys()], ["rot"]);
  const { found } = await firstTree(ev);
  await learnFoundSetness(ev, found);
  assert.deepEqual([...ev.known.setness.keys()].sort(), ["later.a", "rot"]);
  assert.ok(ev.known.setness.get("later.a")?.has("rotation_days"));
});
