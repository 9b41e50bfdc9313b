/**
 * The sources indexed for the taint pass: declarations by path and by what
 * holds them, nodes by path, and the questions of structure.
 */

import assert from "node:assert/strict";
import { TaintIndex } from "./taint_index.ts";
import { names, parsed, refTo, siteAt, thing } from "./taint_testing.ts";

const SRC = `let holder = {inner: a.secret, plain: "x"}
a: {input: "x"}
b: {input: holder.inner}
list: [{deep: a.secret}]
dyn: {(a.id): 1}
group: {c: {input: "y"}}
nodes: {x: a, y: group.c}
lit: {"p": 1, "q": 2}
mixed: {"p": a}
#M: {#var: v: _, q: {input: #var.v}}
m1: #M & {#var: v: a.secret}
mods: {for i, x in [1] {"m\\(i)": #M & {#var: v: "x"}}}
#D: {n: $p.#Resource.t_thing & {input: "z"}}
outputs: {s: b.input, for k, v in nodes {(k): v.id}}
every: group
`;

function index() {
  return new TaintIndex(parsed(SRC), [thing("a"), thing("b"), thing("group.c")]);
}

Deno.test("TaintIndex.at() gives the declarations at a path, sitesUnder() also those under it", () => {
  const ix = index();
  assert.deepEqual(names(ix.at(["a"])), ["a"]);
  assert.deepEqual(names(ix.at(["nope"])), []);
  assert.deepEqual(names(ix.sitesUnder(["group"])).sort(), ["group", "group.c", "group.c.input"]);
  assert.deepEqual(names(ix.sitesUnder(["#M", "q"])).sort(), ["#M.q", "#M.q.input"]);
});

Deno.test("TaintIndex.owned() files a declaration without a static path under the nearest one with one", () => {
  const ix = index();
  assert.deepEqual(names(ix.owned(siteAt(ix, "list"))), ["<deep>"]);
  assert.deepEqual(names(ix.owned(siteAt(ix, "dyn"))), ["<(>"]);
  // The instance under a comprehension's label, and what is written in it.
  assert.deepEqual(names(ix.owned(siteAt(ix, "mods"))), ['<"m\\(i)">', "<#var>", "<v>"]);
  assert.deepEqual(names(ix.owned(null)), []);
  assert.deepEqual(names(ix.owned(siteAt(ix, "a"))), []);
});

Deno.test("TaintIndex.within() and writtenIn() give what is written in a value, one level and every level", () => {
  const ix = index();
  assert.deepEqual(names(ix.within(siteAt(ix, "group"))), ["group.c"]);
  assert.deepEqual(names(ix.writtenIn(siteAt(ix, "group"))), ["group.c", "group.c.input"]);
  // A let's struct.
  const holder = ix.files[0].lets[0];
  assert.deepEqual(ix.within(holder).map((s) => s.label), ["inner", "plain"]);
});

Deno.test("TaintIndex.node() and nodesUnder() find the nodes at a path and strictly under it", () => {
  const ix = index();
  assert.equal(ix.node(["group", "c"])?.address, "group.c");
  assert.equal(ix.node(["group"]), undefined);
  assert.deepEqual(ix.nodesUnder(["group"]).map((n) => n.address), ["group.c"]);
  assert.deepEqual(ix.nodesUnder([]).map((n) => n.address), ["a", "b", "group.c"]);
  assert.deepEqual(ix.nodesUnder(["a"]), []);
});

Deno.test("TaintIndex.outputNames() gives the outputs the sources name, not those under a dynamic label", () => {
  assert.deepEqual([...index().outputNames()], ["s"]);
});

Deno.test("TaintIndex.iteratesNodes() is true of a reference to a node or a struct of nodes only", () => {
  const ix = index();
  assert.equal(ix.iteratesNodes(refTo(ix, "a")), true);
  assert.equal(ix.iteratesNodes(refTo(ix, "group")), true, "a struct that holds nodes");
  assert.equal(ix.iteratesNodes(refTo(ix, "group.c")), true);
  assert.equal(ix.iteratesNodes(refTo(ix, "nodes")), false, "references to nodes are no nodes");
  assert.equal(ix.iteratesNodes(refTo(ix, "a.secret")), false);
  assert.equal(ix.iteratesNodes(refTo(ix, "holder.inner")), false, "a let");
});

Deno.test("TaintIndex.staticKeys() is true of a struct written out with its labels, literal() of its declaration", () => {
  const ix = index();
  const other = new TaintIndex(
    parsed(`lit: {"p": 1, "q": 2}
mixed: {"p": a, "q": b}
alias: lit
gen: {for k, v in mixed {(k): v}}
let l = {k: 1}
uses: [lit, mixed, l, alias, gen]
`),
    [],
  );
  assert.equal(other.staticKeys(refTo(other, "lit")), true);
  assert.equal(other.staticKeys(refTo(other, "mixed")), true, "its values may be references");
  assert.equal(other.staticKeys(refTo(other, "l")), true, "a let's own struct");
  assert.equal(other.staticKeys(refTo(other, "alias")), false, "a reference to one");
  assert.equal(other.staticKeys(refTo(other, "gen")), false, "a comprehension's keys");
  assert.equal(ix.literal(siteAt(ix, "lit")), true);
  assert.equal(ix.literal(siteAt(ix, "mixed")), true, "its values may be references");
  assert.equal(ix.literal(siteAt(ix, "a.input")), false, "no struct at all");
  assert.equal(ix.literal(siteAt(ix, "#M")), false, "a definition's fields are not all regular");
  assert.equal(ix.literal(siteAt(ix, "mods")), false, "it holds a comprehension");
  assert.equal(ix.literal(siteAt(ix, "m1")), false, "it has a reference");
});

Deno.test("TaintIndex.ofNodes() is true of a value made of references to nodes only", () => {
  const ix = index();
  assert.equal(ix.ofNodes(siteAt(ix, "nodes.x")), true);
  assert.equal(ix.ofNodes(siteAt(ix, "nodes.y")), true);
  assert.equal(ix.ofNodes(siteAt(ix, "nodes")), false, "a struct written out");
  assert.equal(ix.ofNodes(siteAt(ix, "b.input")), false);
});

Deno.test("TaintIndex.instancesOf() finds what instantiates a definition, with its path or without one", () => {
  const ix = index();
  const got = ix.instancesOf(["#M"]);
  assert.deepEqual(got.map((i) => i.path?.join(".") ?? `<${i.site.label}>`), ["m1", '<"m\\(i)">']);
  assert.equal(ix.instancesOf(["#M"]), got, "kept");
  assert.deepEqual(ix.instancesOf(["#D"]), []);
});

Deno.test("TaintIndex.insideValue() is true inside an output, a node, or a node declared in a definition", () => {
  const ix = index();
  assert.equal(ix.insideValue(["outputs", "s"]), true);
  assert.equal(ix.insideValue(["outputs"]), false);
  assert.equal(ix.insideValue(["a", "input"]), true);
  assert.equal(ix.insideValue(["a"]), false, "the node itself is not inside a value");
  assert.equal(ix.insideValue(["group", "c", "input", "x"]), true);
  assert.equal(ix.insideValue(["#D", "n", "input"]), true);
  assert.equal(ix.insideValue(["#M", "q", "input"]), false);
  assert.equal(ix.insideValue(["mods"]), false);
  assert.equal(ix.declaresNode(["#D", "n"]), true);
  assert.equal(ix.declaresNode(["#M", "q"]), false);
});
