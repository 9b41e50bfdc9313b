import { strict as assert } from "node:assert";
import { sourcesOf } from "./evaluate_testing.ts";
import { tagDeclarations } from "./tag_values.ts";

const SOURCES = sourcesOf(
  "package demo\n\nenv: string @tag(env)\nsize: {n: int @tag(n,type=int)}\n",
);

Deno.test("tagDeclarations() writes each -t value at its field, typed", () => {
  const r = tagDeclarations(SOURCES, { env: "dev", n: "+007" });
  assert.ok(r.ok);
  assert.deepEqual(r.value, ['"env": "dev"', '"size": "n": 7']);
});

Deno.test("tagDeclarations() refuses an undeclared tag and a value not of the tag's type", () => {
  const r = tagDeclarations(SOURCES, { nv: "x", n: "seven" });
  assert.ok(!r.ok);
  assert.deepEqual(r.diagnostics.map((d) => d.summary), [
    'No field declares the tag "nv"',
    'Tag "n" needs a value of type int',
  ]);
  assert.match(r.diagnostics[0].detail, /The tags declared are: env, n\./);
});
