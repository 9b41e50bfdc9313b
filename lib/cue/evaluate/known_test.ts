import { strict as assert } from "node:assert";
import { neutral } from "../secrets.ts";
import { RANDOM, sourcesOf } from "./evaluate_testing.ts";
import { KnownValues } from "./known.ts";

const INDEX = sourcesOf(RANDOM + "pw: $random.#Resource.random_password & {length: 12}\n").index;

function known() {
  return new KnownValues(INDEX, {
    known: new Map([["pw", { result: "s3cret", length: 12 }]]),
    secrets: new Map([["pw", [["result"]]]]),
  });
}

Deno.test("KnownValues.declarations() puts computed values in their holder, the others unknown", () => {
  assert.deepEqual(known().declarations(), [
    '"pw": _pravo_computed: "bcrypt_hash": "⟦pravo:?⟧"',
    '"pw": _pravo_computed: "id": "⟦pravo:?⟧"',
    '"pw": _pravo_computed: "result": "s3cret"',
    '"pw": "length": 12',
  ]);
});

Deno.test("KnownValues.declarations() gives a secret as f of it, and completes nothing when told", () => {
  const decls = known().declarations(neutral, false);
  assert.equal(decls.length, 2);
  assert.match(decls[0], /^"pw": _pravo_computed: "result": "\(sensitive\)\.+"$/);
  assert.ok(!decls.join().includes("s3cret"));
});

Deno.test("KnownValues.holdsSecrets says whether a secret of the known values holds a value", () => {
  assert.equal(known().holdsSecrets, true);
  const none = new KnownValues(INDEX, { known: new Map([["pw", { length: 12 }]]) });
  assert.equal(none.holdsSecrets, false);
  assert.equal(none.valueOf("pw", "length"), 12);
  // A built-in node's known values are unified in whatever it sets.
  assert.equal(none.injected("pw", "result"), true);
});
