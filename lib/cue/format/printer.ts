/**
 * Prints a syntax tree as `cue fmt` (CUE v0.4.3) does.
 *
 * The shape follows CUE's `cue/format` package: a formatter walks the tree
 * and asks for whitespace (a blank, a column break, a line break, a new
 * section, an indent), a printer decides what to write from those requests
 * and from where each token stood in the source (so that line breaks and
 * blank lines the author chose are kept, one empty line at most), and Go's
 * tabwriter, ported in `tabwriter.ts`, aligns the values of consecutive
 * fields and their trailing comments.
 *
 * @module
 */

import {
  type Clause,
  type Comment,
  type Decl,
  type Expr,
  type Field,
  type File,
  firstTok,
  type ImportSpec,
  type Label,
  type ListElt,
  precedence,
  type RelPos,
  type Tok,
} from "./syntax.ts";
import { ESCAPE, tabwrite } from "./tabwriter.ts";

// Whitespace requests, as in cue/format.
const BLANK = 1 << 0;
const VTAB = 1 << 1;
const NOBLANK = 1 << 2;
const NOOVERRIDE = 1 << 3;
const COMMA = 1 << 4;
const TRAILCOMMA = 1 << 5;
const DECLCOMMA = 1 << 6;
const NEWLINE = 1 << 7;
const FORMFEED = 1 << 8;
const NEWSECTION = 1 << 9;
const INDENT = 1 << 10;
const UNINDENT = 1 << 11;
const INDENTED = 1 << 12;
const BREAKS = NEWLINE | FORMFEED | NEWSECTION;

const LOWEST_PREC = 0;
const UNARY_PREC = 8;
const HIGHEST_PREC = 9;

type Sep = typeof NEWLINE | typeof BLANK;

/** Formats a parsed file; the result ends with one line break. */
export function printFile(file: File): string {
  const f = new Formatter();
  f.file(file);
  return tabwrite(f.output.join(""));
}

class Formatter {
  output: string[] = [];
  /** Pending whitespace; at the start, none: blank lines before the first token go. */
  #allowed = NOOVERRIDE;
  #indentStack: number[] = [];
  #indent = 0;
  #lineout = 0;
  /** What was written last: a token's text, or its kind for literals. */
  #lastTok = "illegal";
  #spaceBefore = false;
  #prevLbraceOnLine = false;
  #printingComment = false;
  /** Trailing comments waiting for the end of the line. */
  #pending: Comment[] = [];
  /** The token being written, whose trailing comment waits for the end of its line. */
  #owner: Tok | undefined;
  #stack: { nodeSep: Sep; parentSep: Sep }[] = [];
  #cur: { nodeSep: Sep; parentSep: Sep } = { nodeSep: NEWLINE, parentSep: NEWLINE };

  // ---- the printer ----

