/**
 * The syntax tree that `pravo fmt` prints: the declarations and expressions
 * of a file, built from tokens that keep their comments (`tokens.ts`), and
 * the first and last token of each node.
 *
 * @module
 */

import type { Comment, Tok } from "./tokens.ts";

export type Expr =
  | { type: "ident"; tok: Tok }
  | { type: "lit"; tok: Tok }
  | { type: "bottom"; tok: Tok }
  | { type: "struct"; lbrace?: Tok; elts: Decl[]; rbrace?: Tok }
  | { type: "list"; lbrack: Tok; elts: ListElt[]; rbrack: Tok }
  | { type: "paren"; lparen: Tok; x: Expr; rparen: Tok }
  | { type: "unary"; op: Tok; x: Expr }
  | { type: "binary"; x: Expr; op: Tok; y: Expr }
  | { type: "selector"; x: Expr; dot: Tok; sel: Tok }
  | { type: "index"; x: Expr; lbrack: Tok; index: Expr; rbrack: Tok }
  | {
    type: "slice";
    x: Expr;
    lbrack: Tok;
    low?: Expr;
    colon: Tok;
    high?: Expr;
    rbrack: Tok;
  }
  | { type: "call"; fun: Expr; lparen: Tok; args: Expr[]; rparen: Tok }
  | { type: "alias"; ident: Tok; equal: Tok; x: Expr }
  | { type: "ellipsis"; tok: Tok; x?: Expr };

export type ListElt = Expr | Comprehension;

export interface Comprehension {
  type: "comprehension";
  clauses: Clause[];
  value: Expr & { type: "struct" };
}

export type Clause =
  | { type: "for"; kw: Tok; key?: Tok; comma?: Tok; value: Tok; in: Tok; source: Expr }
  | { type: "if"; kw: Tok; cond: Expr }
  | { type: "let"; kw: Tok; ident: Tok; equal: Tok; x: Expr };

/** A label: an identifier, a string, `[pattern]` or `(dynamic)`, maybe with an alias. */
export interface Label {
  alias?: { ident: Tok; equal: Tok };
  expr: Expr;
}

export interface Field {
  type: "field";
  label: Label;
  /** `?` or `!` after the label. */
  constraint?: Tok;
  colon: Tok;
  value: Expr;
  attrs: Tok[];
}

export type Decl =
  | Field
  | { type: "package"; kw: Tok; name: Tok }
  | { type: "import"; kw: Tok; lparen?: Tok; specs: ImportSpec[]; rparen?: Tok }
  | { type: "let"; kw: Tok; ident: Tok; equal: Tok; x: Expr }
  | { type: "embed"; x: Expr }
  | Comprehension
  | { type: "ellipsis"; tok: Tok; x?: Expr }
  | { type: "attr"; tok: Tok };

export interface ImportSpec {
  name?: Tok;
  path: Tok;
}

export interface File {
  decls: Decl[];
  /** Comments after the last token. */
  tail: Comment[];
}

/** The first token of a node. */
export function firstTok(n: Expr | Decl | Clause): Tok {
  if ("tok" in n) return n.tok; // identifiers, literals, _|_, ..., attributes
  if ("kw" in n) return n.kw; // package, import, let, for, if
  if (n.type === "struct") return n.lbrace ?? firstTok(n.elts[0]);
  if (n.type === "field") return n.label.alias?.ident ?? firstTok(n.label.expr);
  if (n.type === "comprehension") return firstTok(n.clauses[0]);
  if (n.type === "call") return firstTok(n.fun);
  if (n.type === "list") return n.lbrack;
  if (n.type === "paren") return n.lparen;
  if (n.type === "unary") return n.op;
  if (n.type === "alias") return n.ident;
  return firstTok(n.x); // binary, selector, index, slice, embed
}

/** The last token of a node. */
export function lastTok(n: Expr | Decl | ListElt): Tok {
  switch (n.type) {
    case "ellipsis":
      return n.x ? lastTok(n.x) : n.tok;
    case "struct":
      return n.rbrace ?? lastTok(n.elts[n.elts.length - 1]);
    case "list":
    case "index":
    case "slice":
      return n.rbrack;
    case "paren":
    case "call":
      return n.rparen;
    case "binary":
      return lastTok(n.y);
    case "selector":
      return n.sel;
    case "field":
      return n.attrs.at(-1) ?? lastTok(n.value);
    case "package":
      return n.name;
    case "import":
      return n.rparen ?? n.specs[n.specs.length - 1].path;
    case "comprehension":
      return lastTok(n.value);
  }
  if ("tok" in n) return n.tok; // identifiers, literals, _|_, attributes
  return lastTok(n.x); // unary, alias, let, embed
}
