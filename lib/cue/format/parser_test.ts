import { strict as assert } from "node:assert";
import { FormatSyntaxError, parseSource } from "./parser.ts";

Deno.test("parseSource() reads a comprehension's clauses with every token, and a label chain as nested fields", () => {
  const [c, f] = parseSource("for k, v in x if v {}\na: b: 1\n").decls;
  assert.ok(c.type === "comprehension");
  const [forClause, ifClause] = c.clauses;
  assert.ok(forClause.type === "for" && ifClause.type === "if");
  assert.deepEqual(
    [forClause.kw, forClause.key, forClause.comma, forClause.value, forClause.in].map((t) =>
      t?.text
    ),
    ["for", "k", ",", "v", "in"],
  );
  assert.ok(f.type === "field" && f.value.type === "struct" && !f.value.lbrace);
  assert.equal(f.value.elts[0].type, "field");
  const [p] = parseSource("package: 1\n").decls;
  assert.equal(p.type, "field", "package followed by a colon is a label");
});

Deno.test("parseSource() refuses what cue fmt refuses, with where", () => {
  const cases: [string, string, number, number][] = [
    ["a: 1,, b: 2\n", 'unexpected ","', 1, 6],
    ["x: {for 1 in y {}}\n", 'expected a variable name after "for"', 1, 9],
    ["a: [1\n2]\n", `missing ',' in the list before "2"`, 2, 1],
    ["x: f(a b)\n", `missing ',' before "b"`, 1, 8],
    ["a: (1\n", 'a ( has no closing ): expected ")", found the end of the file', 1, 4],
    ["x: for\n", 'unexpected "for" in an expression', 1, 4],
    ["a: {\n", "a { has no closing }", 1, 4],
  ];
  for (const [src, message, line, column] of cases) {
    assert.throws(
      () => parseSource(src),
      (e) =>
        e instanceof FormatSyntaxError && e.message === message && e.line === line &&
        e.column === column,
      JSON.stringify(src),
    );
  }
});
