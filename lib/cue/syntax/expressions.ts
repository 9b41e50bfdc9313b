/**
 * The structural parser's expressions: a value up to the `,`, new line,
 * closing bracket or attribute that ends it, with the references it makes
 * (into interpolations too), its lists, and the bounds that keep a hostile
 * file from exhausting the stack (MAX_NESTING, MAX_OPERATORS). Struct
 * literals and comprehensions are declarations: the subclasses read them.
 *
 * @module
 */

import { isBinaryOperator, UNARY } from "./operators.ts";
import { SiteReader } from "./reader.ts";
import { MAX_NESTING, type Token } from "./scanner.ts";
import { type Generator, type Ref, type Scope, scopeIn } from "./sites.ts";

/**
 * The most operators one expression may chain (`a + b + ...`). cue-wasm
 * evaluates a long chain of `+` by recursion and runs out of stack between
 * 2,000 and 3,000 terms; a longer list belongs in a list (`list.Sum`,
 * `or([...])`).
 */
export const MAX_OPERATORS = 1000;

/** What an operand step read: a prefix (a unary operator, `X=`), `...`, or a whole operand. */
type Operand = "prefix" | "ellipsis" | "value";

/** Reads expressions; what a struct literal and a comprehension are, a subclass says. */
export abstract class ExpressionReader extends SiteReader {
  /** `{ decls }` with a scope of its own (`own` when given). */
  protected abstract structLiteral(parent: Scope, own?: Scope): void;

  /** A comprehension's clauses, then the struct that `body` reads in their scope. */
  protected abstract comprehension(
    scope: Scope,
    body: (inner: Scope) => void,
    g?: Generator,
  ): void;

  /** A reader of the same file over other tokens (an interpolation's). */
  protected abstract reader(toks: Token[]): ExpressionReader;

  /**
   * An expression, up to a `,`, new line, closing bracket or attribute.
   * `own` is the scope a struct literal at the top of the value takes (the
   * field's own scope, so that its fields have the field's path).
   * With `clause`, a `{` after an operand ends it (comprehension clauses).
   */
  protected expr(scope: Scope, clause: boolean, own?: Scope): void {
    // A field's value is depth 1; each bracket inside it one more.
    if (this.depth > MAX_NESTING) {
      this.fail(
        `the value nests more than ${MAX_NESTING} levels deep here (braces, brackets, ` +
          "parentheses and interpolations, counted together): flatten it, or build it from " +
          "named parts",
      );
    }
    this.depth++;
    try {
      this.#exprAt(scope, clause, own);
    } finally {
      this.depth--;
    }
  }

