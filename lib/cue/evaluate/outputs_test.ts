import { strict as assert } from "node:assert";
import { UNKNOWN } from "../program.ts";
import { sentinelString } from "../unknowns.ts";
import { sourcesOf } from "./evaluate_testing.ts";
import { outputsOf } from "./outputs.ts";

const INDEX = sourcesOf('package demo\n\noutputs: "x"\n').index;

Deno.test("outputsOf() gives the outputs, unknown where the traced evaluation differs", () => {
  const r = outputsOf({
    tree: { outputs: { a: 1, b: "⟦pravo:?⟧" } },
    traced: { outputs: { a: 1, b: sentinelString(0) } },
  }, INDEX);
  assert.deepEqual(r.diagnostics, []);
  assert.deepEqual(r.outputs, { a: 1, b: UNKNOWN });
  assert.deepEqual(outputsOf({ tree: {} }, INDEX).outputs, {});
});

Deno.test("outputsOf() refuses outputs that are no struct, at their declaration", () => {
  const r = outputsOf({ tree: { outputs: "x" } }, INDEX);
  assert.deepEqual(r.outputs, {});
  assert.deepEqual(r.diagnostics.map((d) => [d.summary, d.range?.line]), [
    ["outputs is not a struct", 3],
  ]);
});
