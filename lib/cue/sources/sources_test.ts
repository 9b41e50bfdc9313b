import { strict as assert } from "node:assert";
import { sourcesDigest, specDigest } from "./sources.ts";

Deno.test("sourcesDigest() changes with a file's name or content, and specDigest() with the tags", () => {
  const a = sourcesDigest([{ name: "a.cue", src: "x: 1" }]);
  assert.match(a, /^[0-9a-f]{64}$/);
  assert.notEqual(a, sourcesDigest([{ name: "b.cue", src: "x: 1" }]));
  assert.notEqual(a, sourcesDigest([{ name: "a.cue", src: "x: 2" }]));
  assert.equal(specDigest(a, { b: "1", a: "2" }), specDigest(a, { a: "2", b: "1" }));
  assert.notEqual(specDigest(a, {}), specDigest(a, { a: "2" }));
});
