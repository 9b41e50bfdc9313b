import { BUILTIN_ONLY } from "../../workspace/workspace_testing.ts";
import { strict as assert } from "node:assert";
import { checkImports } from "./imports.ts";
import { parseFiles } from "./parse_files.ts";

function check(src: string) {
  const parsed = parseFiles([{ name: "main.cue", src }]);
  assert.deepEqual(parsed.diagnostics, []);
  return checkImports("/nowhere", { parsed, providers: BUILTIN_ONLY });
}

Deno.test("checkImports() gives the providers imported, sorted, and accepts builtin packages", () => {
  const r = check(`package demo

import (
	"strings"
	tm "pravo.dev/providers/hashicorp/time"
	rnd "pravo.dev/providers/hashicorp/random"
)

$random: rnd.#Provider
$time: tm.#Provider
x: strings.ToUpper("a")
`);
  assert.ok(r.ok);
  assert.deepEqual(r.value, ["hashicorp/random", "hashicorp/time"]);
  assert.deepEqual(r.diagnostics, []);
});

Deno.test("checkImports() refuses an unknown import, an unknown provider and an unused import", () => {
  const r = check(`package demo

import (
	"strngs"
	nope "pravo.dev/providers/hashicorp/nope"
	"encoding/json"
)
`);
  assert.ok(r.ok);
  assert.deepEqual(r.value, []);
  assert.deepEqual(r.diagnostics.map((d) => [d.summary, d.range?.line]), [
    ["Unknown import", 4],
    ["Unknown provider", 5],
    ['Import "encoding/json" is not used', 6],
  ]);
  assert.match(r.diagnostics[0].detail, /did you mean "strings"\?/i);
});

Deno.test("checkImports() counts only a reference that no field of the file declares as a use", () => {
  const r = check('package demo\n\nimport "strings"\n\nstrings: 1\nx: strings\n');
  assert.ok(r.ok);
  assert.deepEqual(r.diagnostics.map((d) => d.summary), ['Import "strings" is not used']);
});
