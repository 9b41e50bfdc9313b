/**
 * The formatter's parser: reads a CUE file into the tree that `pravo fmt`
 * prints (`tree.ts`), over the tokens with their comments (`tokens.ts`). It
 * evaluates nothing. It moves over the tokens as the structural parser does
 * (`../syntax/cursor.ts`); the two differ in what they refuse and say, so
 * each keeps its own grammar (see there).
 *
 * @module
 */

import { TokenCursor } from "../syntax/cursor.ts";
import { precedence, UNARY } from "../syntax/operators.ts";
import { FormatSyntaxError, type Tok, tokenize } from "./tokens.ts";
import type {
  Clause,
  Comprehension,
  Decl,
  Expr,
  Field,
  File,
  ImportSpec,
  Label,
  ListElt,
} from "./tree.ts";

export { FormatSyntaxError };

/** Parses a whole file into a tree. Throws FormatSyntaxError with a position. */
export function parseSource(src: string): File {
  const { toks, commas, tail } = tokenize(src);
  const p = new Parser(toks, commas);
  return { decls: p.file(), tail };
}

class Parser extends TokenCursor<Tok> {
  /** `#commas[i]`: an implied comma (a line end) follows token i. */
  #commas: boolean[];
  constructor(toks: Tok[], commas: boolean[]) {
    super(toks);
    this.#commas = commas;
  }
  /** An implied comma (line end) stands right before the current token. */
  protected override lineEnd(): boolean {
    return this.at > 0 && this.#commas[this.at - 1];
  }
  protected fail(message: string, t: Tok = this.cur()): never {
    throw new FormatSyntaxError(message, t.line, t.column);
  }
  #expect(text: string, what: string, open?: Tok): Tok {
    if (!this.is(text)) {
      this.fail(
        `${what}: expected "${text}", found ${this.describe(this.cur())}`,
        open && this.cur().kind === "eof" ? open : this.cur(),
      );
    }
    return this.next();
  }

  file(): Decl[] {
    const decls: Decl[] = [];
    if (this.isWord("package") && !this.labelColonAt(1)) {
      const kw = this.next();
      const name = this.next();
      if (name.kind !== "ident") this.fail('expected a package name after "package"', name);
      decls.push({ type: "package", kw, name });
      this.#endDecl("eof");
    }
    while (this.isWord("import") && !this.labelColonAt(1)) {
      const kw = this.next();
      if (this.is("(")) {
        const lparen = this.next();
        const specs: ImportSpec[] = [];
        while (!this.is(")")) {
          if (this.cur().kind === "eof") this.fail("the import list has no closing )", lparen);
          specs.push(this.#importSpec());
          if (this.is(",") && this.cur().kind === "comma") this.next();
          else if (!this.lineEnd() && !this.is(")")) {
            this.fail(`missing ',' or new line before ${this.describe(this.cur())}`);
          }
        }
        const rparen = this.next();
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
    if (this.cur().kind === "ident") name = this.next();
    const path = this.next();
    if (path.kind !== "string") this.fail("expected an import path in quotes", path);
    return { name, path };
  }

  /** After a declaration: a comma, a line end, or the closing token. */
  #endDecl(end: "}" | "eof"): void {
    if (this.cur().kind === "comma") {
      this.next();
      return;
    }
    if (this.lineEnd()) return;
    if (end === "}" && this.is("}")) return;
    if (end === "eof" && this.cur().kind === "eof") return;
    this.fail(`missing ',' or new line before ${this.describe(this.cur())}`);
  }

  #decls(end: "}" | "eof", open?: Tok): Decl[] {
    const out: Decl[] = [];
    for (;;) {
      const t = this.cur();
      if (end === "eof" && t.kind === "eof") return out;
      if (end === "}" && this.is("}")) return out;
      if (t.kind === "eof") this.fail("a { has no closing }", open);
      if (end === "eof" && this.is("}")) this.fail("unexpected }: there is no { to close");
      if (t.kind === "comma") this.fail(`unexpected ${this.describe(t)}`);
      out.push(this.#decl());
      this.#endDecl(end);
    }
  }

  #decl(): Decl {
    const t = this.cur();
    if (t.kind === "attr") return { type: "attr", tok: this.next() };
    if (this.is("...")) {
      const tok = this.next();
      const x = this.atValueEnd() ? undefined : this.#unary();
      return { type: "ellipsis", tok, x };
    }
    if (t.kind === "ident" && !this.labelColonAt(1)) {
      if (this.atLet()) {
        const kw = this.next();
        const ident = this.next();
        const equal = this.next();
        return { type: "let", kw, ident, equal, x: this.#expr() };
      }
      if (t.text === "for" || t.text === "if") return this.#comprehension();
      if (t.text === "package" || t.text === "import") {
        this.fail(`"${t.text}" must come first in the file, before any field`);
      }
    }
    const field = this.#tryField();
    if (field) return field;
    return { type: "embed", x: this.#expr() };
  }

  #comprehension(): Comprehension {
    const clauses: Clause[] = [];
    while (this.isWord("for") || this.isWord("if") || this.isWord("let")) {
      const kw = this.next();
      if (kw.text === "for") {
        clauses.push({ type: "for", kw, ...this.forVariables(), source: this.#expr() });
      } else if (kw.text === "if") {
        clauses.push({ type: "if", kw, cond: this.#expr() });
      } else {
        const ident = this.next();
        const equal = this.#expect("=", "a let clause");
        clauses.push({ type: "let", kw, ident, equal, x: this.#expr() });
      }
    }
    this.comprehensionBody();
    return { type: "comprehension", clauses, value: this.#struct() };
  }

  /** `label: label?: ... value @attr`, or undefined (and nothing read) when none starts here. */
  #tryField(): Field | undefined {
    const save = this.at;
    const label = this.#label();
    if (!label) {
      this.at = save;
      return undefined;
    }
    let constraint: Tok | undefined;
    if (this.is("?") || this.is("!")) constraint = this.next();
    if (!this.is(":")) {
      this.at = save;
      return undefined;
    }
    const colon = this.next();
    // `a: b: c` nests: the value is a struct without braces holding the next field.
    const inner = this.#tryField();
    let value: Expr;
    const attrs: Tok[] = [];
    if (inner) {
      value = { type: "struct", elts: [inner] };
    } else {
      value = this.#expr();
      while (this.cur().kind === "attr" && !this.lineEnd()) attrs.push(this.next());
    }
    return { type: "field", label, constraint, colon, value, attrs };
  }

  #label(): Label | undefined {
    let alias: Label["alias"];
    if (this.cur().kind === "ident" && this.is("=", this.peek())) {
      alias = { ident: this.next(), equal: this.next() };
    }
    const t = this.cur();
    if (t.kind === "ident") return { alias, expr: { type: "ident", tok: this.next() } };
    if (t.kind === "string") return { alias, expr: { type: "lit", tok: this.next() } };
    if (this.is("[") || this.is("(")) {
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
      const t = this.cur();
      if (this.lineEnd()) return x;
      const prec = (t.kind === "punct" || t.kind === "ident") ? precedence(t.text) : 0;
      if (prec < minPrec || prec === 0) return x;
      const op = this.next();
      const y = this.#binary(prec + 1);
      x = { type: "binary", x, op, y };
    }
  }

  #unary(): Expr {
    const t = this.cur();
    if (t.kind === "punct" && UNARY.has(t.text)) {
      const op = this.next();
      return { type: "unary", op, x: this.#unary() };
    }
    return this.#primary();
  }

  #primary(): Expr {
    let x = this.#operand();
    for (;;) {
      if (this.lineEnd()) return x;
      if (this.is(".")) {
        const dot = this.next();
        const sel = this.next();
        if (sel.kind !== "ident" && sel.kind !== "string") {
          this.fail('expected a field name after "."', sel);
        }
        x = { type: "selector", x, dot, sel };
      } else if (this.is("(")) {
        const lparen = this.next();
        const args: Expr[] = [];
        while (!this.is(")")) {
          if (this.cur().kind === "eof") this.fail("a ( has no closing )", lparen);
          args.push(this.#expr());
          if (this.cur().kind === "comma") this.next();
          else if (!this.is(")") && !this.lineEnd()) {
            this.fail(`missing ',' before ${this.describe(this.cur())}`);
          }
        }
        x = { type: "call", fun: x, lparen, args, rparen: this.next() };
      } else if (this.is("[")) {
        const lbrack = this.next();
        let low: Expr | undefined;
        if (!this.is(":")) low = this.#expr();
        if (this.is(":")) {
          const colon = this.next();
          const high = this.is("]") ? undefined : this.#expr();
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
    const t = this.cur();
    if (t.kind === "ident") {
      if (this.is("=", this.peek()) && !this.is("==", this.peek())) {
        const ident = this.next();
        const equal = this.next();
        return { type: "alias", ident, equal, x: this.#expr() };
      }
      if (["for", "if", "let"].includes(t.text)) {
        this.fail(`unexpected "${t.text}" in an expression`);
      }
      return { type: "ident", tok: this.next() };
    }
    if (t.kind === "number" || t.kind === "string") return { type: "lit", tok: this.next() };
    if (this.is("_|_")) return { type: "bottom", tok: this.next() };
    if (this.is("{")) return this.#struct();
    if (this.is("[")) return this.#list();
    if (this.is("(")) {
      const lparen = this.next();
      const x = this.#expr();
      return {
        type: "paren",
        lparen,
        x,
        rparen: this.#expect(")", "a ( has no closing )", lparen),
      };
    }
    if (this.is("...")) {
      const tok = this.next();
      return { type: "ellipsis", tok, x: this.atValueEnd() ? undefined : this.#unary() };
    }
    this.fail(`expected a value, found ${this.describe(t)}`);
  }

  #struct(): Expr & { type: "struct" } {
    const lbrace = this.next();
    const elts = this.#decls("}", lbrace);
    return { type: "struct", lbrace, elts, rbrace: this.next() };
  }

  #list(): Expr & { type: "list" } {
    const lbrack = this.next();
    const elts: ListElt[] = [];
    for (;;) {
      if (this.is("]")) break;
      if (this.cur().kind === "eof") this.fail("a [ has no closing ]", lbrack);
      const t = this.cur();
      if (t.kind === "ident" && (t.text === "for" || t.text === "if")) {
        elts.push(this.#comprehension());
      } else {
        elts.push(this.#expr());
      }
      if (this.cur().kind === "comma") this.next();
      else if (!this.is("]")) {
        this.fail(`missing ',' in the list before ${this.describe(this.cur())}`);
      }
    }
    return { type: "list", lbrack, elts, rbrack: this.next() };
  }
}
