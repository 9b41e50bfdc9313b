/**
 * The structural parser's comprehensions: the clauses (`for k, v in x`, `if
 * c`, `let y = e`) before a struct, the scope their variables live in, and
 * what a generator learns from them: which references its clauses read,
 * which of them it only iterates over or tests for presence or for null.
 *
 * @module
 */

import { ExpressionReader } from "./expressions.ts";
import type { Token } from "./scanner.ts";
import { bareReference, literalOfReferences, oneStructLiteral, presenceTest } from "./shapes.ts";
import { type Generator, type Ref, type Scope, scopeIn } from "./sites.ts";

/** Reads comprehensions over the expressions of its superclass. */
export abstract class ComprehensionReader extends ExpressionReader {
  /**
   * A comprehension: clauses (`for k, v in x`, `if c`, `let y = e`) then the
   * struct that `body` reads with the clause variables in scope.
   */
  protected comprehension(scope: Scope, body: (inner: Scope) => void, g?: Generator): void {
    const clauseRefs = g?.clauseRefs ?? [];
    let inner = scopeIn(scope, scope);
    while (this.isWord("for") || this.isWord("if") || this.isWord("let")) {
      const kw = this.next();
      if (kw.text === "for") inner = this.#forClause(inner, { clauseRefs, g });
      else if (kw.text === "if") this.#ifClause(inner, { clauseRefs, g });
      else inner = this.#letClause(inner, { clauseRefs, g });
      this.skipNewlines();
    }
    this.comprehensionBody();
    body(inner);
  }

  /**
   * A clause's expression, its references collected into `from`. It is a
   * value, not fields of the struct around it: a struct written out there
   * (`for k, v in {"a": a}`) declares nothing at the struct's path.
   */
  #clauseExpr(s: Scope, from: Ref[]): void {
    this.tapped(from, () => {
      this.inClause++;
      try {
        this.expr(scopeIn(s, { path: null, nonRegular: true }), true);
      } finally {
        this.inClause--;
      }
    });
  }

  /** The tokens read since `start`. */
  #since(start: number): Token[] {
    return this.toks.slice(start, this.at);
  }

  /** `for k, v in x` (after the `for`); returns the scope with its variables. */
  #forClause(inner: Scope, into: { clauseRefs: Ref[]; g?: Generator }): Scope {
    const { g } = into;
    const { key, value } = this.forVariables();
    const vars = key ? [key, value] : [value];
    const from: Ref[] = [];
    const start = this.at;
    const generatorsBefore = this.generators.length;
    this.#clauseExpr(inner, from);
    into.clauseRefs.push(...from);
    const bare = from.length === 1 && bareReference(this.#since(start));
    if (bare) g?.iterated.push(from[0]);
    // A struct written out with its labels (`for k, v in {"a": pw}`): its
    // keys are in the sources; its references are its values.
    const literal = !bare && this.generators.length === generatorsBefore &&
      oneStructLiteral(this.#since(start));
    if (literal) g?.iterated.push(...from);
    const valuesOf = literal && literalOfReferences(this.#since(start));
    const scoped = scopeIn(inner, inner);
    vars.forEach((v, i) => {
      const site = this.newSite(scoped, {
        label: v.text,
        kind: "for",
        path: null,
        tok: v,
        optional: false,
      });
      if (g) site.generator = g;
      // The keys of a struct written out are in the sources: its key
      // variable reads no value.
      if (!(literal && vars.length === 2 && i === 0)) site.refs.push(...from);
      if (bare && vars.length === 2 && i === 0) site.keyOf = from[0];
      if (valuesOf && i === vars.length - 1) site.valuesOf = true;
    });
    return scoped;
  }

  /** `if c` (after the `if`). */
  #ifClause(inner: Scope, into: { clauseRefs: Ref[]; g?: Generator }): void {
    const { g } = into;
    const from: Ref[] = [];
    const start = this.at;
    this.#clauseExpr(inner, from);
    into.clauseRefs.push(...from);
    if (g && from.length === 1 && presenceTest(this.#since(start))) {
      (g.presence ??= []).push(from[0]);
    }
    if (g && from.length === 1 && presenceTest(this.#since(start), "null")) {
      (g.nullTests ??= []).push(from[0]);
    }
  }

  /** `let y = e` (after the `let`); returns the scope with `y`. */
  #letClause(inner: Scope, into: { clauseRefs: Ref[]; g?: Generator }): Scope {
    const name = this.next();
    if (!this.is("=")) this.fail("expected = after the name in a let clause");
    this.next();
    const from: Ref[] = [];
    const start = this.at;
    this.#clauseExpr(inner, from);
    into.clauseRefs.push(...from);
    if (from.length === 1 && bareReference(this.#since(start))) into.g?.iterated.push(from[0]);
    const scoped = scopeIn(inner, inner);
    this.newSite(scoped, { label: name.text, kind: "let", path: null, tok: name, optional: false })
      .refs.push(...from);
    return scoped;
  }
}
