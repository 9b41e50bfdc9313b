import { strict as assert } from "node:assert";
import { evaluatorOf, firstTree, RANDOM, sourcesOf } from "./evaluate_testing.ts";
import { buildNodes } from "./nodes.ts";
import { taintBySecrets } from "./secret_taint.ts";
import { traceUnknowns } from "./trace.ts";

async function tainted(body: string) {
  const sources = sourcesOf(
    RANDOM + "pw: $random.#Resource.random_password & {length: 12}\n" + body,
  );
  const ev = await evaluatorOf(sources, {
    trace: false,
    known: new Map([["pw", { result: "s3cret", length: 12 }]]),
    secrets: new Map([["pw", [["result"]]]]),
  });
  const { tree, found } = await firstTree(ev);
  const traced = await traceUnknowns(ev, { found, tree });
  const { nodes } = buildNodes(sources, { found, known: ev.known, traced });
  return taintBySecrets(sources, { nodes, secrets: ev.known.secrets });
}

Deno.test("taintBySecrets() finds the inputs and outputs the references compute from a secret", async () => {
  const r = await tainted(
    "pet: $random.#Resource.random_pet & {prefix: pw.result}\noutputs: {p: pw.result, n: 1}\n",
  );
  assert.deepEqual(r.diagnostics, []);
  assert.deepEqual([...r.tainted.inputs.get("pet") ?? []], ["prefix"]);
  assert.deepEqual([...r.tainted.outputs], ["p"]);
});

Deno.test("taintBySecrets() refuses structure that a secret decides", async () => {
  const r = await tainted('out: {if pw.result == "a" {x: "y"}}\n');
  assert.equal(r.diagnostics.length, 1);
  assert.match(r.diagnostics[0].summary, /depends on a sensitive value$/);
});
