/**
 * The syntax tree that `pravo fmt` prints: every token with its comments and
 * where it stood relative to the one before (same line, next line, after a
 * blank line), and the declarations and expressions built from them.
 *
 * It reads tokens from `lib/cue/syntax/scanner.ts` and finds the comments in the
 * gaps between them (the scanner skips them). The structural parser in
 * `lib/cue/syntax/parser.ts` keeps no tree, so this one builds its own; it
 * evaluates nothing.
 *
 * @module
 */

import { scan, ScanError, type Token } from "../syntax/scanner.ts";

/**
 * Where a token stood relative to what came before it, as CUE's `token.RelPos`:
 * glued to it, after a blank, on the next line, or after at least one empty line.
 */
export type RelPos = "nospace" | "blank" | "newline" | "section";

/** A `//` comment. */
export interface Comment {
  text: string;
  /** Relative to what came before: the token or comment above it. */
  rel: RelPos;
  line: number;
}

/** A token of the source with its comments. */
export interface Tok {
  kind: Token["kind"];
  text: string;
  line: number;
  column: number;
  rel: RelPos;
  /** Comments on lines of their own before this token. */
  lead: Comment[];
  /** The comment at the end of this token's line, right after it. */
  trail?: Comment;
}

/** A syntax error at a position. */
export class FormatSyntaxError extends Error {
  readonly line: number;
  readonly column: number;
  constructor(message: string, line: number, column: number) {
    super(message);
    this.name = "FormatSyntaxError";
    this.line = line;
    this.column = column;
  }
}

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
  switch (n.type) {
    case "ident":
    case "lit":
    case "bottom":
    case "ellipsis":
    case "attr":
      return n.tok;
    case "struct":
      return n.lbrace ?? firstTok(n.elts[0]);
    case "list":
      return n.lbrack;
    case "paren":
      return n.lparen;
    case "unary":
      return n.op;
    case "binary":
    case "selector":
    case "index":
    case "slice":
      return firstTok(n.x);
    case "call":
      return firstTok(n.fun);
    case "alias":
      return n.ident;
    case "field":
      return n.label.alias?.ident ?? firstTok(n.label.expr);
    case "package":
    case "import":
    case "let":
    case "for":
    case "if":
      return n.kw;
    case "embed":
      return firstTok(n.x);
    case "comprehension":
      return firstTok(n.clauses[0]);
  }
}

/** Reads the tokens of `src` with their comments. */
export function tokenize(src: string): { toks: Tok[]; commas: boolean[]; tail: Comment[] } {
  let raw: Token[];
  try {
    raw = scan(src);
  } catch (e) {
    if (e instanceof ScanError) throw new FormatSyntaxError(e.message, e.line, e.column);
    throw e;
  }
  const toks: Tok[] = [];
  /** commas[i]: an implied comma (a line end) follows toks[i]. */
  const commas: boolean[] = [];
  let end = 0; // where the previous real token ended
  let line = 1;
  let tail: Comment[] = [];
  const gap = (to: number, startLine: number, first: boolean) => {
    // The text between tokens: blanks, line ends and comments.
    const comments: Comment[] = [];
    let nl = 0;
    let space = false;
    let ln = startLine;
    let i = end;
    while (i < to) {
      const c = src[i];
      if (c === "\n") {
        nl++;
        ln++;
        i++;
      } else if (c === "/" && src[i + 1] === "/") {
        let j = src.indexOf("\n", i);
        if (j < 0 || j > to) j = to;
        comments.push({
          text: src.slice(i, j).replace(/[ \t\r]+$/, ""),
          rel: relOf(nl, space || first),
          line: ln,
        });
        nl = 0;
        space = false;
        i = j;
      } else {
        space = true;
        i++;
      }
    }
    return { comments, rel: relOf(nl, space), line: ln };
  };
  for (const t of raw) {
    if (t.kind === "comma" && t.text === "\n") {
      if (commas.length) commas[commas.length - 1] = true;
      continue;
    }
    const g = gap(t.offset, line, toks.length === 0);
    const tok: Tok = {
      kind: t.kind,
      text: t.text,
      line: t.line,
      column: t.column,
      rel: g.rel,
      lead: [],
    };
    const comments = g.comments;
    const prev = toks[toks.length - 1];
    if (prev && comments.length && comments[0].rel !== "newline" && comments[0].rel !== "section") {
      prev.trail = comments.shift();
    }
    if (comments.length && t.kind === "eof") {
      tail = comments;
    } else {
      tok.lead = comments;
    }
    if (toks.length === 0 && tok.lead.length) {
      // The first comment of the file stands at its start.
      tok.lead[0] = { ...tok.lead[0], rel: "newline" };
    }
    toks.push(tok);
    commas.push(false);
    end = t.offset + t.text.length;
    line = t.line + (t.text.match(/\n/g)?.length ?? 0);
  }
  // A comma is not printed as it stands: its comments go to its neighbours.
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.kind !== "comma") continue;
    const prev = toks[i - 1];
    const next = toks[i + 1];
    if (next) next.lead = [...t.lead, ...next.lead];
    else tail = [...t.lead, ...tail];
    if (t.trail) {
      if (prev && !prev.trail) prev.trail = t.trail;
      else if (next) next.lead.unshift({ ...t.trail, rel: "newline" });
    }
    t.lead = [];
    t.trail = undefined;
  }
  return { toks, commas, tail };
}

