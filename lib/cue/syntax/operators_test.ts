import { strict as assert } from "node:assert";
import { isBinaryOperator, precedence, UNARY } from "./operators.ts";

Deno.test("precedence() orders CUE's binary operators, loosest first, and is 0 for the rest", () => {
  const ladder = [["|"], ["&"], ["||"], ["&&"], ["==", "!=", "<", "<=", ">", ">=", "=~", "!~"], [
    "+",
    "-",
  ], ["*", "/", "div", "mod", "quo", "rem"]];
  ladder.forEach((ops, i) => {
    for (const op of ops) assert.equal(precedence(op), i + 1, op);
  });
  for (
    const op of ["!", ".", ":", "=", "...", "x", "and", "constructor", "toString", "__proto__"]
  ) {
    assert.equal(precedence(op), 0, op);
  }
});

Deno.test("isBinaryOperator() knows the symbols and the four words, and no name of Object.prototype", () => {
  for (const op of ["|", "&", "+", "=~", "div", "mod", "quo", "rem"]) {
    assert.equal(isBinaryOperator(op), true, op);
  }
  for (const op of ["!", ".", "=", "constructor", "toString", "__proto__", "x"]) {
    assert.equal(isBinaryOperator(op), false, op);
  }
});

Deno.test("UNARY holds the operators that may stand before an operand", () => {
  assert.deepEqual([...UNARY].sort(), ["!", "!=", "!~", "*", "+", "-", "<", "<=", "=~", ">", ">="]);
});
