/** Secrets traced through the references of a root's sources. */

import assert from "node:assert/strict";
import { isInput } from "./taint_trace.ts";
import { siteAt, THING, thing, tracerOf } from "./taint_testing.ts";

Deno.test("isInput() is true of what the configuration sets, not of what the provider computes", () => {
  assert.equal(isInput(THING, "input"), true);
  assert.equal(isInput(THING, "secret"), false);
  assert.equal(isInput(THING, "id"), false);
  assert.equal(isInput(THING, "nope"), false);
});

const NODES = `a: {input: "x"}
b: {input: a.secret}
c: {input: a.id}
`;

Deno.test("TaintTracer.pathTaint() reads a secret attribute, a whole node that holds one, and not a computed one", () => {
  const t = tracerOf(NODES, [thing("a"), thing("b"), thing("c")]);
  assert.equal(t.pathTaint(["a", "secret"]), true);
  assert.equal(t.pathTaint(["a", "id"]), false, "computed, not a secret");
  assert.equal(t.pathTaint(["a"]), true, "a node whose schema marks an attribute sensitive");
  assert.equal(t.nodeTaint(t.index.node(["c"])!), true, "every thing has its secret");
});

Deno.test("TaintTracer.inputTaint() is true of an input whose value refers to a secret", () => {
  const t = tracerOf(NODES, [thing("a"), thing("b"), thing("c")]);
  assert.equal(t.inputTaint(t.index.node(["b"])!, "input"), true);
  assert.equal(t.inputTaint(t.index.node(["c"])!, "input"), false);
});

Deno.test("TaintTracer.inputTaint() follows a secret through another node's input, whichever is asked first", () => {
  const body = `a: {input: "x"}\nd: {input: b.input}\nb: {input: a.secret}\n`;
  for (const order of [["a", "b", "d"], ["a", "d", "b"], ["d", "b", "a"]]) {
    const t = tracerOf(body, order.map((n) => thing(n)));
    const asked = order.map((n) => [n, t.inputTaint(t.index.node([n])!, "input")]);
    assert.deepEqual(Object.fromEntries(asked), { a: false, b: true, d: true }, order.join(","));
  }
});

Deno.test("TaintTracer.secretsOf() holds the attributes given, and the schema's sensitive ones unless told not", () => {
  const nodes = [thing("a"), thing("b"), thing("c")];
  const unknowns = tracerOf(NODES, nodes, {
    schemaSensitive: false,
    secretAttrs: new Map([["a", new Set(["id"])]]),
  });
  assert.equal(unknowns.schemaSensitive, false);
  assert.deepEqual([...unknowns.secretsOf(nodes[0])], ["id"]);
  assert.deepEqual([...unknowns.secretsOf(nodes[1])], []);
  assert.deepEqual([...unknowns.taintedInputs(nodes[1])], []);
  assert.deepEqual([...unknowns.taintedInputs(nodes[2])], ["input"]);
  assert.equal(unknowns.nodeTaint(nodes[1]), false);
  const secrets = tracerOf(NODES, nodes);
  assert.equal(secrets.schemaSensitive, true);
  assert.deepEqual([...secrets.secretsOf(nodes[0])], ["secret"]);
});

Deno.test("TaintTracer.taintedInputs() follows a secret through a let, only into the fields selected", () => {
  const t = tracerOf(
    `a: {input: "x"}
let holder = {inner: a.secret, plain: "x", deep: {z: a.secret}}
b: {input: holder.inner}
c: {input: holder.plain}
d: {input: holder.deep.z}
e: {input: holder}
`,
    ["a", "b", "c", "d", "e"].map((x) => thing(x)),
  );
  const inputs = (x: string) => [...t.taintedInputs(t.index.node([x])!)];
  assert.deepEqual(inputs("b"), ["input"]);
  assert.deepEqual(inputs("c"), []);
  assert.deepEqual(inputs("d"), ["input"]);
  assert.deepEqual(inputs("e"), ["input"], "the whole let");
});

Deno.test("TaintTracer.settleDataSources() makes every attribute of a data source with a tainted input a secret", () => {
  const nodes = [
    thing("a"),
    thing("d1", "data"),
    thing("d2", "data"),
    thing("r"),
    thing("m"),
    thing("r2"),
  ];
  const t = tracerOf(
    `a: {input: "x"}
d1: {input: a.secret}
d2: {input: d1.id}
r: {input: d2.id}
m: {input: a.secret}
r2: {input: m.id}
`,
    nodes,
    { schemaSensitive: false, secretAttrs: new Map([["a", new Set(["secret"])]]) },
  );
  assert.deepEqual([...t.secretsOf(nodes[1])].sort(), ["id", "input", "secret"]);
  assert.deepEqual([...t.secretsOf(nodes[2])].sort(), ["id", "input", "secret"], "through d1");
  assert.deepEqual([...t.taintedInputs(nodes[3])], ["input"]);
  assert.deepEqual([...t.secretsOf(nodes[4])], [], "a managed node reads nothing");
  assert.deepEqual([...t.taintedInputs(nodes[5])], []);
});

Deno.test("TaintTracer.valueTaint() reads what the structs around a path embed and what their dynamic labels hold", () => {
  const t = tracerOf(
    `a: {input: "x"}
base: {k: a.secret, p: "plain"}
wrap: base
dyn: {(a.id): a.secret}
loop: {x: loop.y, y: loop.x}
`,
    [thing("a")],
  );
  assert.equal(t.valueTaint(["wrap", "k"]), true, "the embedding selected into");
  assert.equal(t.valueTaint(["wrap", "p"]), false);
  assert.equal(t.valueTaint(["base"]), true, "what is under it");
  assert.equal(t.valueTaint(["dyn", "any"]), true, "a field under a dynamic label");
  assert.equal(t.valueTaint(["loop", "x"]), false, "a value that refers to itself adds nothing");
});

Deno.test("TaintTracer.siteTaint() and refTaint() carry nothing through depends_on, a loop's keys, an import", () => {
  const t = tracerOf(
    `a: {input: "x"}
b: {input: "y", depends_on: [a]}
group: {c: {input: "z"}}
s: {for k, v in group {(k): k}}
u: strings.ToUpper(a.secret)
w: strings.ToUpper("x")
`,
    [thing("a"), thing("b"), thing("group.c")],
  );
  assert.equal(t.siteTaint(siteAt(t.index, "b.depends_on")), false);
  assert.equal(t.pathTaint(["b"]), true, "b has a secret of its own");
  assert.equal(t.pathTaint(["b", "input"]), false);
  const keyOf = t.index.owned(siteAt(t.index, "s")).find((x) => x.label === "(")!;
  assert.equal(t.siteTaint(keyOf), false, "the keys of a struct of nodes are in the sources");
  const [upper] = siteAt(t.index, "u").refs.filter((r) => r.name === "strings");
  assert.equal(t.refTaint(upper, []), false, "an import");
  assert.equal(t.siteTaint(siteAt(t.index, "u")), true);
  assert.equal(t.siteTaint(siteAt(t.index, "w")), false);
});
