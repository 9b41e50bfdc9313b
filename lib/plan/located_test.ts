import assert from "node:assert/strict";
import { warning } from "../diag/diag.ts";
import { locatedIn } from "./located.ts";
import { sourcesOf } from "./steps/_testing.ts";

Deno.test("locatedIn() points a node's diagnostic at its declaration, and keeps one that has a place", () => {
  const sources = sourcesOf("base: $random.#Resource.random_integer & {min: 1, max: 9}");
  const located = locatedIn(sources);
  const range = { file: "main.cue", line: 9, column: 1 };
  const d = located({ address: "base", range })(warning("Odd", "odd"));
  assert.equal(d.address, "base");
  assert.equal(d.summary, "Odd");
  assert.ok(d.range, "it has a place");
  const placed = { ...warning("Odd", "odd"), range: { file: "x.cue", line: 1, column: 2 } };
  assert.deepEqual(located({ address: "base" })(placed), { ...placed, address: "base" });
});
