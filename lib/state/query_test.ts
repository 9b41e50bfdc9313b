import assert from "node:assert/strict";
import type { DiagnosticsError } from "../diag/diag.ts";
import { checkExpression, evaluateQuery, limitResult, querySource } from "./query.ts";

const DOC = {
  lineage: "L",
  serial: 3,
  nodes: {
    base: { type: "random_integer", attributes: { result: 7 }, dependencies: [] },
    "net.web": { type: "local_file", attributes: { filename: "a" }, dependencies: ["base"] },
  },
};

Deno.test("checkExpression() accepts one expression, also over several lines", () => {
  for (
    const e of [
      "nodes.base",
      '[for a, n in nodes if n.type == "x" {a}]',
      '[for a, n in nodes\n  if n.type == "x" {a}]',
      "len(nodes) +\n  1",
      '"a, b: \\(serial)"',
      "nodes // a comment",
    ]
  ) {
    assert.ok(checkExpression(e).length > 0, e);
  }
});

Deno.test("checkExpression() refuses an expression that would escape its place", () => {
  for (
    const [e, why] of [
      ["a, b", /comma/],
      ["nodes\n_x: 1", /line break/],
      ["][0]\nz: [1", /closes nothing/],
      ["{", /never closed/],
      ["@attr(x)", /attribute/],
      ['import "strings"', /declaration/],
      ["a = b", /alias/],
    ] as const
  ) {
    assert.throws(
      () => checkExpression(e),
      (err: DiagnosticsError) => why.test(err.diagnostics[0].detail) && err.kind === "usage",
      e,
    );
  }
});

Deno.test("querySource() imports only the builtin packages the expression uses", () => {
  const e = "strings.ToUpper(lineage)";
  const src = querySource(DOC, e, checkExpression(e));
  assert.match(src, /^import strings "strings"\n_pravo_uses: \[strings\.ToUpper\]\n/);
  assert.doesNotMatch(src, /import list/);
  const plain = querySource(DOC, "nodes.strings.x", checkExpression("nodes.strings.x"));
  assert.doesNotMatch(plain, /^import/);
});

Deno.test("evaluateQuery() evaluates over nodes, lineage and serial", async () => {
  const cases: [string, unknown][] = [
    ["nodes.base.attributes.result", 7],
    ['nodes["net.web"].attributes.filename', "a"],
    ['[for a, n in nodes if list.Contains(n.dependencies, "base") {a}]', ["net.web"]],
    ['"\\(lineage)-\\(serial)"', "L-3"],
    ["{a: 1} & {b: serial}", { a: 1, b: 3 }],
  ];
  for (const [e, want] of cases) {
    const r = await evaluateQuery(DOC, e);
    assert.ok(r.ok, `${e}: ${JSON.stringify(r)}`);
    assert.deepEqual(r.value, want, e);
  }
  const bad = await evaluateQuery(DOC, "nodes.nope");
  assert.ok(!bad.ok);
  assert.match(bad.diagnostics[0].detail, /"nodes.nope": undefined field: nope/);
});

Deno.test("limitResult() cuts lists and structs to the limit; 0 keeps all", () => {
  assert.deepEqual(limitResult([1, 2, 3], 2), { value: [1, 2], total: 3, shown: 2 });
  assert.deepEqual(limitResult([1, 2, 3], 3), { value: [1, 2, 3] });
  assert.deepEqual(limitResult({ b: 1, a: 2, c: 3 }, 2), {
    value: { a: 2, b: 1 },
    total: 3,
    shown: 2,
  });
  assert.deepEqual(limitResult([1, 2, 3], 0), { value: [1, 2, 3] });
  assert.deepEqual(limitResult("text", 1), { value: "text" });
});
