/** The naming helpers of the expression converter. */

import assert from "node:assert/strict";
import { cueLabel, freshName } from "./expr_base.ts";

Deno.test("cueLabel() quotes CUE's keywords and predeclared names, so that a converted field never hides a builtin", () => {
  assert.deepEqual(
    ["name", "for", "int", "string", "len", "_x", "a-b"].map(cueLabel),
    ["name", '"for"', '"int"', '"string"', '"len"', '"_x"', '"a-b"'],
  );
});

Deno.test("freshName() gives a variable a name that is not reserved and not taken", () => {
  assert.equal(freshName("each", new Set()), "each");
  assert.equal(freshName("string", new Set()), "string_");
  assert.equal(freshName("if", new Set(["if_"])), "if__");
  assert.equal(freshName("a-b", new Set()), "x");
});
