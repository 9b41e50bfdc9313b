/**
 * How `pravo fmt` formats expressions (as `cue/format`'s `exprRaw`): the
 * requests for whitespace around operators by precedence, around
 * selectors, calls, indexes and slices, for structs and lists, the spelling
 * of numbers and the indentation of multi-line strings, and the clauses of
 * comprehensions. Declarations, inside structs, are the subclass's.
 *
 * @module
 */

import { precedence } from "../syntax/operators.ts";
import { cutoff, diffPrec, isNewline, onOneLine, reduceDepth } from "./layout.ts";
import { formatNumber, indentTabs } from "./literals.ts";
import {
  BLANK,
  COMMA,
  FORMFEED,
  INDENT,
  NEWLINE,
  NOBLANK,
  NOOVERRIDE,
  Printer,
  TRAILCOMMA,
  UNINDENT,
} from "./printer.ts";
import type { Tok } from "./tokens.ts";
import {
  type Clause,
  type Comprehension,
  type Decl,
  type Expr,
  firstTok,
  type ListElt,
} from "./tree.ts";

const LOWEST_PREC = 0;
const UNARY_PREC = 8;
const HIGHEST_PREC = 9;

/** What separates nodes: a line break or a blank. */
type Sep = typeof NEWLINE | typeof BLANK;

/** Formats expressions onto its printer; a subclass says how a struct's declarations go. */
export abstract class ExprFormatter extends Printer {
  #stack: { nodeSep: Sep; parentSep: Sep }[] = [];
  /** The separators of the node being formatted and of its parent. */
  protected sep: { nodeSep: Sep; parentSep: Sep } = { nodeSep: NEWLINE, parentSep: NEWLINE };

  /** The declarations of a struct (or a file), one a line unless they stand on one. */
  protected abstract walkDeclList(list: Decl[]): void;

  protected before(node?: Expr | Decl | ListElt): void {
    this.#stack.push(this.sep);
    this.sep = { nodeSep: this.sep.nodeSep, parentSep: this.sep.nodeSep };
    if (
      node && node.type === "struct" && node.elts.length <= 1 && this.sep.nodeSep !== BLANK &&
      onOneLine(node)
    ) {
      this.sep.nodeSep = BLANK;
    }
  }

  protected after(): void {
    this.sep = this.#stack.pop()!;
  }

  protected formfeed(): number {
    return this.sep.nodeSep === BLANK ? BLANK : FORMFEED;
  }

  /** A comprehension: its clauses, a blank between each, and its struct. */
  protected comprehension(n: Comprehension): void {
    n.clauses.forEach((c, i) => {
      if (i > 0) this.ws(BLANK);
      this.#clause(c);
    });
    this.ws(BLANK, NOOVERRIDE);
    this.expr(n.value);
  }

