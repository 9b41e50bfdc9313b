import assert from "node:assert/strict";
import { join } from "node:path";
import { emptyPlanDocument, judge, loadPolicy, type Policy } from "./mod.ts";

async function policy(text: string, name = "keep.cue"): Promise<Policy> {
  const dir = await Deno.makeTempDir({ prefix: "pravo-policy-" });
  await Deno.writeTextFile(join(dir, name), text);
  return await loadPolicy(join(dir, name));
}

function node(address: string, action: string, mode = "managed") {
  return { address, action, mode, type: "random_integer", name: address };
}

function doc(nodes: ReturnType<typeof node>[]) {
  const d = emptyPlanDocument();
  const summary = { add: 0, change: 0, replace: 0, destroy: 0, read: 0, unchanged: 0 };
  for (const n of nodes) {
    if (n.action === "create") summary.add++;
    if (n.action === "delete" && n.mode === "managed") summary.destroy++;
    if (n.action === "read") summary.read++;
  }
  return { ...d, summary, nodes };
}

Deno.test("judge() passes a plan that satisfies a constraint", async () => {
  const p = await policy("summary: destroy: 0\n");
  const j = await judge([p], doc([node("a", "create")]));
  assert.equal(j.refused, false);
  assert.deepEqual(j.diagnostics, []);
  assert.deepEqual(j.policies[0].results, [
    { rule: "summary.destroy", level: "mandatory", passed: true, message: "", nodes: [], line: 1 },
  ]);
  assert.equal(j.policies[0].file, p.file);
  assert.match(j.policies[0].digest, /^[0-9a-f]{64}$/);
});

Deno.test("judge() refuses on a constraint and names the deleted nodes", async () => {
  const p = await policy("summary: destroy: 0\n");
  const j = await judge([p], doc([node("a", "delete"), node("b", "create"), node("c", "delete")]));
  assert.equal(j.refused, true);
  const [r] = j.policies[0].results;
  assert.equal(r.passed, false);
  assert.equal(r.message, "summary.destroy: conflicting values 0 and 2");
  assert.deepEqual(r.nodes, ["a", "c"]);
  assert.equal(j.diagnostics[0].summary, 'Policy "keep.cue" refuses the plan');
  assert.equal(j.diagnostics[0].range?.line, 1);
  assert.match(j.diagnostics[0].detail, /Rule "summary.destroy" failed/);
});

Deno.test("judge() reports every failing constraint, each with its line", async () => {
  const p = await policy(`// two rules
summary: destroy: 0

nodes: [...{mode: "managed"}]
summary: add: <2
`);
  const j = await judge(
    [p],
    doc([
      node("a", "delete"),
      node("d", "read", "data"),
      node("b", "create"),
      node("c", "create"),
      node("e", "read", "data"),
    ]),
  );
  const results = j.policies[0].results;
  assert.deepEqual(results.map((r) => [r.rule, r.line, r.passed]), [
    ["summary.destroy", 2, false],
    ["nodes", 4, false],
    ["summary.add", 5, false],
  ]);
  assert.deepEqual(results[1].nodes, ["d", "e"]);
  assert.deepEqual(results[2].nodes, ["b", "c"]);
  assert.equal(j.diagnostics.length, 3);
});

Deno.test("judge() evaluates explicit rules with levels, messages and nodes", async () => {
  const p = await policy(`import "list"

rules: no_destroy: {
  message: "plans must not destroy anything"
  deny:    plan.summary.destroy > 0
  nodes: [for n in plan.nodes if n.action == "delete" {n.address}]
}

rules: few_creates: {
  level:   "advisory"
  message: "more than one node is created"
  deny:    len(nodes) > 1
  nodes: [for n in plan.nodes if n.action == "create" {n.address}]
}

rules: sorted: deny: !list.IsSorted([for n in plan.nodes {n.address}], list.Ascending)
`);
  const j = await judge([p], doc([node("a", "delete"), node("b", "create"), node("c", "create")]));
  assert.deepEqual(j.policies[0].results, [
    {
      rule: "no_destroy",
      level: "mandatory",
      passed: false,
      message: "plans must not destroy anything",
      nodes: ["a"],
      line: 3,
    },
    {
      rule: "few_creates",
      level: "advisory",
      passed: false,
      message: "more than one node is created",
      nodes: ["b", "c"],
      line: 9,
    },
    { rule: "sorted", level: "mandatory", passed: true, message: "", nodes: [], line: 16 },
  ]);
  assert.equal(j.refused, true);
  assert.deepEqual(j.diagnostics.map((d) => d.severity), ["error", "warning"]);
  assert.equal(j.diagnostics[1].summary, 'Policy "keep.cue" warns about the plan');
});

Deno.test("judge() does not refuse when only advisory rules fail", async () => {
  const p = await policy(`rules: heads_up: {
  level: "advisory"
  deny: plan.summary.add > 0
}
`);
  const j = await judge([p], doc([node("a", "create")]));
  assert.equal(j.refused, false);
  assert.equal(j.diagnostics[0].severity, "warning");
  assert.equal(j.policies[0].results[0].message, 'rule "heads_up" denies the plan');
});

Deno.test("judge() reports the rules of every policy", async () => {
  const a = await policy("summary: destroy: 0\n", "a.cue");
  const b = await policy("\nrules: r: deny: len(plan.nodes) > 0\n", "b.cue");
  const j = await judge([a, b], doc([node("x", "delete")]));
  assert.deepEqual(
    j.diagnostics.map((d) => [d.summary, d.range?.file.split("/").pop(), d.range?.line]),
    [['Policy "a.cue" refuses the plan', "a.cue", 1], [
      'Policy "b.cue" refuses the plan',
      "b.cue",
      2,
    ]],
  );
});

Deno.test("judge() mixes constraints, rules and helpers, and a rule that cannot be evaluated refuses", async () => {
  const p = await policy(`_max: 1
#Managed: {mode: "managed", ...}
let limit = 3
summary: add: <=_max
nodes: [...#Managed]
rules: big: deny: len(plan.nodes) > limit
rules: broken: deny: len([for n in plan.nodes if n.actoin == "delete" {n}]) > 0
`);
  const j = await judge([p], doc([node("a", "create"), node("b", "create")]));
  const results = j.policies[0].results;
  assert.deepEqual(results.map((r) => [r.rule, r.passed, r.line]), [
    ["summary.add", false, 4],
    ["nodes", true, 5],
    ["big", true, 6],
    ["broken", false, 7],
  ]);
  assert.match(results[3].message, /could not be evaluated: rules.broken: undefined field: actoin/);
});
