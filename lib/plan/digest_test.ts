import assert from "node:assert/strict";
import { UNKNOWN } from "../cue/program.ts";
import { digestInputs, nodeDigest, secretSources } from "./digest.ts";

Deno.test("nodeDigest() depends on the inputs and lifecycle, not on the order of keys", () => {
  const d = nodeDigest({ a: 1, b: 2 }, {});
  assert.match(d, /^[0-9a-f]{64}$/);
  assert.equal(nodeDigest({ b: 2, a: 1 }, {}), d);
  assert.notEqual(nodeDigest({ a: 1, b: 3 }, {}), d);
  assert.notEqual(nodeDigest({ a: 1, b: 2 }, { prevent_destroy: true }), d);
  assert.notEqual(nodeDigest({ a: 1, b: UNKNOWN }, {}), nodeDigest({ a: 1 }, {}));
});

Deno.test("nodeDigest() names the sensitive attributes and takes their values only through an HMAC", () => {
  const plain = nodeDigest({ pw: "hunter2" }, {});
  const secret = nodeDigest({ pw: "hunter2" }, {}, ["pw"]);
  assert.notEqual(secret, plain);
  assert.equal(nodeDigest({ pw: "hunter2" }, {}, ["pw", "pw"]), secret);
  assert.notEqual(nodeDigest({ pw: "hunter3" }, {}, ["pw"]), secret);
});

Deno.test("secretSources() gives the set sensitive values of each dependency, sorted", () => {
  const of = (a: string) =>
    a === "db"
      ? { attributes: { password: "pw", user: "u", token: null }, sensitive: ["token", "password"] }
      : a === "plain"
      ? { attributes: { x: 1 }, sensitive: [] }
      : undefined;
  assert.deepEqual(secretSources(["plain", "db", "gone", "db"], of), [["db", [[
    "password",
    "pw",
  ]]]]);
});

Deno.test("digestInputs() puts what an input computed from a secret is made of in place of its value", () => {
  const inputs = { a: 1, b: "x" };
  assert.equal(digestInputs(inputs, {}, () => assert.fail("not asked")), inputs);
  let asked = 0;
  const sources = () => {
    asked++;
    return [["db", [["password", "pw"]]]];
  };
  assert.deepEqual(digestInputs(inputs, { b: ["f1", "f2"], c: ["g", "h"] }, sources), {
    a: 1,
    b: { form: ["f1", "f2"], secrets: [["db", [["password", "pw"]]]] },
  });
  assert.equal(asked, 1);
});
