import { strict as assert } from "node:assert";
import * as layout from "./layout.ts";
import { parseSource } from "./parser.ts";
import type { Decl, Expr, Field } from "./tree.ts";

function decls(src: string): Decl[] {
  return parseSource(src).decls;
}

function field(src: string): Field {
  const d = decls(src)[0];
  assert.ok(d.type === "field", src);
  return d;
}

function value(src: string): Expr {
  return field(src).value;
}

Deno.test("isNewline() is true on a line break and a blank line", () => {
  assert.deepEqual(
    ["nospace", "blank", "newline", "section"].map((r) => layout.isNewline(r as never)),
    [
      false,
      false,
      true,
      true,
    ],
  );
});

Deno.test("onOneLine() tells a struct written on one line from one broken over lines", () => {
  assert.equal(layout.onOneLine(value("a: {b: 1}") as Expr & { type: "struct" }), true);
  assert.equal(layout.onOneLine(value("a: {\n\tb: 1\n}") as Expr & { type: "struct" }), false);
  assert.equal(layout.onOneLine(value("a: b: 1") as Expr & { type: "struct" }), true);
});

Deno.test("nestDepth() counts the labels of a chain (a: b: c: 1 is 3), 0 for a struct of other than one field", () => {
  assert.deepEqual(
    ["a: 1", "a: b: 1", "a: b: c: 1", "a: {b: 1}", "a: {}"].map((s) => layout.nestDepth(field(s))),
    [1, 2, 3, 2, 0],
  );
});

Deno.test("hasDocComments() and specHasComments() see comments on lines of their own", () => {
  const [a, b] = decls("a: 1\n// doc\nb: 2\n");
  assert.deepEqual([layout.hasDocComments(a), layout.hasDocComments(b)], [false, true]);
  const imports = decls('import (\n\t"x"\n\t// doc\n\t"y"\n\t"z" // after\n)\n')[0];
  assert.ok(imports.type === "import");
  assert.deepEqual(imports.specs.map(layout.specHasComments), [false, true, true]);
});

Deno.test("isDefinition() is true for #D and _#D labels, not aliased or quoted ones", () => {
  const labels = ["#D: 1", "_#D: 1", "_h: 1", "a: 1", "X=#D: 1", '"#D": 1'];
  assert.deepEqual(labels.map((s) => layout.isDefinition(field(s).label)), [
    true,
    true,
    false,
    false,
    false,
    false,
  ]);
});

Deno.test("inlineField() gives the next field of a label chain that stays on the line", () => {
  assert.equal(layout.inlineField(field("a: b: 1"))?.type, "field");
  assert.equal(layout.inlineField(field("a: 1")), undefined, "no chain");
  assert.equal(layout.inlineField(field("a: {b: 1}")), undefined, "braces");
  assert.equal(layout.inlineField(field("a: b: 1 @x()")), undefined, "its field has an attribute");
  assert.equal(layout.inlineField(field("a:\n\t// doc\n\tb: 1")), undefined, "a doc comment");
});

Deno.test("nextNeedsFormfeed() is true where a value holds a struct, a list or a multi-line string", () => {
  const cases: [string, boolean][] = [
    ["a: 1", false],
    ["a: {}", true],
    ["a: []", true],
    ['a: """\n\tx\n\t"""', true],
    ["a: x & {}", true],
    ["a: f(1, [])", true],
    ["a: (b)", false],
    ["a: -x.y", false],
  ];
  for (const [src, want] of cases) assert.equal(layout.nextNeedsFormfeed(value(src)), want, src);
});

Deno.test("cutoff() says from which precedence operators get blanks around them", () => {
  const binary = (src: string) => value(src) as Expr & { type: "binary" };
  assert.equal(layout.cutoff(binary("a: 1 + 2*3"), 1), 7); // + and * mixed: only + gets blanks
  assert.equal(layout.cutoff(binary("a: 1 + 2"), 1), 8);
  assert.equal(layout.cutoff(binary("a: 1 + 2"), 2), 6);
  assert.equal(layout.cutoff(binary("a: a - -b"), 1), 7); // - before a unary -: blanks kept
  assert.equal(layout.cutoff(binary("a: a / *b"), 1), 9);
});

Deno.test("diffPrec() and reduceDepth() step the depth of a binary expression", () => {
  assert.equal(layout.diffPrec(value("a: 1 + 2"), 6), 0);
  assert.equal(layout.diffPrec(value("a: 1 * 2"), 6), 1);
  assert.equal(layout.diffPrec(value("a: 1"), 6), 1);
  assert.deepEqual([layout.reduceDepth(1), layout.reduceDepth(2), layout.reduceDepth(5)], [
    1,
    1,
    4,
  ]);
});
