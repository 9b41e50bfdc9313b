import { strict as assert } from "node:assert";
import { decidedByUnknown } from "./decided.ts";
import { evaluatorOf, firstTree, sourcesOf } from "./evaluate_testing.ts";
import { buildNodes } from "./nodes.ts";
import { traceUnknowns } from "./trace.ts";

const HEAD = 'package demo\n\nimport (\n\trnd "pravo.dev/providers/hashicorp/random"\n' +
  '\t"strings"\n)\n\n$random: rnd.#Provider\n' +
  "base: $random.#Resource.random_integer & {min: 1, max: 9}\n" +
  '_s: strings.ToUpper("x")\n';

async function decided(body: string) {
  const sources = sourcesOf(HEAD + body);
  const ev = await evaluatorOf(sources);
  const { tree, found } = await firstTree(ev);
  const traced = await traceUnknowns(ev, { found, tree });
  const { nodes } = buildNodes(sources, { found, known: ev.known, traced });
  return decidedByUnknown(sources, {
    nodes,
    sentinels: traced.sentinels,
    found,
    traced: traced.traced,
  });
}

Deno.test("decidedByUnknown() refuses nodes a value known only after apply decides, at the comprehension", async () => {
  const d = await decided(
    'r: {for k in strings.Split(base.id, "-") {"\\(k)": $random.#Resource.random_pet & {prefix: k}}}\n',
  );
  assert.deepEqual(d.map((x) => [x.summary, x.range]), [
    ["Nodes decided by a value known only after apply", { file: "main.cue", line: 11, column: 5 }],
  ]);
});

Deno.test("decidedByUnknown() lets a value known only after apply be used inside a node", async () => {
  const d = await decided(
    'n: $random.#Resource.random_pet & {keepers: {if base.result > 5 {big: "yes"}}}\n',
  );
  assert.deepEqual(d, []);
});
