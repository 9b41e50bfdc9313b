/**
 * Reading a list of tokens one at a time: the moves and the tests that both
 * of pravo's CUE parsers make, the structural one (`parser.ts`, for
 * positions, declarations and references) and the formatter's
 * (`../format/parser.ts`, which builds a tree to print).
 *
 * The two read the same grammar but are not one parser: they refuse
 * different inputs with different messages (the structural parser bounds
 * nesting and operator chains, takes `a: 1,, b: 2`, and speaks of a struct
 * left open as the end of the file), and the formatter keeps every token and
 * comment where the other keeps none. What they share stands here once.
 *
 * @module
 */

import type { Token } from "./scanner.ts";

/** What a cursor needs of a token. */
export type CursorToken = Pick<Token, "kind" | "text" | "line" | "column">;

/** Whether `t` is the punctuation (or comma) `text`. */
export function isPunct(t: CursorToken, text: string): boolean {
  return (t.kind === "punct" || t.kind === "comma") && t.text === text;
}

/** The variables of a `for` clause: `for value in` or `for key, value in`. */
export interface ForVariables<T> {
  key?: T;
  comma?: T;
  value: T;
  in: T;
}

/** A position in a list of tokens that ends with an "eof" token. */
export abstract class TokenCursor<T extends CursorToken> {
  protected readonly toks: T[];
  /** The index of the current token. */
  protected at = 0;

  constructor(toks: T[]) {
    this.toks = toks;
  }

  /** Throws the parser's own syntax error at `t` (the current token by default). */
  protected abstract fail(message: string, t?: T): never;

  /** Whether a line end (an implied comma) stands right before the current token. */
  protected lineEnd(): boolean {
    return false;
  }

  protected cur(): T {
    return this.toks[this.at];
  }

  /** The token `n` ahead, or the last one (the "eof"). */
  protected peek(n = 1): T {
    return this.toks[Math.min(this.at + n, this.toks.length - 1)];
  }

  protected next(): T {
    return this.toks[this.at++];
  }

  /** Whether `t` is the punctuation (or comma) `text`. */
  protected is(text: string, t: T = this.cur()): boolean {
    return isPunct(t, text);
  }

  /** Whether `t` is the identifier `word`. */
  protected isWord(word: string, t: T = this.cur()): boolean {
    return t.kind === "ident" && t.text === word;
  }

  /** How a message names a token: `"x"`, "a new line" or "the end of the file". */
  protected describe(t: T): string {
    if (t.kind === "eof") return "the end of the file";
    if (t.kind === "comma" && t.text === "\n") return "a new line";
    return `"${t.text}"`;
  }

  /** Whether the token `n` ahead begins the `:` (or `?:`, `!:`) after a label. */
  protected labelColonAt(n: number): boolean {
    const a = this.peek(n);
    if (this.is(":", a)) return true;
    return (this.is("?", a) || this.is("!", a)) && this.is(":", this.peek(n + 1));
  }

  /** Whether the current token ends a value: a comma, a line end, a closing bracket, the end. */
  protected atValueEnd(): boolean {
    const t = this.cur();
    return t.kind === "comma" || t.kind === "eof" || this.lineEnd() || this.is("}") ||
      this.is("]") || this.is(")");
  }

  /** Whether a `let NAME =` declaration starts here. */
  protected atLet(): boolean {
    return this.isWord("let") && this.peek().kind === "ident" && this.is("=", this.peek(2));
  }

  /** Reads the variables of a `for` clause and its `in`, after the `for`. */
  protected forVariables(): ForVariables<T> {
    let key: T | undefined, comma: T | undefined;
    let value = this.next();
    if (this.is(",") && this.cur().kind === "comma") {
      comma = this.next();
      key = value;
      value = this.next();
    }
    for (const v of [key, value]) {
      if (v && v.kind !== "ident") this.fail('expected a variable name after "for"', v);
    }
    if (!this.isWord("in")) {
      this.fail(`expected "in" after the variables of "for", found ${this.describe(this.cur())}`);
    }
    return { key, comma, value, in: this.next() };
  }

  /** Fails unless the struct of a comprehension starts here, after its clauses. */
  protected comprehensionBody(): void {
    if (!this.is("{")) {
      this.fail(`expected { after the comprehension clauses, found ${this.describe(this.cur())}`);
    }
  }
}
