import { BUILTIN_ONLY } from "../workspace/workspace_testing.ts";
import { strict as assert } from "node:assert";
import { evaluateRoot, parseSources } from "./loader.ts";
import { movedTarget } from "./moved.ts";

const HEAD = `package demo

import lc "pravo.dev/providers/hashicorp/local"

$local: lc.#Provider

docs: readme_file: $local.#Resource.local_file & {filename: "README.txt", content: "hi"}
`;

async function diagnostics(moved: string) {
  const sources = parseSources(
    "/nowhere",
    [{ name: "main.cue", src: HEAD + moved + "\n" }],
    BUILTIN_ONLY,
  );
  assert.ok(sources.ok);
  const res = await evaluateRoot(sources.value, { trace: false });
  return res.ok
    ? { moved: res.value.moved, diagnostics: [] }
    : { moved: [], diagnostics: res.diagnostics };
}

Deno.test("evaluateRoot() reads moved: a list of {from, to}", async () => {
  const r = await diagnostics('moved: [{from: "readme", to: "docs.readme_file"}]');
  assert.deepEqual(r.diagnostics, []);
  assert.deepEqual(r.moved, [{ from: "readme", to: "docs.readme_file" }]);
  // A chain ends at a declared node; a struct may move as a whole.
  const chain = await diagnostics(
    'moved: [{from: "a", to: "b"}, {from: "b", to: "docs.readme_file"}, {from: "old", to: "docs"}]',
  );
  assert.deepEqual(chain.diagnostics, []);
});

Deno.test("evaluateRoot() refuses a moved that is malformed, nests, repeats, cycles or goes nowhere", async () => {
  const summary = async (text: string) =>
    (await diagnostics(text)).diagnostics.map((d) => d.summary);
  assert.deepEqual(await summary('moved: {from: "a", to: "b"}'), ["moved is not a list of moves"]);
  assert.deepEqual(await summary('moved: [{from: "a"}]'), ["moved is not a list of moves"]);
  assert.deepEqual(await summary('moved: [{from: "a b", to: "docs.readme_file"}]'), [
    'moved: from "a b" is not an address',
  ]);
  assert.deepEqual(await summary('moved: [{from: "docs.readme_file", to: "x"}]'), [
    "moved: docs.readme_file is still declared",
    "moved: x is not declared",
  ]);
  assert.deepEqual(await summary('moved: [{from: "docs", to: "docs.inner"}]'), [
    "moved: docs and docs.inner nest",
    "moved: docs is still declared",
    "moved: docs.inner is not declared",
  ]);
  assert.deepEqual(
    await summary('moved: [{from: "a", to: "docs.readme_file"}, {from: "a", to: "docs"}]'),
    ["moved: a moves twice"],
  );
  assert.deepEqual(await summary('moved: [{from: "a", to: "b"}, {from: "b", to: "a"}]'), [
    "moved: a moves in a cycle",
  ]);
  const far = (await diagnostics('moved: [{from: "readme", to: "docs.readme_fil"}]')).diagnostics;
  assert.equal(far[0].summary, "moved: docs.readme_fil is not declared");
  assert.match(far[0].detail, /did you mean "docs\.readme_file"\?/);
  assert.deepEqual(far[0].range, { file: "main.cue", line: 8, column: 1 });
});

Deno.test("movedTarget() follows chains and moves what lies under a struct", () => {
  const moved = [
    { from: "readme", to: "docs.old" },
    { from: "docs.old", to: "docs.readme_file" },
    { from: "net", to: "network" },
  ];
  assert.equal(movedTarget(moved, "readme"), "docs.readme_file");
  assert.equal(movedTarget(moved, "net.web.cert"), "network.web.cert");
  assert.equal(movedTarget(moved, "network.web"), undefined);
  assert.equal(movedTarget(moved, "other"), undefined);
  assert.equal(movedTarget([{ from: "a", to: 'sites."my site"' }], "a"), 'sites."my site"');
});
