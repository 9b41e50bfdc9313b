import { strict as assert } from "node:assert";
import { parseSource } from "./parser.ts";
import { type Decl, type Expr, firstTok, lastTok } from "./tree.ts";

/** The first and last token of a node, as `text@column text@column`. */
function ends(n: Expr | Decl): string {
  const [a, b] = [firstTok(n), lastTok(n)];
  return `${a.text}@${a.column} ${b.text}@${b.column}`;
}

/** The file's first declaration, and the value of the field `a: ...` when it is one. */
function first(src: string): { decl: Decl; value?: Expr } {
  const decl = parseSource(src).decls[0];
  return { decl, value: decl.type === "field" ? decl.value : undefined };
}

/** [source, ends of its first declaration, ends of that field's value ("" when no field)]. */
const ENDS: [string, string, string][] = [
  ["a: b", "a@1 b@4", "b@4 b@4"],
  ["a: 1", "a@1 1@4", "1@4 1@4"],
  ["a: _|_", "a@1 _|_@4", "_|_@4 _|_@4"],
  ["a: {b: 1}", "a@1 }@9", "{@4 }@9"],
  ["a: b: c", "a@1 c@7", "b@4 c@7"], // a struct without braces
  ["a: [1, ...int]", "a@1 ]@14", "[@4 ]@14"],
  ["a: (b)", "a@1 )@6", "(@4 )@6"],
  ["a: -b", "a@1 b@5", "-@4 b@5"],
  ["a: b + c", "a@1 c@8", "b@4 c@8"],
  ["a: b.c", "a@1 c@6", "b@4 c@6"],
  ["a: b[0]", "a@1 ]@7", "b@4 ]@7"],
  ["a: b[1:2]", "a@1 ]@9", "b@4 ]@9"],
  ["a: f(x)", "a@1 )@7", "f@4 )@7"],
  ["a: X={b: 1}", "a@1 }@11", "X@4 }@11"],
  ["X=a: 1 @t(x)", "X@1 @t(x)@8", "1@6 1@6"],
  ["package p", "package@1 p@9", ""],
  ['import "x"', 'import@1 "x"@8', ""],
  ['import (\n\t"x"\n)', "import@1 )@1", ""],
  ["let x = 1", "let@1 1@9", ""],
  ["b & c", "b@1 c@5", ""],
  ["for x in y {z: 1}", "for@1 }@17", ""],
  ["if c {z: 1}", "if@1 }@11", ""],
  ["@attr(x)", "@attr(x)@1 @attr(x)@1", ""],
  ["...", "...@1 ...@1", ""],
];

Deno.test("firstTok() and lastTok() give the tokens a node begins and ends with", () => {
  for (const [src, decl, value] of ENDS) {
    const d = first(src);
    assert.equal(ends(d.decl), decl, src);
    assert.equal(d.value ? ends(d.value) : "", value, src);
  }
  const list = first("a: [1, ...int]").value as Expr & { type: "list" };
  assert.equal(ends(list.elts[1] as Expr), "...@8 int@11", "a typed ellipsis");
  const c = first("for x in y if z {}").decl;
  assert.ok(c.type === "comprehension");
  assert.deepEqual(c.clauses.map((k) => firstTok(k).text), ["for", "if"]);
});
