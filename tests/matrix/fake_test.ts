/**
 * The feature matrix's world on the fake provider of tests/plugin/
 * (protocol 6, for what moto cannot show) on SQLite state (cells.ts): every
 * row of `_scenario.ts` through scripts/pravo and the MCP server through the
 * SDK's client.
 *
 * @module
 */

import { FAKE_SOURCE, FAKE_VERSION, fakeMirror } from "../plugin/_roots.ts";
import { runWorld } from "./_scenario.ts";
import { makeWorld } from "./_world.ts";

const FAKE_MAIN = `package matrix

import fake "pravo.dev/providers/pravo/fake"

protect: *false | bool @tag(protect,type=bool)

$fake: fake.#Provider & {endpoint: "http://fake.example"}

a: $fake.#Resource.fake_thing & {
	name: "a"
	lifecycle: prevent_destroy: protect
}
b: $fake.#Resource.fake_thing & {name: "b-of-\\(a.id)"}

outputs: first: a.id
`;

Deno.test("feature matrix: the fake v6 provider on SQLite state", async (t) => {
  const mirror = await fakeMirror();
  const w = await makeWorld({
    worldId: "fake-sqlite",
    files: {
      "main.cue": FAKE_MAIN,
      "pravo.jsonc": JSON.stringify({
        providers: { [FAKE_SOURCE]: FAKE_VERSION },
        provider_mirrors: [mirror.dir],
      }),
    },
    typeA: "fake_thing",
    providerA: FAKE_SOURCE,
    attrA: "id",
    importId: (attrs) => String(attrs.id),
    async driftA(_root, attrs) {
      // The provider's objects, changed behind pravo's back.
      const saved = JSON.parse(await Deno.readTextFile(mirror.state));
      const thing = saved.things.find((x: { id: string }) => x.id === attrs.id);
      thing.name = "renamed behind pravo's back";
      await Deno.writeTextFile(mirror.state, JSON.stringify(saved));
    },
  });
  try {
    await runWorld(t, w);
  } finally {
    await w.cleanup();
    await Deno.remove(mirror.dir, { recursive: true });
  }
});
