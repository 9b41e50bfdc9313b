import assert from "node:assert/strict";
import { nodeValue, parseStrictJson, properties } from "./json_nodes.ts";

Deno.test("parseStrictJson() builds the tree JSON.parse would, with offsets", () => {
  const text = '{"a": [1, -2.5e3, "x\\n\\u00e9"], "b": {"c": null, "d": true}, "e": {}}';
  const doc = parseStrictJson(text, "f.json");
  assert.ok("root" in doc);
  assert.deepEqual(nodeValue(doc.root), JSON.parse(text));
  const [a] = properties(doc.root);
  assert.equal(
    text.slice(a.valueNode.offset, a.valueNode.offset + a.valueNode.length),
    '[1, -2.5e3, "x\\n\\u00e9"]',
  );
  assert.deepEqual(doc.at(a.keyNode), { file: "f.json", line: 1, column: 2 });
});

Deno.test("parseStrictJson() refuses what strict JSON refuses, with the line and column", () => {
  const cases: [string, string, number, number][] = [
    ['{"a": 1,}', "property name expected", 1, 9],
    ['{\n  // no comments\n  "a": 1}', "property name expected", 2, 3],
    ['{"a" 1}', "colon expected", 1, 6],
    ["[1 2]", "comma expected", 1, 4],
    ['{"a": 01}', "comma expected", 1, 8],
    ['"unterminated', "invalid string", 1, 1],
    ["{} {}", "end of file expected", 1, 4],
    ["", "value expected", 1, 1],
    ["{\n  nope", "property name expected", 2, 3],
  ];
  for (const [text, message, line, column] of cases) {
    const doc = parseStrictJson(text, "f.json");
    assert.ok(!("root" in doc), text);
    assert.deepEqual(doc, { message, pos: { file: "f.json", line, column } }, text);
  }
});
