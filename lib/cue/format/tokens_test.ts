import { strict as assert } from "node:assert";
import { FormatSyntaxError, tokenize } from "./tokens.ts";

Deno.test("tokenize() gives each token where it stood and the comments before and after it", () => {
  const { toks, commas, tail } = tokenize(
    "// head\na: 1 // one\n\n\nb: [1, // c\n 2]\n// tail\n",
  );
  const brief = toks.map((t) =>
    [t.text || t.kind, t.rel, ...t.lead.map((c) => `${c.text} (${c.rel})`), t.trail?.text ?? ""]
      .join(" ").trim()
  );
  assert.deepEqual(brief, [
    "a newline // head (newline)", // the file's first comment stands at its start
    ": nospace",
    "1 blank // one",
    "b section", // after empty lines
    ": nospace",
    "[ blank",
    "1 nospace // c", // a comment after a comma goes to the token before it
    ", nospace",
    "2 newline",
    "] nospace",
    "eof newline",
  ]);
  assert.deepEqual(commas, [
    false,
    false,
    true,
    false,
    false,
    false,
    false,
    false,
    false,
    true,
    false,
  ]);
  assert.deepEqual(tail, [{ text: "// tail", rel: "newline", line: 7 }]);
});

Deno.test("tokenize() reports what the scanner cannot read as a FormatSyntaxError", () => {
  assert.throws(
    () => tokenize('a: 1\nb: "open\n'),
    (e) =>
      e instanceof FormatSyntaxError && e.name === "FormatSyntaxError" && e.line === 2 &&
      e.column === 4 && /unterminated string/.test(e.message),
  );
});
