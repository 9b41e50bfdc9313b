/**
 * CUE's operators, for both of pravo's parsers (the structural one in
 * `parser.ts`, the formatter's in `../format/parser.ts`) and the printer:
 * the binary operators with their precedence, and the unary ones.
 *
 * @module
 */

/** Binary operators and their precedence, loosest first (as CUE's `token.Precedence`). */
const BINARY_PREC: Record<string, number> = {
  "|": 1,
  "&": 2,
  "||": 3,
  "&&": 4,
  "==": 5,
  "!=": 5,
  "<": 5,
  "<=": 5,
  ">": 5,
  ">=": 5,
  "=~": 5,
  "!~": 5,
  "+": 6,
  "-": 6,
  "*": 7,
  "/": 7,
  div: 7,
  mod: 7,
  quo: 7,
  rem: 7,
};

const BINARY = new Set(Object.keys(BINARY_PREC));

/** The precedence of a binary operator (0: not one, a name of `Object.prototype` included). */
export function precedence(op: string): number {
  return Object.hasOwn(BINARY_PREC, op) ? BINARY_PREC[op] : 0;
}

/** Whether `op` is a binary operator: a symbol, or one of the words `div`, `mod`, `quo`, `rem`. */
export function isBinaryOperator(op: string): boolean {
  return BINARY.has(op);
}

/** The operators that may stand before an operand. */
export const UNARY = new Set(["!", "-", "+", "*", "<", "<=", ">", ">=", "!=", "=~", "!~"]);