function relOf(nl: number, space: boolean): RelPos {
  if (nl >= 2) return "section";
  if (nl === 1) return "newline";
  return space ? "blank" : "nospace";
}

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

/** The precedence of a binary operator (0: not one). */
export function precedence(op: string): number {
  return BINARY_PREC[op] ?? 0;
}

const UNARY = new Set(["!", "-", "+", "*", "<", "<=", ">", ">=", "!=", "=~", "!~"]);

/** Parses a whole file into a tree. Throws FormatSyntaxError with a position. */
export function parseSource(src: string): File {
  const { toks, commas, tail } = tokenize(src);
  const p = new Parser(toks, commas);
  return { decls: p.file(), tail };
}

class Parser {
  #toks: Tok[];
  #commas: boolean[];
  #i = 0;
  constructor(toks: Tok[], commas: boolean[]) {
    this.#toks = toks;
    this.#commas = commas;
  }
  #cur(): Tok {
    return this.#toks[this.#i];
  }
  #peek(n = 1): Tok {
    return this.#toks[Math.min(this.#i + n, this.#toks.length - 1)];
  }
  #next(): Tok {
    return this.#toks[this.#i++];
  }
  #is(text: string, t: Tok = this.#cur()): boolean {
    return (t.kind === "punct" || t.kind === "comma") && t.text === text;
  }
  /** An implied comma (line end) stands right before the current token. */
  #lineEnd(): boolean {
    return this.#i > 0 && this.#commas[this.#i - 1];
  }
  #fail(message: string, t: Tok = this.#cur()): never {
    throw new FormatSyntaxError(message, t.line, t.column);
  }
  #describe(t: Tok): string {
    return t.kind === "eof" ? "the end of the file" : `"${t.text}"`;
  }
  #expect(text: string, what: string, open?: Tok): Tok {
    if (!this.#is(text)) {
      this.#fail(
        `${what}: expected "${text}", found ${this.#describe(this.#cur())}`,
        open && this.#cur().kind === "eof" ? open : this.#cur(),
      );
    }
    return this.#next();
  }

  file(): Decl[] {
    const decls: Decl[] = [];
    if (this.#cur().kind === "ident" && this.#cur().text === "package" && !this.#isLabel()) {
      const kw = this.#next();
      const name = this.#next();
      if (name.kind !== "ident") this.#fail('expected a package name after "package"', name);
      decls.push({ type: "package", kw, name });
      this.#endDecl("eof");
    }
    while (this.#cur().kind === "ident" && this.#cur().text === "import" && !this.#isLabel()) {
      const kw = this.#next();
      if (this.#is("(")) {
        const lparen = this.#next();
        const specs: ImportSpec[] = [];
        while (!this.#is(")")) {
          if (this.#cur().kind === "eof") this.#fail("the import list has no closing )", lparen);
          specs.push(this.#importSpec());
          if (this.#is(",") && this.#cur().kind === "comma") this.#next();
          else if (!this.#lineEnd() && !this.#is(")")) {
            this.#fail(`missing ',' or new line before ${this.#describe(this.#cur())}`);
          }
        }
        const rparen = this.#next();
        decls.push({ type: "import", kw, lparen, specs, rparen });
      } else {
        decls.push({ type: "import", kw, specs: [this.#importSpec()] });
      }
      this.#endDecl("eof");
    }
    decls.push(...this.#decls("eof"));
    return decls;
  }

  #importSpec(): ImportSpec {
    let name: Tok | undefined;
    if (this.#cur().kind === "ident") name = this.#next();
    const path = this.#next();
    if (path.kind !== "string") this.#fail("expected an import path in quotes", path);
    return { name, path };
  }

  /** After a declaration: a comma, a line end, or the closing token. */
  #endDecl(end: "}" | "eof"): void {
    if (this.#cur().kind === "comma") {
      this.#next();
      return;
    }
    if (this.#lineEnd()) return;
    if (end === "}" && this.#is("}")) return;
    if (end === "eof" && this.#cur().kind === "eof") return;
    this.#fail(`missing ',' or new line before ${this.#describe(this.#cur())}`);
  }

  #decls(end: "}" | "eof", open?: Tok): Decl[] {
    const out: Decl[] = [];
    for (;;) {
      const t = this.#cur();
      if (end === "eof" && t.kind === "eof") return out;
      if (end === "}" && this.#is("}")) return out;
      if (t.kind === "eof") this.#fail("a { has no closing }", open);
      if (end === "eof" && this.#is("}")) this.#fail("unexpected }: there is no { to close");
      if (t.kind === "comma") this.#fail(`unexpected ${this.#describe(t)}`);
      out.push(this.#decl());
      this.#endDecl(end);
    }
  }

  /** A label followed by `:` (or `?:`/`!:`) starts at the current token. */
  #isLabel(): boolean {
    const a = this.#peek();
    return this.#is(":", a) ||
      ((this.#is("?", a) || this.#is("!", a)) && this.#is(":", this.#peek(2)));
  }

  #decl(): Decl {
    const t = this.#cur();
    if (t.kind === "attr") return { type: "attr", tok: this.#next() };
    if (this.#is("...")) {
      const tok = this.#next();
      const x = this.#atExprEnd() ? undefined : this.#unary();
      return { type: "ellipsis", tok, x };
    }
    if (t.kind === "ident" && !this.#isLabel()) {
      if (t.text === "let" && this.#peek().kind === "ident" && this.#is("=", this.#peek(2))) {
        const kw = this.#next();
        const ident = this.#next();
        const equal = this.#next();
        return { type: "let", kw, ident, equal, x: this.#expr() };
      }
      if (t.text === "for" || t.text === "if") return this.#comprehension();
      if (t.text === "package" || t.text === "import") {
        this.#fail(`"${t.text}" must come first in the file, before any field`);
      }
    }
    const field = this.#tryField();
    if (field) return field;
    return { type: "embed", x: this.#expr() };
  }

  #atExprEnd(): boolean {
    const t = this.#cur();
    return t.kind === "comma" || t.kind === "eof" || this.#lineEnd() || this.#is("}") ||
      this.#is("]") || this.#is(")");
  }

  #comprehension(): Comprehension {
    const clauses: Clause[] = [];
    while (this.#cur().kind === "ident" && ["for", "if", "let"].includes(this.#cur().text)) {
      const kw = this.#next();
      if (kw.text === "for") {
        let key: Tok | undefined, comma: Tok | undefined;
        let value = this.#next();
        if (this.#is(",") && this.#cur().kind === "comma") {
          comma = this.#next();
          key = value;
          value = this.#next();
        }
        for (const v of [key, value]) {
          if (v && v.kind !== "ident") this.#fail('expected a variable name after "for"', v);
        }
        if (!(this.#cur().kind === "ident" && this.#cur().text === "in")) {
          this.#fail(
            `expected "in" after the variables of "for", found ${this.#describe(this.#cur())}`,
          );
        }
        const inTok = this.#next();
        clauses.push({ type: "for", kw, key, comma, value, in: inTok, source: this.#expr() });
      } else if (kw.text === "if") {
        clauses.push({ type: "if", kw, cond: this.#expr() });
      } else {
        const ident = this.#next();
        const equal = this.#expect("=", "a let clause");
        clauses.push({ type: "let", kw, ident, equal, x: this.#expr() });
      }
    }
    if (!this.#is("{")) {
      this.#fail(
        `expected { after the comprehension clauses, found ${this.#describe(this.#cur())}`,
      );
    }
    return { type: "comprehension", clauses, value: this.#struct() };
  }

  /** `label: label?: ... value @attr`, or undefined (and nothing read) when none starts here. */
  #tryField(): Field | undefined {
    const save = this.#i;
    const label = this.#label();
    if (!label) {
      this.#i = save;
      return undefined;
    }
    let constraint: Tok | undefined;
    if (this.#is("?") || this.#is("!")) constraint = this.#next();
    if (!this.#is(":")) {
      this.#i = save;
      return undefined;
    }
    const colon = this.#next();
    // `a: b: c` nests: the value is a struct without braces holding the next field.
    const inner = this.#tryField();
    let value: Expr;
    const attrs: Tok[] = [];
    if (inner) {
      value = { type: "struct", elts: [inner] };
    } else {
      value = this.#expr();
      while (this.#cur().kind === "attr" && !this.#lineEnd()) attrs.push(this.#next());
    }
    return { type: "field", label, constraint, colon, value, attrs };
  }

  #label(): Label | undefined {
    let alias: Label["alias"];
    if (this.#cur().kind === "ident" && this.#is("=", this.#peek())) {
      alias = { ident: this.#next(), equal: this.#next() };
    }
    const t = this.#cur();
    if (t.kind === "ident") return { alias, expr: { type: "ident", tok: this.#next() } };
    if (t.kind === "string") return { alias, expr: { type: "lit", tok: this.#next() } };
    if (this.#is("[") || this.#is("(")) {
      try {
        const x = this.#primary();
        if (x.type !== "list" && x.type !== "paren") return undefined;
        return { alias, expr: x };
      } catch (e) {
        if (e instanceof FormatSyntaxError) return undefined;
        throw e;
      }
    }
    return undefined;
  }

  #expr(): Expr {
    return this.#binary(1);
  }

  #binary(minPrec: number): Expr {
    let x = this.#unary();
    for (;;) {
      const t = this.#cur();
      if (this.#lineEnd()) return x;
      const prec = (t.kind === "punct" || t.kind === "ident") ? precedence(t.text) : 0;
      if (prec < minPrec || prec === 0) return x;
      const op = this.#next();
      const y = this.#binary(prec + 1);
      x = { type: "binary", x, op, y };
    }
  }

  #unary(): Expr {
    const t = this.#cur();
    if (t.kind === "punct" && UNARY.has(t.text)) {
      const op = this.#next();
      return { type: "unary", op, x: this.#unary() };
    }
    return this.#primary();
  }

  #primary(): Expr {
    let x = this.#operand();
    for (;;) {
      if (this.#lineEnd()) return x;
      if (this.#is(".")) {
        const dot = this.#next();
        const sel = this.#next();
        if (sel.kind !== "ident" && sel.kind !== "string") {
          this.#fail('expected a field name after "."', sel);
        }
        x = { type: "selector", x, dot, sel };
      } else if (this.#is("(")) {
        const lparen = this.#next();
        const args: Expr[] = [];
        while (!this.#is(")")) {
          if (this.#cur().kind === "eof") this.#fail("a ( has no closing )", lparen);
          args.push(this.#expr());
          if (this.#cur().kind === "comma") this.#next();
          else if (!this.#is(")") && !this.#lineEnd()) {
            this.#fail(`missing ',' before ${this.#describe(this.#cur())}`);
          }
        }
        x = { type: "call", fun: x, lparen, args, rparen: this.#next() };
      } else if (this.#is("[")) {
        const lbrack = this.#next();
        let low: Expr | undefined;
        if (!this.#is(":")) low = this.#expr();
        if (this.#is(":")) {
          const colon = this.#next();
          const high = this.#is("]") ? undefined : this.#expr();
          const rbrack = this.#expect("]", "a [ has no closing ]", lbrack);
          x = { type: "slice", x, lbrack, low, colon, high, rbrack };
        } else {
          const rbrack = this.#expect("]", "a [ has no closing ]", lbrack);
          x = { type: "index", x, lbrack, index: low!, rbrack };
        }
      } else {
        return x;
      }
    }
  }

  #operand(): Expr {
    const t = this.#cur();
    if (t.kind === "ident") {
      if (this.#is("=", this.#peek()) && !this.#is("==", this.#peek())) {
        const ident = this.#next();
        const equal = this.#next();
        return { type: "alias", ident, equal, x: this.#expr() };
      }
      if (["for", "if", "let"].includes(t.text)) {
        this.#fail(`unexpected "${t.text}" in an expression`);
      }
      return { type: "ident", tok: this.#next() };
    }
    if (t.kind === "number" || t.kind === "string") return { type: "lit", tok: this.#next() };
    if (this.#is("_|_")) return { type: "bottom", tok: this.#next() };
    if (this.#is("{")) return this.#struct();
    if (this.#is("[")) return this.#list();
    if (this.#is("(")) {
      const lparen = this.#next();
      const x = this.#expr();
      this.#skipLineEnd();
      return {
        type: "paren",
        lparen,
        x,
        rparen: this.#expect(")", "a ( has no closing )", lparen),
      };
    }
    if (this.#is("...")) {
      const tok = this.#next();
      return { type: "ellipsis", tok, x: this.#atExprEnd() ? undefined : this.#unary() };
    }
    this.#fail(`expected a value, found ${this.#describe(t)}`);
  }

  #skipLineEnd(): void {
    // A line end before a closing ) or ] is not a separator.
  }

  #struct(): Expr & { type: "struct" } {
    const lbrace = this.#next();
    const elts = this.#decls("}", lbrace);
    return { type: "struct", lbrace, elts, rbrace: this.#next() };
  }

  #list(): Expr & { type: "list" } {
    const lbrack = this.#next();
    const elts: ListElt[] = [];
    for (;;) {
      if (this.#is("]")) break;
      if (this.#cur().kind === "eof") this.#fail("a [ has no closing ]", lbrack);
      const t = this.#cur();
      if (t.kind === "ident" && (t.text === "for" || t.text === "if")) {
        elts.push(this.#comprehension());
      } else {
        elts.push(this.#expr());
      }
      if (this.#cur().kind === "comma") this.#next();
      else if (!this.#is("]") && !this.#lineEnd()) {
        this.#fail(`missing ',' in the list before ${this.#describe(this.#cur())}`);
      } else if (!this.#is("]")) {
        this.#fail(`missing ',' in the list before ${this.#describe(this.#cur())}`);
      }
    }
    return { type: "list", lbrack, elts, rbrack: this.#next() };
  }
}
