/**
 * Shapes of a run of tokens that the structural parser tells apart in a
 * comprehension's clauses, because they say what a clause depends on: one
 * reference (`a.b.c`), one struct written out (`{...}`), a struct whose
 * every value is one reference (`{"a": x, b: y.z}`), a test for presence or
 * for null (`x.a != _|_`, `x.a == null`). The commas that the scanner
 * inserts at line ends do not count.
 *
 * @module
 */

import { isPunct } from "./cursor.ts";
import type { Token } from "./scanner.ts";

/** The tokens of `run` without the commas inserted at line ends. */
function _written(run: Token[]): Token[] {
  return run.filter((t) => !(t.kind === "comma" && t.text === "\n"));
}

/** True when the tokens are one reference: `a.b.c`, `a."b-c"`. */
export function bareReference(run: Token[]): boolean {
  const toks = _written(run);
  if (toks.length === 0 || toks.length % 2 === 0 || toks[0].kind !== "ident") return false;
  for (let i = 1; i < toks.length; i += 2) {
    if (!isPunct(toks[i], ".")) return false;
    if (toks[i + 1].kind !== "ident" && toks[i + 1].value === undefined) return false;
  }
  return true;
}

/** True when the tokens are one struct literal: `{...}`. */
export function oneStructLiteral(run: Token[]): boolean {
  const toks = _written(run);
  if (toks.length < 2 || !isPunct(toks[0], "{")) return false;
  let depth = 0;
  for (let i = 0; i < toks.length; i++) {
    if (isPunct(toks[i], "{")) depth++;
    else if (isPunct(toks[i], "}")) {
      depth--;
      if (depth === 0 && i !== toks.length - 1) return false;
    }
  }
  return depth === 0;
}

/**
 * True when the tokens, one struct literal, are a struct written out whose
 * every value is one reference: `{"a": x, b: y.z}`.
 */
export function literalOfReferences(run: Token[]): boolean {
  const toks = run.slice(1, -1);
  let i = 0;
  const sep = () => {
    while (i < toks.length && toks[i].kind === "comma") i++;
  };
  sep();
  while (i < toks.length) {
    // A label written out: a name, or a string without interpolation.
    if (toks[i].kind !== "ident" && toks[i].kind !== "string") return false;
    if (toks[i].interpolations?.length) return false;
    if (i + 1 >= toks.length || !isPunct(toks[i + 1], ":")) return false;
    i += 2;
    const from = i;
    while (i < toks.length && toks[i].kind !== "comma") i++;
    if (!bareReference(toks.slice(from, i))) return false;
    sep();
  }
  return true;
}

/**
 * True when the tokens are `REF != X` or `REF == X`, REF one reference and X
 * `against`: `_|_` (a test for presence, the default) or `null`.
 */
export function presenceTest(run: Token[], against = "_|_"): boolean {
  const toks = _written(run);
  const n = toks.length;
  if (n < 3 || toks[n - 1].text !== against || !["!=", "=="].includes(toks[n - 2].text)) {
    return false;
  }
  return bareReference(run.slice(0, run.indexOf(toks[n - 2])));
}
