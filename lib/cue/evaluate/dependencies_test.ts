import { strict as assert } from "node:assert";
import type { Node } from "../spec.ts";
import { sentinelString } from "../unknowns.ts";
import { cycleDiagnostics, dependencies, linkDependencies } from "./dependencies.ts";
import { RANDOM, sourcesOf } from "./evaluate_testing.ts";
import { specNode } from "../spec_testing.ts";

const SOURCES = sourcesOf(
  RANDOM + "a: $random.#Resource.random_pet & {prefix: b.id}\n" +
    "b: $random.#Resource.random_pet & {prefix: c.id}\n" +
    "c: $random.#Ephemeral.random_password & {length: 8}\n",
);

function node(address: string, mode: Node["mode"], extra: Partial<Node> = {}): Node {
  return specNode(address, { mode, ...extra });
}

Deno.test("dependencies() reads which nodes each node refers to", () => {
  const nodes = [node("a", "managed"), node("b", "managed"), node("c", "ephemeral")];
  const deps = dependencies(SOURCES, nodes);
  assert.deepEqual([...deps.get("a")!], ["b"]);
  assert.deepEqual([...deps.get("b")!], ["c"]);
  assert.deepEqual([...deps.get("c")!], []);
});

Deno.test("linkDependencies() sets them, and refuses a stored node that refers to an ephemeral one", () => {
  const sentinels = [{ address: "c", attr: "id" }];
  // a's template waits for c, which a does not depend on: evaluated again at apply.
  const a = node("a", "managed", { templates: { prefix: sentinelString(0) } });
  const nodes = [a, node("b", "managed"), node("c", "ephemeral")];
  const diags = linkDependencies(SOURCES, { nodes, sentinels });
  assert.deepEqual(nodes.map((n) => n.dependencies), [["b"], ["c"], []]);
  assert.deepEqual(a.templates, {});
  assert.deepEqual(a.needsEvaluation, ["prefix"]);
  assert.deepEqual(diags.map((d) => [d.summary, d.address]), [[
    "Ephemeral value would be stored",
    "b",
  ]]);
});

Deno.test("cycleDiagnostics() names a cycle at its first node", () => {
  const nodes = [
    node("a", "managed", { dependencies: ["b"] }),
    node("b", "managed", { dependencies: ["a"] }),
  ];
  assert.deepEqual(cycleDiagnostics(nodes).map((d) => [d.summary, d.address]), [
    ["Dependency cycle", "a"],
  ]);
  assert.deepEqual(cycleDiagnostics([node("a", "managed")]), []);
});
