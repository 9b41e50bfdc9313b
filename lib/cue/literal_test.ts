import assert from "node:assert/strict";
import { cueJsonMarshal, cueLabel, cueNumber, cueString, cueValue, isReserved } from "./literal.ts";
import { evaluate } from "./engine.ts";
import { formatSource } from "./format/mod.ts";

/** What CUE makes of `x: SRC` (formatted first, as pravo writes files). */
async function valueOf(src: string, imports = ""): Promise<unknown> {
  const text = formatSource(`${imports}x: ${src}\n`);
  assert.equal(formatSource(text), text, "the formatted text is stable");
  const r = await evaluate(text);
  if (!r.ok) throw new Error(`${r.message}\n${text}`);
  return JSON.parse(r.json).x;
}

Deno.test("cueLabel() quotes what is not a plain identifier, keywords and predeclared names", () => {
  assert.equal(cueLabel("bucket"), "bucket");
  assert.equal(cueLabel("Name2_x"), "Name2_x");
  for (const l of ["0", "a-b", "a b", "_hidden", "#def", "$aws", "", "é", "if", "null", "string"]) {
    assert.equal(cueLabel(l), JSON.stringify(l), l);
  }
});

Deno.test("strings come back as they were: quotes, backslashes, \\( , tabs, unicode", async () => {
  for (
    const s of [
      "",
      "plain",
      'say "hi"',
      "back\\slash",
      "not \\(interpolated)",
      "\\(x) and \\\\(y)",
      "tab\there",
      "emoji 😀 é",
      "bell\u0007 and nul\u0000",
      "cr\r\nlf",
      "line\u2028sep",
    ]
  ) {
    assert.equal(await valueOf(cueString(s)), s, JSON.stringify(s));
  }
});

Deno.test("text of several lines is written in CUE's multi-line form and comes back as it was", async () => {
  for (
    const s of [
      "a\nb",
      "a\nb\n",
      "\nleading",
      "a\n\n  indented\n\tand tabbed\n",
      'three """ quotes\nand \\(x)\n',
      'ends with a quote"\nx',
    ]
  ) {
    const lit = cueString(s, 1);
    assert.ok(lit.startsWith('"""\n'), lit);
    assert.equal(await valueOf(lit), s, JSON.stringify(s));
  }
  // With a carriage return or another control character, one line.
  assert.ok(!cueString("a\r\nb").startsWith('"""'));
});

Deno.test("numbers: integers in full, fractions as written, no literal for NaN", async () => {
  assert.equal(cueNumber(3600), "3600");
  assert.equal(cueNumber(-7), "-7");
  assert.equal(cueNumber(1e21), "1000000000000000000000");
  assert.equal(await valueOf(cueNumber(0.5)), 0.5);
  assert.equal(await valueOf(cueNumber(1.5e-7)), 1.5e-7);
  assert.throws(() => cueNumber(NaN));
  assert.throws(() => cueNumber(Infinity));
});

Deno.test("values of every shape come back as they were", async () => {
  const cases: unknown[] = [
    null,
    true,
    false,
    42,
    "x",
    [],
    {},
    ["a", "b"],
    [1, 2, 3],
    [null, "a"],
    { Name: "web", "aws:cloudformation:stack": "s", "0": "zero", "if": 1, string: "s" },
    { tags: { team: "data" }, list: [{ a: 1 }, { b: [true] }], empty: {} },
    [{ multi: "a\nb\n" }, "x\ny"],
    Array.from({ length: 30 }, (_, i) => `element-number-${i}`),
  ];
  for (const v of cases) assert.deepEqual(await valueOf(cueValue(v)), v, JSON.stringify(v));
});

Deno.test("cueJsonMarshal() writes json.Marshal only where CUE gives the same string back", async () => {
  const IMPORT = 'import "encoding/json"\n';
  const yes = [
    '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"sts:AssumeRole"}]}',
    '["a",1,true,null,{"z":0.5,"a":{}}]',
    '{"text":"line\\nbreak \\"quoted\\" \\\\ back"}',
    '{"if":1,"_x":2,"a b":3}',
  ];
  for (const s of yes) {
    const expr = cueJsonMarshal(s);
    assert.ok(expr?.startsWith("json.Marshal("), s);
    assert.equal(await valueOf(expr!, IMPORT), s, s);
  }
  const no = [
    "plain text",
    "42",
    '"a string"',
    '{"a": 1}', // not compact
    '{"b":1,"1":2}', // JavaScript would reorder the keys
    '{"html":"<b>"}', // Go escapes <
    '{"n":1e21}',
    '{"n":1.0}',
    '{"c":"\\u0001"}',
    '{"c":"\\f"}',
    '{"big":12345678901234567890}',
    '{"a":1', // not JSON
  ];
  for (const s of no) assert.equal(cueJsonMarshal(s), undefined, s);
});

Deno.test("isReserved() is true of CUE's keywords and predeclared names only", () => {
  for (const n of ["for", "null", "div", "int", "string", "len", "_"]) {
    assert.equal(isReserved(n), true, n);
  }
  for (const n of ["name", "x", "format", "Int"]) assert.equal(isReserved(n), false, n);
});