  /** Whitespace requests. */
  #ws(...flags: number[]): void {
    for (const x of flags) this.#allowed |= x;
  }

  /** A token's place: its comments, then the source's line breaks unless overridden. */
  #pos(t: Tok | undefined): void {
    if (!t) return;
    this.#own(t);
    this.#rel(t.rel);
  }

  /** The token about to be written is `t`: its leading comments now, its trailing one after it. */
  #own(t: Tok): void {
    this.#lead(t);
    this.#owner = t;
  }

  #rel(rel: RelPos): void {
    if (this.#allowed & NOOVERRIDE) return;
    let requested = this.#allowed;
    switch (rel) {
      case "nospace":
        requested &= ~BREAKS;
        break;
      case "blank":
        requested |= BLANK;
        requested &= ~BREAKS;
        break;
      case "newline":
        requested |= NEWLINE;
        break;
      case "section":
        requested |= NEWSECTION;
        break;
    }
    if (this.#printingComment) requested |= NEWLINE;
    this.#writeWhitespace(requested);
    this.#allowed = 0;
  }

  /** The comments on lines of their own before `t`, once. */
  #lead(t: Tok): void {
    const comments = t.lead;
    t.lead = [];
    for (const c of comments) this.#comment(c);
  }

  #comment(c: Comment): void {
    if (this.output.length > 0) {
      this.#allowed |= NEWLINE;
      this.#rel(c.rel === "section" ? "section" : "newline");
    }
    this.#writeWhitespace(this.#allowed);
    this.#allowed = 0;
    this.#writeString(c.text, true);
    this.#lastTok = "comment";
    this.#printingComment = true;
    this.#allowed = NEWLINE;
  }

  /** A punctuation or keyword token (CUE's token.Token): blanks where it would fuse. */
  #token(text: string): void {
    let next = 0;
    const [before, after] = mayCombine(this.#lastTok, text);
    if (before && !this.#spaceBefore) this.#allowed |= BLANK;
    if (after) next = BLANK;
    this.#write(text, false, text);
    this.#allowed = next;
  }

  /** Literal text: identifiers, strings, numbers, attributes. */
  #literal(text: string, kind: string, escape: boolean): void {
    this.#write(text, escape, kind);
    this.#allowed = 0;
  }

  #write(text: string, escape: boolean, kind: string): void {
    this.#writeWhitespace(this.#allowed);
    this.#allowed = 0;
    this.#printingComment = false;
    this.#writeString(text, escape);
    this.#lastTok = kind;
    if (this.#owner?.trail) {
      this.#pending.push(this.#owner.trail);
      this.#owner.trail = undefined;
    }
    this.#owner = undefined;
  }

  #writeWhitespace(ws: number): void {
    if (this.#pending.length && !(ws & BREAKS)) {
      // A // comment runs to the end of its line: something must end it.
      ws = (ws | NEWLINE) & ~DECLCOMMA;
    }
    if (ws & COMMA) {
      if ((ws & BREAKS) || !(ws & TRAILCOMMA)) this.#writeByte(",", 1);
    }
    if (this.#pending.length && (ws & BREAKS)) {
      for (const c of this.#pending) {
        this.#writeByte("\v", 1);
        this.#writeString(c.text, true);
      }
      this.#pending = [];
      this.#lastTok = "comment";
    }
    if (ws & INDENT) this.#indentStack.push(ws);
    if (ws & UNINDENT) this.markUnindentLine();
    if (ws & NEWSECTION) {
      this.#maybeIndentLine(ws);
      this.#writeByte("\f", 2);
      this.#incrementLine(2);
      this.#spaceBefore = true;
    } else if (ws & FORMFEED) {
      this.#maybeIndentLine(ws);
      this.#writeByte("\f", 1);
      this.#incrementLine(1);
      this.#spaceBefore = true;
    } else if (ws & NEWLINE) {
      this.#maybeIndentLine(ws);
      this.#writeByte("\n", 1);
      this.#incrementLine(1);
      this.#spaceBefore = true;
    } else if (ws & DECLCOMMA) {
      this.#writeByte(",", 1);
      this.#writeByte(" ", 1);
      this.#spaceBefore = true;
    } else if (ws & NOBLANK) {
      // nothing
    } else if (ws & VTAB) {
      this.#writeByte("\v", 1);
      this.#spaceBefore = true;
    } else if (ws & BLANK) {
      this.#writeByte(" ", 1);
      this.#spaceBefore = true;
    }
  }

  #incrementLine(n: number): void {
    this.#prevLbraceOnLine = false;
    this.#lineout += n;
  }

  markUnindentLine(): void {
    const ws = this.#indentStack.pop();
    if (ws !== undefined && (ws & INDENTED)) this.#indent--;
  }

  #maybeIndentLine(ws: number): void {
    if (!(ws & UNINDENT) && this.#indentStack.length > 0) {
      const last = this.#indentStack.length - 1;
      const top = this.#indentStack[last];
      if ((top & INDENTED) || !(top & INDENT)) return;
      this.#indentStack[last] |= INDENTED;
      this.#indent++;
    }
  }

  #writeString(s: string, escape: boolean): void {
    if (s !== "") this.#spaceBefore = false;
    this.output.push(escape ? ESCAPE + s + ESCAPE : s);
  }

  #writeByte(ch: string, n: number): void {
    this.output.push(ch.repeat(n));
    if (ch === "\n" || ch === "\f") this.output.push("\t".repeat(this.#indent));
  }

  #matchUnindent(): void {
    this.#allowed |= UNINDENT;
  }

  // ---- the formatter ----

  #before(node?: Expr | Decl | ListElt): void {
    this.#stack.push(this.#cur);
    this.#cur = { nodeSep: this.#cur.nodeSep, parentSep: this.#cur.nodeSep };
    if (
      node && node.type === "struct" && node.elts.length <= 1 && this.#cur.nodeSep !== BLANK &&
      onOneLine(node)
    ) {
      this.#cur.nodeSep = BLANK;
    }
  }

  #after(): void {
    this.#cur = this.#stack.pop()!;
  }

  #formfeed(): number {
    return this.#cur.nodeSep === BLANK ? BLANK : FORMFEED;
  }

  file(file: File): void {
    this.#walkDeclList(file.decls);
    for (const c of file.tail) this.#comment(c);
    // EOF
    this.#allowed = NEWLINE;
    this.#writeWhitespace(this.#allowed);
  }

  #walkDeclList(list: Decl[]): void {
    this.#before();
    let d = 0;
    for (let i = 0; i < list.length; i++) {
      const x = list[i];
      if (i > 0) {
        this.#ws(DECLCOMMA);
        const nd = x.type === "field" ? nestDepth(x) : 0;
        if (this.#cur.parentSep === NEWLINE && (d === 0 || nd !== d)) this.#ws(this.#formfeed());
        if (hasDocComments(x)) {
          const prev = list[i - 1];
          if (prev.type !== "field" || isDefinition(prev.label)) this.#ws(NEWSECTION);
        }
      }
      this.#decl(x);
      d = x.type === "field" ? nestDepth(x) : 0;
      const next = list[i + 1];
      if (next?.type === "field") {
        const v = next.value;
        if ((v.type === "struct" && (v.lbrace || v.elts.length !== 1)) || v.type === "list") {
          this.#ws(this.#formfeed());
          continue;
        }
      }
      this.#ws(this.#cur.parentSep);
    }
    this.#after();
  }

  #decl(decl: Decl): void {
    this.#before(decl);
    try {
      this.#declRaw(decl);
    } finally {
      this.#after();
    }
  }

  #declRaw(n: Decl): void {
    switch (n.type) {
      case "field": {
        this.#label(n.label, n.constraint);
        this.#ws(NOBLANK, NOOVERRIDE);
        this.#pos(n.colon);
        this.#token(":");
        const mem = inlineField(n);
        if (mem) {
          if (isNewline(firstTok(mem).rel)) {
            // `a:` with the next label on a line of its own stays so, indented.
            this.#ws(INDENT, FORMFEED);
            this.#decl(mem);
            this.#indent--;
          } else {
            this.#ws(BLANK, NOOVERRIDE);
            this.#decl(mem);
          }
          return;
        }
        const nextFF = nextNeedsFormfeed(n.value);
        const tab = nextFF || this.#prevLbraceOnLine ? BLANK : VTAB;
        this.#ws(tab);
        if (n.value.type === "list" || n.value.type === "struct") {
          this.#expr(n.value);
        } else {
          this.#ws(INDENT);
          this.#expr(n.value);
          this.markUnindentLine();
        }
        let space = tab;
        for (const a of n.attrs) {
          this.#ws(space);
          this.#pos(a);
          this.#literal(a.text, "attr", true);
          space = BLANK;
        }
        if (nextFF) this.#ws(FORMFEED);
        return;
      }
      case "package":
        this.#pos(n.kw);
        this.#literal("package", "string", true);
        this.#ws(BLANK);
        this.#own(n.name);
        this.#literal(n.name.text, "ident", false);
        this.#ws(NEWSECTION, NOOVERRIDE);
        return;
      case "import": {
        this.#pos(n.kw);
        this.#literal("import", "string", true);
        if (n.specs.length === 1 && !n.lparen && !specHasComments(n.specs[0])) {
          this.#ws(BLANK);
          this.#walkSpecList(n.specs);
        } else {
          this.#ws(BLANK);
          this.#pos(n.lparen);
          this.#token("(");
          this.#ws(NEWLINE, INDENT);
          this.#walkSpecList(n.specs);
          if (n.rparen) this.#lead(n.rparen);
          this.#ws(UNINDENT, NEWLINE);
          this.#pos(n.rparen);
          this.#token(")");
          this.#ws(NEWLINE);
        }
        this.#ws(NEWSECTION, NOOVERRIDE);
        return;
      }
      case "let":
        if (isNewline(n.kw.rel)) this.#ws(FORMFEED);
        this.#pos(n.kw);
        this.#token("let");
        this.#ws(BLANK, NOOVERRIDE);
        this.#identTok(n.ident);
        this.#ws(BLANK, NOOVERRIDE);
        this.#pos(n.equal);
        this.#token("=");
        this.#ws(BLANK);
        this.#expr(n.x);
        this.#ws(DECLCOMMA);
        return;
      case "embed":
        if (isNewline(firstTok(n.x).rel)) this.#ws(FORMFEED);
        this.#expr(n.x);
        this.#ws(NEWLINE);
        return;
      case "comprehension":
        if (isNewline(firstTok(n).rel)) this.#ws(FORMFEED);
        this.#walkClauseList(n.clauses, BLANK);
        this.#ws(BLANK, NOOVERRIDE);
        this.#expr(n.value);
        return;
      case "ellipsis":
        this.#ellipsis(n);
        return;
      case "attr":
        this.#pos(n.tok);
        this.#literal(n.tok.text, "attr", true);
        return;
    }
  }

  #walkSpecList(list: ImportSpec[]): void {
    for (const x of list) {
      if (x.name) {
        this.#identTok(x.name);
        this.#ws(BLANK);
      }
      this.#pos(x.path);
      this.#literal(x.path.text, "string", true);
      this.#ws(NEWLINE);
    }
  }

  #walkClauseList(list: Clause[], ws: number): void {
    list.forEach((c, i) => {
      if (i > 0) this.#ws(ws);
      this.#clause(c);
    });
  }

  #clause(n: Clause): void {
    switch (n.type) {
      case "for":
        this.#pos(n.kw);
        this.#literal("for", "string", true);
        this.#ws(BLANK, INDENT);
        if (n.key) {
          this.#identTok(n.key);
          this.#pos(n.comma);
          this.#token(",");
          this.#ws(BLANK);
        }
        this.#identTok(n.value);
        this.#ws(BLANK);
        this.#pos(n.in);
        this.#literal("in", "string", true);
        this.#ws(BLANK);
        this.#expr(n.source);
        this.markUnindentLine();
        return;
      case "if":
        this.#pos(n.kw);
        this.#literal("if", "string", true);
        this.#ws(BLANK, INDENT);
        this.#expr(n.cond);
        this.markUnindentLine();
        return;
      case "let":
        this.#pos(n.kw);
        this.#token("let");
        this.#ws(BLANK, NOOVERRIDE, INDENT);
        this.#identTok(n.ident);
        this.#ws(BLANK, NOOVERRIDE);
        this.#pos(n.equal);
        this.#token("=");
        this.#ws(BLANK);
        this.#expr(n.x);
        this.markUnindentLine();
        return;
    }
  }

  #identTok(t: Tok): void {
    this.#pos(t);
    this.#literal(t.text, "ident", false);
  }

  #label(l: Label, constraint?: Tok): void {
    if (l.alias) {
      this.#identTok(l.alias.ident);
      this.#pos(l.alias.equal);
      this.#token("=");
    }
    const x = l.expr;
    if (x.type === "ident") this.#identTok(x.tok);
    else if (x.type === "lit") {
      this.#pos(x.tok);
      this.#literal(x.tok.text, "string", true);
    } else this.#expr(x);
    if (constraint) {
      this.#own(constraint);
      this.#token(constraint.text);
    }
  }

  #ellipsis(x: { tok: Tok; x?: Expr }): void {
    this.#pos(x.tok);
    this.#token("...");
    if (x.x && !(x.x.type === "ident" && x.x.tok.text === "_")) this.#expr(x.x);
  }

  #expr(x: Expr, prec1 = LOWEST_PREC, depth = 1): void {
    this.#before(x);
    try {
      this.#exprRaw(x, prec1, depth);
    } finally {
      this.#after();
    }
  }

  #exprRaw(x: Expr, prec1: number, depth: number): void {
    switch (x.type) {
      case "bottom":
        this.#pos(x.tok);
        this.#token("_|_");
        return;
      case "alias":
        this.#identTok(x.ident);
        this.#pos(x.equal);
        this.#token("=");
        this.#expr(x.x);
        return;
      case "ident":
        this.#identTok(x.tok);
        return;
      case "binary":
        this.#binaryExpr(x, prec1, cutoff(x, depth), depth);
        return;
      case "unary":
        if (UNARY_PREC < prec1) {
          this.#token("(");
          this.#ws(NOOVERRIDE);
          this.#expr(x);
          this.#token(")");
        } else {
          this.#pos(x.op);
          this.#token(x.op.text);
          this.#ws(NOOVERRIDE);
          this.#expr(x.x, UNARY_PREC, depth);
        }
        return;
      case "lit":
        this.#pos(x.tok);
        this.#basicLit(x.tok);
        return;
      case "paren":
        if (x.x.type === "paren") {
          // Parentheses around parentheses: one pair is enough.
          this.#lead(x.lparen);
          this.#expr(x.x, LOWEST_PREC, depth);
          this.#lead(x.rparen);
        } else {
          this.#pos(x.lparen);
          this.#token("(");
          this.#expr(x.x, LOWEST_PREC, reduceDepth(depth));
          this.#pos(x.rparen);
          this.#token(")");
        }
        return;
      case "selector":
        this.#selectorExpr(x, depth);
        return;
      case "index":
        this.#expr(x.x, HIGHEST_PREC, 1);
        this.#pos(x.lbrack);
        this.#token("[");
        this.#expr(x.index, LOWEST_PREC, depth + 1);
        this.#pos(x.rbrack);
        this.#token("]");
        return;
      case "slice": {
        this.#expr(x.x, HIGHEST_PREC, 1);
        this.#pos(x.lbrack);
        this.#token("[");
        if (x.low) this.#expr(x.low, LOWEST_PREC, depth + 1);
        this.#own(x.colon);
        if (
          depth <= 1 && x.low && x.high && (x.low.type === "binary" || x.high.type === "binary")
        ) {
          this.#ws(BLANK);
          this.#token(":");
          this.#ws(BLANK);
        } else {
          this.#token(":");
        }
        if (x.high) this.#expr(x.high, LOWEST_PREC, depth + 1);
        this.#pos(x.rbrack);
        this.#token("]");
        return;
      }
      case "call": {
        if (x.args.length > 1) depth++;
        let wasIndented = false;
        if (x.fun.type === "selector") wasIndented = this.#selectorExpr(x.fun, depth);
        else this.#expr(x.fun, HIGHEST_PREC, depth);
        this.#pos(x.lparen);
        this.#token("(");
        for (const a of x.args) {
          this.#before(a);
          this.#exprRaw(a, LOWEST_PREC, depth);
          this.#after();
          this.#ws(COMMA, BLANK);
        }
        this.#ws(TRAILCOMMA, NOBLANK);
        this.#lead(x.rparen);
        this.#ws(TRAILCOMMA, NOBLANK);
        this.#pos(x.rparen);
        this.#token(")");
        if (wasIndented) this.#ws(UNINDENT);
        return;
      }
      case "struct":
        this.#struct(x);
        return;
      case "list":
        this.#list(x);
        return;
      case "ellipsis":
        this.#ellipsis(x);
        return;
    }
  }

  #struct(x: Expr & { type: "struct" }): void {
    let ws = NOBLANK;
    const ff = this.#formfeed();
    if (x.elts.length > 0 && !x.lbrace) ws |= NEWLINE | NOOVERRIDE;
    this.#pos(x.lbrace);
    this.#token("{");
    const l = this.#lineout;
    this.#ws(ws, ff, INDENT);
    this.#prevLbraceOnLine = l === this.#lineout;
    this.#walkDeclList(x.elts);
    if (x.rbrace) this.#lead(x.rbrace);
    this.#matchUnindent();
    ws = NOBLANK;
    if (this.#lineout !== l) {
      ws |= NEWLINE;
      if (this.#lastTok !== "}" && this.#lastTok !== "]") ws |= NOOVERRIDE;
    }
    this.#ws(ws);
    if (x.rbrace) this.#pos(x.rbrace);
    this.#token("}");
  }

  #list(x: Expr & { type: "list" }): void {
    let ws = NOBLANK | INDENT;
    if (x.elts.length === 0 && x.rbrack.lead.length === 0) ws |= BLANK | NOOVERRIDE;
    this.#pos(x.lbrack);
    this.#token("[");
    this.#ws(ws);
    for (const e of x.elts) {
      this.#before(e);
      if (e.type === "comprehension") {
        this.#walkClauseList(e.clauses, BLANK);
        this.#ws(BLANK, NOOVERRIDE);
        this.#expr(e.value);
      } else if (e.type === "ellipsis") {
        this.#ellipsis(e);
      } else if (e.type === "alias") {
        this.#identTok(e.ident);
        this.#pos(e.equal);
        this.#token("=");
        this.#expr(e.x);
      } else {
        this.#exprRaw(e, LOWEST_PREC, 1);
      }
      this.#ws(COMMA, BLANK);
      this.#after();
    }
    this.#ws(TRAILCOMMA, NOBLANK);
    this.#lead(x.rbrack);
    this.#matchUnindent();
    this.#ws(NOBLANK);
    this.#pos(x.rbrack);
    this.#token("]");
  }

  #basicLit(t: Tok): void {
    let data = t.text;
    if (t.kind === "string") {
      if (this.#indent < 6) data = indentTabs(data, this.#indent + 1);
      this.#literal(data, "string", true);
      return;
    }
    const isInt = /^0[xXoObB]/.test(data) || /[KMGTP]i?$/.test(data) || !/[.eE]/.test(data);
    if (isInt) {
      if (data.length > 1 && data[0] === "0" && data[1] >= "0" && data[1] <= "9") {
        data = "0o" + data.slice(1);
      }
      const p = data.indexOf(".");
      if (p >= 0 && (p + 1 >= data.length || data[p + 1] > "9")) {
        data = data.slice(0, p + 1) + "0" + data.slice(p + 1);
      }
      const e = data.indexOf("E");
      if (e !== -1 && e < data.length - 1) data = data.toLowerCase();
      this.#literal(data, "int", true);
    } else {
      const p = data.indexOf(".");
      if (p === 0) data = "0" + data;
      else if (p === data.length - 1) data += "0";
      else if (p > 0 && data[p + 1] > "9") data = data.slice(0, p + 1) + "0" + data.slice(p + 1);
      if (data.includes("E")) data = data.toLowerCase();
      this.#literal(data, "float", true);
    }
  }

  #binaryExpr(
    x: Expr & { type: "binary" },
    prec1: number,
    cut: number,
    depth: number,
  ): void {
    const prec = precedence(x.op.text);
    if (prec < prec1) {
      this.#token("(");
      this.#ws(NOOVERRIDE);
      this.#expr(x, LOWEST_PREC, reduceDepth(depth));
      this.#token(")");
      return;
    }
    let printBlank = prec < cut;
    this.#expr(x.x, prec, depth + diffPrec(x.x, prec));
    this.#ws(NOOVERRIDE);
    if (printBlank) this.#ws(BLANK);
    this.#pos(x.op);
    this.#token(x.op.text);
    if (isNewline(firstTok(x.y).rel)) {
      this.#ws(FORMFEED);
      printBlank = false;
    } else {
      this.#ws(NOOVERRIDE);
    }
    if (printBlank) this.#ws(BLANK);
    this.#expr(x.y, prec + 1, depth + 1);
  }

  /** Returns whether the selector was broken over lines (and so indented). */
  #selectorExpr(x: Expr & { type: "selector" }, depth: number): boolean {
    this.#expr(x.x, HIGHEST_PREC, depth);
    this.#own(x.dot);
    this.#token(".");
    if (isNewline(x.sel.rel)) {
      this.#ws(INDENT, FORMFEED);
      this.#selTok(x.sel);
      this.#ws(UNINDENT);
      return true;
    }
    this.#ws(NOBLANK);
    this.#selTok(x.sel);
    return false;
  }

  #selTok(t: Tok): void {
    this.#pos(t);
    if (t.kind === "string") this.#literal(t.text, "string", true);
    else this.#literal(t.text, "ident", false);
  }
}