  #clause(n: Clause): void {
    switch (n.type) {
      case "for":
        this.pos(n.kw);
        this.literal("for", "string", true);
        this.ws(BLANK, INDENT);
        if (n.key) {
          this.identTok(n.key);
          this.pos(n.comma);
          this.token(",");
          this.ws(BLANK);
        }
        this.identTok(n.value);
        this.ws(BLANK);
        this.pos(n.in);
        this.literal("in", "string", true);
        this.ws(BLANK);
        this.expr(n.source);
        this.markUnindentLine();
        return;
      case "if":
        this.pos(n.kw);
        this.literal("if", "string", true);
        this.ws(BLANK, INDENT);
        this.expr(n.cond);
        this.markUnindentLine();
        return;
      case "let":
        this.letBinding(n, INDENT);
        this.markUnindentLine();
        return;
    }
  }

  /** `let name = x`, a declaration or a clause; `ws` is requested after the keyword too. */
  protected letBinding(n: { kw: Tok; ident: Tok; equal: Tok; x: Expr }, ws = 0): void {
    this.pos(n.kw);
    this.token("let");
    this.ws(BLANK, NOOVERRIDE, ws);
    this.identTok(n.ident);
    this.ws(BLANK, NOOVERRIDE);
    this.pos(n.equal);
    this.token("=");
    this.ws(BLANK);
    this.expr(n.x);
  }

  protected identTok(t: Tok): void {
    this.pos(t);
    this.literal(t.text, "ident", false);
  }

  protected ellipsis(x: { tok: Tok; x?: Expr }): void {
    this.pos(x.tok);
    this.token("...");
    if (x.x && !(x.x.type === "ident" && x.x.tok.text === "_")) this.expr(x.x);
  }

  protected expr(x: Expr, prec1 = LOWEST_PREC, depth = 1): void {
    this.before(x);
    try {
      this.#exprRaw(x, prec1, depth);
    } finally {
      this.after();
    }
  }

  #exprRaw(x: Expr, prec1: number, depth: number): void {
    switch (x.type) {
      case "bottom":
        this.pos(x.tok);
        return this.token("_|_");
      case "alias":
        this.identTok(x.ident);
        this.pos(x.equal);
        this.token("=");
        return this.expr(x.x);
      case "ident":
        return this.identTok(x.tok);
      case "lit":
        this.pos(x.tok);
        return this.#basicLit(x.tok);
      case "binary":
        return this.#binaryExpr(x, prec1, depth);
      case "unary":
        return this.#unaryExpr(x, prec1, depth);
      case "paren":
        return this.#parenExpr(x, depth);
      case "selector":
        this.#selectorExpr(x, depth);
        return;
      case "index":
        this.expr(x.x, HIGHEST_PREC, 1);
        this.pos(x.lbrack);
        this.token("[");
        this.expr(x.index, LOWEST_PREC, depth + 1);
        this.pos(x.rbrack);
        return this.token("]");
      case "slice":
        return this.#sliceExpr(x, depth);
      case "call":
        return this.#callExpr(x, depth);
      case "struct":
        return this.#struct(x);
      case "list":
        return this.#list(x);
      case "ellipsis":
        return this.ellipsis(x);
    }
  }

  /** `(x)`: what binds more loosely than its place wants. */
  #parenthesized(x: Expr, depth = 1): void {
    this.token("(");
    this.ws(NOOVERRIDE);
    this.expr(x, LOWEST_PREC, depth);
    this.token(")");
  }

  #unaryExpr(x: Expr & { type: "unary" }, prec1: number, depth: number): void {
    if (UNARY_PREC < prec1) return this.#parenthesized(x);
    this.pos(x.op);
    this.token(x.op.text);
    this.ws(NOOVERRIDE);
    this.expr(x.x, UNARY_PREC, depth);
  }

  #parenExpr(x: Expr & { type: "paren" }, depth: number): void {
    if (x.x.type === "paren") {
      // Parentheses around parentheses: one pair is enough.
      this.lead(x.lparen);
      this.expr(x.x, LOWEST_PREC, depth);
      this.lead(x.rparen);
    } else {
      this.pos(x.lparen);
      this.token("(");
      this.expr(x.x, LOWEST_PREC, reduceDepth(depth));
      this.pos(x.rparen);
      this.token(")");
    }
  }

  /** `s[low:high]`: blanks around the colon where a bound is a binary expression. */
  #sliceExpr(x: Expr & { type: "slice" }, depth: number): void {
    this.expr(x.x, HIGHEST_PREC, 1);
    this.pos(x.lbrack);
    this.token("[");
    if (x.low) this.expr(x.low, LOWEST_PREC, depth + 1);
    this.own(x.colon);
    if (
      depth <= 1 && x.low && x.high && (x.low.type === "binary" || x.high.type === "binary")
    ) {
      this.ws(BLANK);
      this.token(":");
      this.ws(BLANK);
    } else {
      this.token(":");
    }
    if (x.high) this.expr(x.high, LOWEST_PREC, depth + 1);
    this.pos(x.rbrack);
    this.token("]");
  }

  #callExpr(x: Expr & { type: "call" }, depth: number): void {
    if (x.args.length > 1) depth++;
    let wasIndented = false;
    if (x.fun.type === "selector") wasIndented = this.#selectorExpr(x.fun, depth);
    else this.expr(x.fun, HIGHEST_PREC, depth);
    this.pos(x.lparen);
    this.token("(");
    for (const a of x.args) {
      this.before(a);
      this.#exprRaw(a, LOWEST_PREC, depth);
      this.after();
      this.ws(COMMA, BLANK);
    }
    this.ws(TRAILCOMMA, NOBLANK);
    this.lead(x.rparen);
    this.ws(TRAILCOMMA, NOBLANK);
    this.pos(x.rparen);
    this.token(")");
    if (wasIndented) this.ws(UNINDENT);
  }

  #struct(x: Expr & { type: "struct" }): void {
    let ws = NOBLANK;
    const ff = this.formfeed();
    if (x.elts.length > 0 && !x.lbrace) ws |= NEWLINE | NOOVERRIDE;
    this.pos(x.lbrace);
    this.token("{");
    const l = this.lineout;
    this.ws(ws, ff, INDENT);
    this.prevLbraceOnLine = l === this.lineout;
    this.walkDeclList(x.elts);
    if (x.rbrace) this.lead(x.rbrace);
    this.matchUnindent();
    ws = NOBLANK;
    if (this.lineout !== l) {
      ws |= NEWLINE;
      if (this.lastTok !== "}" && this.lastTok !== "]") ws |= NOOVERRIDE;
    }
    this.ws(ws);
    if (x.rbrace) this.pos(x.rbrace);
    this.token("}");
  }

  #list(x: Expr & { type: "list" }): void {
    let ws = NOBLANK | INDENT;
    if (x.elts.length === 0 && x.rbrack.lead.length === 0) ws |= BLANK | NOOVERRIDE;
    this.pos(x.lbrack);
    this.token("[");
    this.ws(ws);
    for (const e of x.elts) {
      this.before(e);
      if (e.type === "comprehension") this.comprehension(e);
      else this.#exprRaw(e, LOWEST_PREC, 1);
      this.ws(COMMA, BLANK);
      this.after();
    }
    this.ws(TRAILCOMMA, NOBLANK);
    this.lead(x.rbrack);
    this.matchUnindent();
    this.ws(NOBLANK);
    this.pos(x.rbrack);
    this.token("]");
  }

  #basicLit(t: Tok): void {
    if (t.kind === "string") {
      const data = this.indent < 6 ? indentTabs(t.text, this.indent + 1) : t.text;
      this.literal(data, "string", true);
      return;
    }
    const n = formatNumber(t.text);
    this.literal(n.text, n.kind, true);
  }

  /** `x op y`, with blanks around `op` where it binds more loosely than the cutoff. */
  #binaryExpr(x: Expr & { type: "binary" }, prec1: number, depth: number): void {
    const cut = cutoff(x, depth);
    const prec = precedence(x.op.text);
    if (prec < prec1) return this.#parenthesized(x, reduceDepth(depth));
    let printBlank = prec < cut;
    this.expr(x.x, prec, depth + diffPrec(x.x, prec));
    this.ws(NOOVERRIDE);
    if (printBlank) this.ws(BLANK);
    this.pos(x.op);
    this.token(x.op.text);
    if (isNewline(firstTok(x.y).rel)) {
      this.ws(FORMFEED);
      printBlank = false;
    } else {
      this.ws(NOOVERRIDE);
    }
    if (printBlank) this.ws(BLANK);
    this.expr(x.y, prec + 1, depth + 1);
  }

  /** Returns whether the selector was broken over lines (and so indented). */
  #selectorExpr(x: Expr & { type: "selector" }, depth: number): boolean {
    this.expr(x.x, HIGHEST_PREC, depth);
    this.own(x.dot);
    this.token(".");
    if (isNewline(x.sel.rel)) {
      this.ws(INDENT, FORMFEED);
      this.#selTok(x.sel);
      this.ws(UNINDENT);
      return true;
    }
    this.ws(NOBLANK);
    this.#selTok(x.sel);
    return false;
  }

  #selTok(t: Tok): void {
    this.pos(t);
    if (t.kind === "string") this.literal(t.text, "string", true);
    else this.literal(t.text, "ident", false);
  }
}
