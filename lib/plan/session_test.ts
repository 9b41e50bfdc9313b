import assert from "node:assert/strict";
import type { ProviderSession } from "../providers/session.ts";
import { instancesOf, planSession } from "./session.ts";
import { record, sourcesOf, specOf } from "./steps/_testing.ts";

Deno.test("instancesOf() gives each provider configuration's address, source and configuration", () => {
  const providers = [
    { address: "$a", source: "x/a", config: { region: "eu" }, sensitive: ["region"] },
  ];
  assert.deepEqual(instancesOf({ providers }), [
    { address: "$a", source: "x/a", config: { region: "eu" } },
  ]);
});

Deno.test("planSession() uses the given session, and tells it the nodes of each evaluation", async () => {
  const bound: string[][] = [];
  const given = {
    bind: (nodes: readonly { address: string }[]) => bound.push(nodes.map((n) => n.address)),
  } as unknown as ProviderSession;
  const sources = sourcesOf("base: $random.#Resource.random_integer & {min: 1, max: 9}");
  const records = new Map([["base", record("base")]]);
  const s = planSession(sources, { root: "/nowhere", tags: {}, given }, {
    records,
    knownKinds: new Map(),
  });
  assert.equal(s.session, given);
  s.use(await specOf(sources));
  assert.deepEqual(bound, [["base"]]);
});

Deno.test("planSession() makes a session of its own for the root when none is given", () => {
  const sources = sourcesOf("base: $random.#Resource.random_integer & {min: 1, max: 9}");
  const s = planSession(sources, { root: "/nowhere", tags: {} }, {
    records: new Map(),
    knownKinds: new Map(),
  });
  assert.equal(s.session.root, "/nowhere");
});