function isNewline(rel: RelPos): boolean {
  return rel === "newline" || rel === "section";
}

function lastTok(n: Expr | Decl | ListElt): Tok {
  switch (n.type) {
    case "ident":
    case "lit":
    case "bottom":
    case "attr":
      return n.tok;
    case "ellipsis":
      return n.x ? lastTok(n.x) : n.tok;
    case "struct":
      return n.rbrace ?? lastTok(n.elts[n.elts.length - 1]);
    case "list":
      return n.rbrack;
    case "paren":
      return n.rparen;
    case "unary":
      return lastTok(n.x);
    case "binary":
      return lastTok(n.y);
    case "selector":
      return n.sel;
    case "index":
    case "slice":
      return n.rbrack;
    case "call":
      return n.rparen;
    case "alias":
    case "let":
      return lastTok(n.x);
    case "field":
      return n.attrs.length ? n.attrs[n.attrs.length - 1] : lastTok(n.value);
    case "package":
      return n.name;
    case "import":
      return n.rparen ?? n.specs[n.specs.length - 1].path;
    case "embed":
      return lastTok(n.x);
    case "comprehension":
      return lastTok(n.value);
  }
}

function onOneLine(x: Expr & { type: "struct" }): boolean {
  if (x.elts.length === 0 && !x.lbrace) return true;
  const first = x.lbrace ?? firstTok(x.elts[0]);
  const last = x.rbrace ?? lastTok(x.elts[x.elts.length - 1]);
  return first.line === last.line;
}

