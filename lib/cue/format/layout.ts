/**
 * What `pravo fmt`'s formatter decides from the tree alone, as `cue/format`
 * does: whether a node stands on one line, how deep a label chain goes,
 * whether a declaration has doc comments, when a field's value needs a
 * line break after it, and how tightly a binary expression binds its
 * operators (`cutoff`: `1 + 2*3`).
 *
 * @module
 */

import { precedence } from "../syntax/operators.ts";
import type { RelPos } from "./tokens.ts";
import {
  type Decl,
  type Expr,
  type Field,
  firstTok,
  type ImportSpec,
  type Label,
  lastTok,
} from "./tree.ts";

export function isNewline(rel: RelPos): boolean {
  return rel === "newline" || rel === "section";
}

export function onOneLine(x: Expr & { type: "struct" }): boolean {
  if (x.elts.length === 0 && !x.lbrace) return true;
  const first = x.lbrace ?? firstTok(x.elts[0]);
  const last = x.rbrace ?? lastTok(x.elts[x.elts.length - 1]);
  return first.line === last.line;
}

export function nestDepth(f: Field): number {
  let d = 1;
  const v = f.value;
  if (v.type === "struct") {
    if (v.elts.length !== 1) d = 0;
    else if (v.elts[0].type === "field") d += nestDepth(v.elts[0]);
  }
  return d;
}

/** Comments on lines of their own before the declaration. */
export function hasDocComments(d: Decl): boolean {
  return firstTok(d).lead.length > 0;
}

export function isDefinition(l: Label): boolean {
  return !l.alias && l.expr.type === "ident" &&
    (l.expr.tok.text.startsWith("#") || l.expr.tok.text.startsWith("_#"));
}

export function specHasComments(s: ImportSpec): boolean {
  return (s.name?.lead.length ?? 0) > 0 || s.path.lead.length > 0 || s.path.trail !== undefined;
}

export function inlineField(n: Field): Field | undefined {
  const obj = n.value;
  if (obj.type !== "struct" || obj.elts.length !== 1 || obj.lbrace || n.attrs.length > 0) {
    return undefined;
  }
  const mem = obj.elts[0];
  if (mem.type !== "field" || mem.attrs.length > 0) return undefined;
  if (hasDocComments(mem)) return undefined;
  return mem;
}

export function nextNeedsFormfeed(n: Expr): boolean {
  switch (n.type) {
    case "struct":
    case "list":
      return true;
    case "lit":
      return n.tok.text.includes("\n");
    case "paren":
    case "unary":
      return nextNeedsFormfeed(n.x);
    case "binary":
      return nextNeedsFormfeed(n.x) || nextNeedsFormfeed(n.y);
    case "index":
    case "selector":
      return nextNeedsFormfeed(n.x);
    case "call":
      return n.args.some(nextNeedsFormfeed);
    default:
      return false;
  }
}

function _walkBinary(e: Expr & { type: "binary" }): [boolean, boolean, boolean, number] {
  let has6 = false, has7 = false, has8 = false, maxProblem = 0;
  const p = precedence(e.op.text);
  if (p === 6) has6 = true;
  if (p === 7) has7 = true;
  if (p === 8) has8 = true;
  const l = e.x;
  if (l.type === "binary" && precedence(l.op.text) >= p) {
    const [h6, h7, h8, mp] = _walkBinary(l);
    has6 ||= h6;
    has7 ||= h7;
    has8 ||= h8;
    if (maxProblem < mp) maxProblem = mp;
  }
  const r = e.y;
  if (r.type === "binary") {
    if (precedence(r.op.text) > p) {
      const [h6, h7, h8, mp] = _walkBinary(r);
      has6 ||= h6;
      has7 ||= h7;
      has8 ||= h8;
      if (maxProblem < mp) maxProblem = mp;
    }
  } else if (r.type === "unary") {
    const pair = e.op.text + r.op.text;
    if (pair === "/*") maxProblem = 8;
    else if ((pair === "++" || pair === "--") && maxProblem < 6) maxProblem = 6;
  }
  return [has6, has7, has8, maxProblem];
}

export function cutoff(e: Expr & { type: "binary" }, depth: number): number {
  const [has6, has7, has8, maxProblem] = _walkBinary(e);
  if (maxProblem > 0) return maxProblem + 1;
  if ((has6 || has7) && has8) {
    if (depth === 1) return 8;
    return has7 ? 7 : 6;
  }
  if (has6 && has7) return depth === 1 ? 7 : 6;
  return depth === 1 ? 8 : 6;
}

export function diffPrec(x: Expr, prec: number): number {
  return x.type === "binary" && precedence(x.op.text) === prec ? 0 : 1;
}

export function reduceDepth(depth: number): number {
  return Math.max(1, depth - 1);
}
