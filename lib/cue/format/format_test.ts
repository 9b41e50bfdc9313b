import { strict as assert } from "node:assert";
import { formatSource, FormatSyntaxError } from "./mod.ts";
import { unifiedDiff } from "./diff.ts";

/** Formats `src` and checks the result, and that formatting it again changes nothing. */
function check(src: string, want: string): void {
  const got = formatSource(src);
  assert.equal(got, want);
  assert.equal(formatSource(got), got, "formatting is idempotent");
}

/** What formatSource() does, by example: [what, source, formatted]. */
const FORMATS: [string, string, string][] = [
  [
    "indents with tabs and puts a blank after the colon",
    "package x\nx: {\n    a:1\n  b: {\n c:   2\n }\n}\n",
    "package x\n\nx: {\n\ta: 1\n\tb: {\n\t\tc: 2\n\t}\n}\n",
  ],
  [
    "aligns the values and the comments of consecutive fields",
    'a: 1 // one\naaa: 22 // two\nb: {\n  x: 1\n  yyy: "y"\n}\n',
    'a:   1  // one\naaa: 22 // two\nb: {\n\tx:   1\n\tyyy: "y"\n}\n',
  ],
  [
    "aligns only fields of the same depth of label chain",
    "c: b: a: 4\nc?: bb?: aaa?: 5\nd: 6\n",
    "c: b: a:       4\nc?: bb?: aaa?: 5\nd: 6\n",
  ],
  [
    "keeps one blank line between groups and drops the rest",
    "\n\na: 1\n\n\n\nb: 2\nc: 3\n\n\n",
    "a: 1\n\nb: 2\nc: 3\n",
  ],
  [
    "keeps comments: before a field, after it, at the end of a struct",
    "// doc\na: 1 // trailing\ns: {\n  b: 2\n  // last\n}\n// end of file\n",
    "// doc\na: 1 // trailing\ns: {\n\tb: 2\n\t// last\n}\n// end of file\n",
  ],
  [
    "spaces operators by precedence as cue fmt does",
    "a: 1+2*3\nb: x&y|z\nc: >=2&<=3\nd: 3<4&&5>4\ne: a - -b\nf: s[1+2:2+4]\ng: x[a /b]\nh: a div - b\n",
    "a: 1 + 2*3\nb: x & y | z\nc: >=2 & <=3\nd: 3 < 4 && 5 > 4\ne: a - -b\nf: s[1+2 : 2+4]\ng: x[a/b]\nh: a div -b\n",
  ],
  [
    "keeps a list on one line, and gives a broken list a trailing comma",
    "a: [ 1,2, 3 ]\nb: [\n  1,\n  2\n]\nc: [1, 2, // note\n]\n",
    "a: [1, 2, 3]\nb: [\n\t1,\n\t2,\n]\nc: [1, 2, // note\n]\n",
  ],
  [
    "drops the commas that end lines in a struct, keeps those between fields on a line",
    "s: {a: 1, b: 2}\nt: {\n  a: 1,\n  b: 2,\n}\n",
    "s: {a: 1, b: 2}\nt: {\n\ta: 1\n\tb: 2\n}\n",
  ],
  [
    "writes the package clause and imports as cue fmt does",
    'package demo\nimport (\n"strings"\n  rnd "pravo.dev/providers/hashicorp/random"\n)\nimport "list"\na: 1\n',
    'package demo\n\nimport (\n\t"strings"\n\trnd "pravo.dev/providers/hashicorp/random"\n)\n\nimport "list"\n\na: 1\n',
  ],
  [
    "keeps attributes and aligns them",
    'name: string @tag(name)\nenv: *"dev" | "prod" @tag(env)\n',
    'name: string          @tag(name)\nenv:  *"dev" | "prod" @tag(env)\n',
  ],
  [
    "braces a label chain whose last field has an attribute",
    "foo: bar: string @go(-)\n",
    "foo: {\n\tbar: string @go(-)\n}\n",
  ],
  [
    "leaves string literals as they are, and re-indents multi-line ones",
    'a: "x  y\\t"\nb: #"raw \\(x)"#\nc: \'bytes\'\nd: "tab\tin"\ns: {\n  e: """\n      text\n        more\n      """\n}\n',
    'a: "x  y\\t"\nb: #"raw \\(x)"#\nc: \'bytes\'\nd: "tab\tin"\ns: {\n\te: """\n\t\ttext\n\t\t  more\n\t\t"""\n}\n',
  ],
  [
    "writes numbers as cue fmt does",
    "a: 1_000\nb: 0x1F\nc: .5\nd: 1.\ne: 1E3\nf: 2Ki\n",
    "a: 1_000\nb: 0x1F\nc: 0.5\nd: 1.0\ne: 1e3\nf: 2Ki\n",
  ],
  [
    "formats comprehensions, lets, definitions and optional fields",
    'x: {\n  let y = 1\n  #D?: int\n  _h: y\n  for k, v in {a: 1} { "\\(k)": v }\n  if true {\n  z: 1}\n}\n',
    'x: {\n\tlet y = 1\n\t#D?: int\n\t_h:  y\n\tfor k, v in {a: 1} {"\\(k)": v}\n\tif true {\n\t\tz: 1\n\t}\n}\n',
  ],
  [
    "breaks an expression over lines where the source does, indented",
    "e: a |\nb|\nc\n",
    "e: a |\n\tb |\n\tc\n",
  ],
  [
    "keeps an empty struct as written",
    "a: {}\nb: {\n}\nc: { }\n",
    "a: {}\nb: {\n}\nc: {}\n",
  ],
];

for (const [what, src, want] of FORMATS) {
  Deno.test(`formatSource() ${what}`, () => check(src, want));
}

/** Where formatSource() reports what it cannot read: [what, source, line, column]. */
const ERRORS: [string, string, number, number][] = [
  ["reports the unclosed brace where it opens", "package x\na: {\n  b: 1\n", 2, 4],
  [
    "reports a missing comma at the token that follows",
    "a: {\n\tmin: 1\n\tmax: 9 seed: 2\n}\n",
    3,
    9,
  ],
  [
    "refuses a name of Object.prototype between two operands, as validate does",
    "x: a constructor b\n",
    1,
    6,
  ],
];

for (const [what, src, line, column] of ERRORS) {
  Deno.test(`formatSource() ${what}`, () => {
    assert.throws(
      () => formatSource(src),
      (e) => e instanceof FormatSyntaxError && e.line === line && e.column === column,
    );
  });
}

Deno.test("unifiedDiff() shows the changed lines with context", () => {
  assert.equal(unifiedDiff("m.cue", "a: 1\n", "a: 1\n"), "");
  assert.equal(
    unifiedDiff("m.cue", "x: 1\na:1\nb: 2\n", "x: 1\na: 1\nb: 2\n"),
    "--- a/m.cue\n+++ b/m.cue\n@@ -1,3 +1,3 @@\n x: 1\n-a:1\n+a: 1\n b: 2\n",
  );
});
