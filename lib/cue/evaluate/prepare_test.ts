import { strict as assert } from "node:assert";
import { stats } from "../engine.ts";
import { RANDOM, sourcesOf } from "./evaluate_testing.ts";
import { prepare } from "./prepare.ts";

const SOURCES = sourcesOf(
  RANDOM + "env: string @tag(env)\npw: $random.#Resource.random_password & {length: 12}\n",
);

Deno.test("prepare() refuses a wrong -t value before anything is evaluated", async () => {
  const before = stats.evaluated + stats.cached;
  const res = await prepare(SOURCES, { tags: { nv: "dev" } });
  assert.ok(!res.ok);
  assert.deepEqual(res.diagnostics.map((d) => d.summary), ['No field declares the tag "nv"']);
  assert.equal(stats.evaluated + stats.cached, before);
});

Deno.test("prepare() gives the program: tags, known values with secrets neutral, or revealed", async () => {
  const opts = {
    tags: { env: "dev" },
    known: new Map([["pw", { result: "s3cret" }]]),
    secrets: new Map([["pw", [["result"]]]]),
  };
  const plan = await prepare(SOURCES, opts);
  assert.ok(plan.ok);
  assert.deepEqual(plan.value.tags, ['"env": "dev"']);
  assert.equal(plan.value.trace, true);
  assert.ok(!plan.value.knownDecls.join().includes("s3cret"));
  const apply = await prepare(SOURCES, { ...opts, reveal: true, trace: false });
  assert.ok(apply.ok);
  assert.equal(apply.value.trace, false);
  assert.ok(apply.value.knownDecls.join().includes('"s3cret"'));
});
