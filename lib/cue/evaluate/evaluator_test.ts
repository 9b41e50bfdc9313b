import { strict as assert } from "node:assert";
import { evaluatorOf, RANDOM, sourcesOf } from "./evaluate_testing.ts";
import { packageOf } from "./values.ts";

const SOURCES = sourcesOf(
  RANDOM + "env: string @tag(env)\npet: $random.#Resource.random_pet & {keepers: {e: env}}\n",
);

Deno.test("Evaluator.run() evaluates the program with the tags, the pins and what a pass adds", async () => {
  const ev = await evaluatorOf(SOURCES, { tags: { env: "dev" }, trace: false });
  ev.pins.push('"pet": "length": 3');
  const res = await ev.run(['"extra": 1']);
  assert.ok(res.ok);
  const tree = packageOf(res.json)!;
  assert.equal(tree.extra, 1);
  assert.deepEqual((tree.pet as Record<string, unknown>).keepers, { e: "dev" });
  assert.equal((tree.pet as Record<string, unknown>).length, 3);
});

Deno.test("Evaluator.sharpened() says what an optional attribute's disjunction refused", async () => {
  const ev = await evaluatorOf(
    sourcesOf(RANDOM + "pet: $random.#Resource.random_pet & {keepers: {a: 1}}\n"),
    { trace: false },
  );
  const res = await ev.run(ev.knownDecls);
  assert.ok(!res.ok);
  assert.match(res.message, /errors in empty disjunction/);
  const sharp = await ev.sharpened(res.message);
  assert.match(sharp, /pet\.keepers\.a: conflicting values 1 and string/);
  assert.equal(
    await ev.sharpened("x: conflicting values 1 and 2"),
    "x: conflicting values 1 and 2",
  );
});

Deno.test("Evaluator.neutralEvaluation() is made once, with the secrets neutral", async () => {
  const ev = await evaluatorOf(
    sourcesOf(RANDOM + "pw: $random.#Resource.random_password & {length: 12}\nout: pw.result\n"),
    {
      known: new Map([["pw", { result: "s3cret", length: 12 }]]),
      secrets: new Map([["pw", [["result"]]]]),
      reveal: true,
    },
  );
  const a = ev.neutralEvaluation();
  assert.equal(ev.neutralEvaluation(), a);
  const res = await a;
  assert.ok(res.ok);
  assert.match(String(packageOf(res.json)?.out), /^\(sensitive\)/);
});
