import { BUILTIN_REGISTRY } from "../../providers/registry.ts";
import { strict as assert } from "node:assert";
import { pathKey } from "../errors.ts";
import { newTopScope, parseFile } from "../syntax/mod.ts";
import { sourceIndex } from "./source_index.ts";

const SRC = `package demo

import rnd "pravo.dev/providers/hashicorp/random"

$random: rnd.#Provider
let seed = "s"
base: $random.#Resource.random_integer & {min: 1, max: 9, seed: seed}
`;

function index() {
  return sourceIndex({
    files: [{ name: "main.cue", src: SRC, parsed: parseFile("main.cue", SRC, newTopScope()) }],
    packages: [],
  }, BUILTIN_REGISTRY);
}

Deno.test("sourceIndex() holds where each path is declared, each name referred to, each let", () => {
  const i = index();
  assert.equal(i.sites.get(pathKey(["base"]))?.[0].line, 7);
  assert.equal(i.sites.get(pathKey(["base", "min"]))?.[0].line, 7);
  assert.deepEqual(i.lets.get("seed"), [{ file: "main.cue", line: 6, column: 5 }]);
  assert.ok((i.refs.get("$random") ?? []).some((p) => p.line === 7));
});

Deno.test("sourceIndex() tells a node's type and attributes, and the types of a definition", () => {
  const i = index();
  const base = i.attributesOf?.(["base"]);
  assert.equal(base?.type, "random_integer");
  assert.equal(base?.mode, "managed");
  assert.ok(base?.names.includes("result") && base.names.includes("depends_on"));
  assert.equal(i.attributesOf?.(["seed"]), undefined);
  assert.ok(i.typesOf?.("#Resource").includes("random_integer"));
  assert.ok(!i.typesOf?.("#Data").includes("random_integer"));
});