function nestDepth(f: Field): number {
  let d = 1;
  const v = f.value;
  if (v.type === "struct") {
    if (v.elts.length !== 1) d = 0;
    else if (v.elts[0].type === "field") d += nestDepth(v.elts[0]);
  }
  return d;
}

/** Comments on lines of their own before the declaration. */
function hasDocComments(d: Decl): boolean {
  return firstTok(d).lead.length > 0;
}

function isDefinition(l: Label): boolean {
  return !l.alias && l.expr.type === "ident" &&
    (l.expr.tok.text.startsWith("#") || l.expr.tok.text.startsWith("_#"));
}

function specHasComments(s: ImportSpec): boolean {
  return (s.name?.lead.length ?? 0) > 0 || s.path.lead.length > 0 || s.path.trail !== undefined;
}

function inlineField(n: Field): Field | undefined {
  const obj = n.value;
  if (obj.type !== "struct" || obj.elts.length !== 1 || obj.lbrace || n.attrs.length > 0) {
    return undefined;
  }
  const mem = obj.elts[0];
  if (mem.type !== "field" || mem.attrs.length > 0) return undefined;
  if (hasDocComments(mem)) return undefined;
  return mem;
}

function nextNeedsFormfeed(n: Expr): boolean {
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

function walkBinary(e: Expr & { type: "binary" }): [boolean, boolean, boolean, number] {
  let has6 = false, has7 = false, has8 = false, maxProblem = 0;
  const p = precedence(e.op.text);
  if (p === 6) has6 = true;
  if (p === 7) has7 = true;
  if (p === 8) has8 = true;
  const l = e.x;
  if (l.type === "binary" && precedence(l.op.text) >= p) {
    const [h6, h7, h8, mp] = walkBinary(l);
    has6 ||= h6;
    has7 ||= h7;
    has8 ||= h8;
    if (maxProblem < mp) maxProblem = mp;
  }
  const r = e.y;
  if (r.type === "binary") {
    if (precedence(r.op.text) > p) {
      const [h6, h7, h8, mp] = walkBinary(r);
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

function cutoff(e: Expr & { type: "binary" }, depth: number): number {
  const [has6, has7, has8, maxProblem] = walkBinary(e);
  if (maxProblem > 0) return maxProblem + 1;
  if ((has6 || has7) && has8) {
    if (depth === 1) return 8;
    return has7 ? 7 : 6;
  }
  if (has6 && has7) return depth === 1 ? 7 : 6;
  return depth === 1 ? 8 : 6;
}

function diffPrec(x: Expr, prec: number): number {
  return x.type === "binary" && precedence(x.op.text) === prec ? 0 : 1;
}

function reduceDepth(depth: number): number {
  return Math.max(1, depth - 1);
}

/** Go's mayCombine: whether a blank must stand before and after a token. */
function mayCombine(prev: string, next: string): [boolean, boolean] {
  if (next[0] >= "a" && next[0] < "z") return [prev !== "illegal", true];
  switch (prev) {
    case "quo":
    case "rem":
    case "div":
    case "mod":
      return [false, false];
    case "int":
      return [next === ".", false];
    case "+":
      return [next[0] === "+", false];
    case "-":
      return [next[0] === "-", false];
    case "/":
      return [next[0] === "*", false];
  }
  return [false, false];
}

/**
 * Re-indents a multi-line string so that its lines start with `n` tabs, as
 * CUE's `literal.IndentTabs`; its value does not change (CUE strips the
 * closing line's indentation from every line).
 */
function indentTabs(s: string, n: number): string {
  const m = /^(#*)("""|''')/.exec(s);
  if (!m) return s;
  const close = s.lastIndexOf("\n");
  if (close < 0) return s;
  const ws = /^[ \t]*/.exec(s.slice(close + 1))![0];
  const indent = "\t".repeat(n);
  if (ws === indent) return s;
  return s.split("\n" + ws).join("\n" + indent);
}
