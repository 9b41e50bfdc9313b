import { BUILTIN_ONLY } from "../../workspace/workspace_testing.ts";
import { strict as assert } from "node:assert";
import { parseSources } from "./parse.ts";
import { sourcesDigest } from "./sources.ts";

const MAIN = `package demo

import rnd "pravo.dev/providers/hashicorp/random"

$random: rnd.#Provider
env: string @tag(env)
base: $random.#Resource.random_integer & {min: 1, max: 9, seed: env}
`;

Deno.test("parseSources() gives the sources checked: package, providers, tags, index, digest, words", () => {
  const given = [{ name: "main.cue", src: MAIN }];
  const r = parseSources("/nowhere", given, BUILTIN_ONLY);
  assert.ok(r.ok);
  const s = r.value;
  assert.equal(s.packageName, "demo");
  assert.deepEqual(s.providers, ["hashicorp/random"]);
  assert.deepEqual(s.tags.map((t) => t.name), ["env"]);
  assert.equal(s.index.attributesOf?.(["base"])?.type, "random_integer");
  assert.equal(s.digest, sourcesDigest(given));
  assert.ok(s.words.has("random_integer"));
  assert.equal(s.given, given);
});

Deno.test("parseSources() stops at syntax errors, and gathers the package, import and tag errors", () => {
  const syntax = parseSources(
    "/nowhere",
    [{ name: "main.cue", src: "package demo\nx: {\n" }],
    BUILTIN_ONLY,
  );
  assert.ok(!syntax.ok);
  assert.deepEqual(syntax.diagnostics.map((d) => d.summary), ["Syntax error"]);
  const r = parseSources("/nowhere", [
    { name: "a.cue", src: 'package demo\n\nimport "strings"\n' },
    { name: "b.cue", src: "x: string @tag(x,type=float)\n" },
  ], BUILTIN_ONLY);
  assert.ok(!r.ok);
  assert.deepEqual(r.diagnostics.map((d) => d.summary), [
    "File without a package clause",
    'Import "strings" is not used',
    "Malformed tag attribute",
  ]);
});
