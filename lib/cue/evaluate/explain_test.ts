import { strict as assert } from "node:assert";
import { evaluatorOf, RANDOM, sourcesOf } from "./evaluate_testing.ts";
import { explainFailure } from "./explain.ts";
import { settle } from "./settle.ts";

async function explained(body: string, opts = {}) {
  const ev = await evaluatorOf(sourcesOf(RANDOM + body), opts);
  const res = await settle(ev);
  assert.ok(!res.ok, body);
  return await explainFailure(ev, res.message);
}

Deno.test("explainFailure() names a field that refers to itself", async () => {
  const d = await explained("a: {a: a + 1}\n");
  assert.deepEqual(d.map((x) => x.summary), ['"a" here is the field being defined']);
});

Deno.test("explainFailure() says a computed attribute is set, and maps any other failure", async () => {
  const set = await explained(
    "base: $random.#Resource.random_integer & {min: 1, max: 2, result: 3}\n",
  );
  assert.deepEqual(set.map((d) => d.summary), ['Computed attribute "result" is set']);
  const other = await explained("x: 1 & 2\n");
  assert.equal(other.length, 1);
  assert.equal(other[0].range?.line, 6);
});

Deno.test("explainFailure() refuses at plan time what the configuration requires of a secret", async () => {
  const d = await explained(
    "pw: $random.#Resource.random_password & {length: 12}\n" +
      'x: pw.result & =~"^!"\n',
    {
      known: new Map([["pw", { result: "s3cret", length: 12 }]]),
      secrets: new Map([["pw", [["result"]]]]),
    },
  );
  assert.deepEqual(d.map((x) => x.summary), ["The configuration requires something of a secret"]);
  assert.ok(!JSON.stringify(d).includes("s3cret"));
});
