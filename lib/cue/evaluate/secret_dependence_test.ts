import { strict as assert } from "node:assert";
import { NODE_MARKER } from "../provider_cue.ts";
import { evaluatorOf, firstTree, RANDOM, sourcesOf } from "./evaluate_testing.ts";
import { compareStandIns, secretDependence } from "./secret_dependence.ts";
import { traceUnknowns } from "./trace.ts";

const MARK = { mode: "managed", type: "random_pet", provider: "hashicorp/random" };
const INDEX = sourcesOf(RANDOM + "pet: $random.#Resource.random_pet\n").index;

Deno.test("secretDependence() marks what differs sensitive, and refuses structure that differs", () => {
  const d = secretDependence(
    { pet: { [NODE_MARKER]: MARK, prefix: "a", length: 2 }, outputs: { o: 1, p: 1 } },
    { pet: { [NODE_MARKER]: MARK, prefix: "b", length: 2 }, outputs: { o: 2 } },
    INDEX,
  );
  assert.deepEqual([...d.attributes], [["pet", new Set(["prefix"])]]);
  assert.deepEqual([...d.outputs], ["o"]);
  assert.deepEqual(d.diagnostics.map((x) => x.summary), [
    "Whether the output p exists depends on a sensitive value",
  ]);
  const gone = secretDependence({ pet: { [NODE_MARKER]: MARK } }, {}, INDEX);
  assert.deepEqual(gone.diagnostics.map((x) => [x.summary, x.range?.line]), [
    ["Whether the node pet exists depends on a sensitive value", 6],
  ]);
});

Deno.test("compareStandIns() evaluates with the second stand-in where a secret is known", async () => {
  const sources = sourcesOf(
    RANDOM + "pw: $random.#Resource.random_password & {length: 12}\n" +
      "pet: $random.#Resource.random_pet & {prefix: pw.result}\n",
  );
  const ev = await evaluatorOf(sources, {
    known: new Map([["pw", { result: "s3cret", length: 12 }]]),
    secrets: new Map([["pw", [["result"]]]]),
  });
  const { tree, found } = await firstTree(ev);
  const traced = await traceUnknowns(ev, { found, tree });
  const res = await compareStandIns(ev, { tree, traced });
  assert.ok(res.ok);
  assert.ok(res.value.stood);
  assert.deepEqual(res.value.dependence?.attributes.get("pet"), new Set(["prefix"]));
  const none = await evaluatorOf(sources, { trace: false });
  const plain = await firstTree(none);
  const skipped = await compareStandIns(none, {
    tree: plain.tree,
    traced: await traceUnknowns(none, plain),
  });
  assert.deepEqual(skipped, { ok: true, value: {}, diagnostics: [] });
});