  #exprAt(scope: Scope, clause: boolean, own?: Scope): void {
    let operand = true;
    let first = true;
    let operators = 0;
    for (;;) {
      const t = this.cur();
      if (t.kind === "eof" || t.kind === "comma" || t.kind === "attr") break;
      if (this.is("}") || this.is("]") || this.is(")")) break;
      if (operand) {
        const read = this.#operand(t, { scope, first, own });
        if (read === "prefix") continue;
        // `...` alone, or `...T` (a typed ellipsis: every further element is T).
        operand = read === "ellipsis" && !this.atValueEnd();
      } else if ((t.kind === "punct" || t.kind === "ident") && isBinaryOperator(t.text)) {
        if (++operators > MAX_OPERATORS) {
          this.fail(
            `the expression chains more than ${MAX_OPERATORS} operators: split it into ` +
              "named parts, or use a list (list.Sum, or([...]))",
          );
        }
        this.next();
        operand = true;
      } else if (!this.#suffix(t, scope, clause)) {
        break;
      }
      first = false;
    }
    if (operand && !clause) {
      this.fail(`expected a value, found ${this.describe(this.cur())}`);
    }
  }

  /** Reads what stands where an operand is expected, its references included. */
  #operand(t: Token, at: { scope: Scope; first: boolean; own?: Scope }): Operand {
    const { scope, first, own } = at;
    if (t.kind === "punct" && UNARY.has(t.text)) {
      this.next();
      return "prefix";
    }
    if (t.kind === "ident") {
      if ((t.text === "for" || t.text === "if" || t.text === "let") && !first) {
        this.fail(`unexpected "${t.text}" in an expression`);
      }
      this.next();
      if (first && this.is("=")) {
        // A value alias `X={...}`: the name is local; read what follows.
        this.next();
        return "prefix";
      }
      if (!["true", "false", "null"].includes(t.text)) this.#reference(t, scope);
    } else if (t.kind === "number" || this.is("_|_")) {
      this.next();
    } else if (t.kind === "string") {
      this.next();
      this.interpolations(t, scope);
    } else if (this.is("{")) {
      // Struct literals at the top of a field's value have the field's path.
      this.structLiteral(scope, own ? scopeIn(own.parent, own) : undefined);
    } else if (this.is("[")) {
      this.#list(scope);
    } else if (this.is("(")) {
      const open = this.next();
      this.expr(scope, false);
      if (!this.is(")")) this.fail("a ( has no closing )", open);
      this.next();
    } else if (this.is("...")) {
      this.next();
      return "ellipsis";
    } else {
      this.fail(`expected a value, found ${this.describe(t)}`);
    }
    return "value";
  }

  /**
   * Reads a selector, call or index after an operand; false (nothing read)
   * where a comprehension clause's expression ends.
   */
  #suffix(t: Token, scope: Scope, clause: boolean): boolean {
    if (this.is(".")) {
      this.next();
      const sel = this.next();
      if (sel.kind !== "ident" && sel.kind !== "string") {
        this.fail('expected a field name after "."', sel);
      }
    } else if (this.is("(")) {
      const open = this.next();
      this.skipNewlines();
      while (!this.is(")")) {
        if (this.cur().kind === "eof") this.fail("a ( has no closing )", open);
        this.expr(scope, false);
        this.skipCommas();
      }
      this.next();
    } else if (this.is("[")) {
      const open = this.next();
      this.expr(scope, false);
      if (this.is(":")) {
        this.next();
        this.expr(scope, false);
      }
      if (!this.is("]")) this.fail("a [ has no closing ]", open);
      this.next();
    } else if (
      clause && (this.is("{") || (t.kind === "ident" && ["for", "if", "let"].includes(t.text)))
    ) {
      return false;
    } else {
      this.fail(`missing ',' or new line before ${this.describe(t)}`);
    }
    return true;
  }

  /** The reference that starts at `t` (already read), with the selectors written after it. */
  #reference(t: Token, scope: Scope): void {
    const selectors: string[] = [];
    let j = this.at;
    while (
      this.is(".", this.toks[j]) &&
      (this.toks[j + 1].kind === "ident" || this.toks[j + 1].value !== undefined)
    ) {
      const s = this.toks[j + 1];
      selectors.push(s.kind === "ident" ? s.text : s.value!);
      j += 2;
    }
    const ref: Ref = { name: t.text, selectors, scope, line: t.line, column: t.column };
    if (this.is("[", this.toks[j])) ref.indexed = true;
    this.addRef(ref);
  }

  /** `[elements]`: each in a scope of its own, with no path; comprehensions among them. */
  #list(scope: Scope): void {
    const open = this.next(); // [
    for (;;) {
      this.skipCommas();
      if (this.is("]")) break;
      if (this.cur().kind === "eof") this.fail("a [ has no closing ]", open);
      const element = scopeIn(scope, { path: null, nonRegular: true });
      if (this.isWord("for") || this.isWord("if")) {
        this.comprehension(element, (inner) => this.structLiteral(inner));
      } else {
        this.expr(element, false, element);
      }
      const after = this.cur();
      if (after.kind === "comma" || this.is("]")) continue;
      this.fail(`missing ',' in the list before ${this.describe(after)}`, after);
    }
    this.next();
  }

  /** The references in a string's interpolations, collected apart. */
  protected interpolationRefs(t: Token, scope: Scope): Ref[] {
    const probe = this.scratchSite(t);
    this.withSite(probe, () => this.interpolations(t, scope));
    return probe.refs;
  }

  /** Reads the expressions of a string's interpolations, each over its own tokens. */
  protected interpolations(t: Token, scope: Scope): void {
    for (const inner of t.interpolations ?? []) {
      const eof: Token = { ...t, kind: "eof", text: "" };
      const sub = this.reader([...inner, eof]);
      sub.current = this.current ?? this.scratchSite(t);
      sub.taps = this.taps;
      sub.depth = this.depth;
      const target = this.current;
      sub.expr(scope, false);
      if (sub.cur().kind !== "eof") sub.fail("unexpected token in interpolation", sub.cur());
      if (!target) this.topRefs.push(...sub.current!.refs);
      this.lets.push(...sub.lets);
    }
  }
}
