/**
 * The printer beneath `pravo fmt`'s formatter, as in CUE's `cue/format`
 * (v0.4.3): the formatter walks the tree and asks for whitespace (a blank, a
 * column break, a line break, a new section, an indent); the printer decides
 * what to write from those requests and from where each token stood in the
 * source (so that the line breaks and blank lines the author chose are kept,
 * one empty line at most), places the comments, and leaves `\v`, `\f` and
 * escapes for Go's tabwriter (ported in `tabwriter.ts`), which aligns the
 * values of consecutive fields and their trailing comments.
 *
 * @module
 */

import type { Comment, RelPos, Tok } from "./tokens.ts";
import { ESCAPE } from "./tabwriter.ts";

// Whitespace requests, as in cue/format, a bit each.
/** Blanks: one; a column break (the tabwriter aligns it); none; the source's line breaks do not count. */
export const [BLANK, VTAB, NOBLANK, NOOVERRIDE] = [1 << 0, 1 << 1, 1 << 2, 1 << 3];
/** Commas: after an element; the last one, only when a line break follows; between declarations. */
export const [COMMA, TRAILCOMMA, DECLCOMMA] = [1 << 4, 1 << 5, 1 << 6];
/** Line breaks: a new line; one that ends the column block; a new section (an empty line). */
export const [NEWLINE, FORMFEED, NEWSECTION] = [1 << 7, 1 << 8, 1 << 9];
/** Indentation: one more level (at the next line break); one less; the level was taken. */
export const [INDENT, UNINDENT, INDENTED] = [1 << 10, 1 << 11, 1 << 12];
const BREAKS = NEWLINE | FORMFEED | NEWSECTION;

/** Writes tokens, comments and whitespace for the tabwriter: `output`, joined. */
export class Printer {
  readonly output: string[] = [];
  /** Pending whitespace; at the start, none: blank lines before the first token go. */
  #allowed = NOOVERRIDE;
  #indentStack: number[] = [];
  protected indent = 0;
  protected lineout = 0;
  /** What was written last: a token's text, or its kind for literals. */
  protected lastTok = "illegal";
  #spaceBefore = false;
  protected prevLbraceOnLine = false;
  #printingComment = false;
  /** Trailing comments waiting for the end of the line. */
  #pending: Comment[] = [];
  /** The token being written, whose trailing comment waits for the end of its line. */
  #owner: Tok | undefined;

  protected ws(...flags: number[]): void {
    for (const x of flags) this.#allowed |= x;
  }

  /** A token's place: its comments, then the source's line breaks unless overridden. */
  protected pos(t: Tok | undefined): void {
    if (!t) return;
    this.own(t);
    this.#rel(t.rel);
  }

  /** The token about to be written is `t`: its leading comments now, its trailing one after it. */
  protected own(t: Tok): void {
    this.lead(t);
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
  protected lead(t: Tok): void {
    const comments = t.lead;
    t.lead = [];
    for (const c of comments) this.comment(c);
  }

  protected comment(c: Comment): void {
    if (this.output.length > 0) {
      this.#allowed |= NEWLINE;
      this.#rel(c.rel === "section" ? "section" : "newline");
    }
    this.#writeWhitespace(this.#allowed);
    this.#allowed = 0;
    this.#writeString(c.text, true);
    this.lastTok = "comment";
    this.#printingComment = true;
    this.#allowed = NEWLINE;
  }

  /** A punctuation or keyword token (CUE's token.Token): blanks where it would fuse. */
  protected token(text: string): void {
    let next = 0;
    const [before, after] = _mayCombine(this.lastTok, text);
    if (before && !this.#spaceBefore) this.#allowed |= BLANK;
    if (after) next = BLANK;
    this.#write(text, false, text);
    this.#allowed = next;
  }

  /** Literal text: identifiers, strings, numbers, attributes. */
  protected literal(text: string, kind: string, escape: boolean): void {
    this.#write(text, escape, kind);
    this.#allowed = 0;
  }

  #write(text: string, escape: boolean, kind: string): void {
    this.#writeWhitespace(this.#allowed);
    this.#allowed = 0;
    this.#printingComment = false;
    this.#writeString(text, escape);
    this.lastTok = kind;
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
      this.lastTok = "comment";
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
    this.prevLbraceOnLine = false;
    this.lineout += n;
  }

  protected markUnindentLine(): void {
    const ws = this.#indentStack.pop();
    if (ws !== undefined && (ws & INDENTED)) this.indent--;
  }

  #maybeIndentLine(ws: number): void {
    if (!(ws & UNINDENT) && this.#indentStack.length > 0) {
      const last = this.#indentStack.length - 1;
      const top = this.#indentStack[last];
      if ((top & INDENTED) || !(top & INDENT)) return;
      this.#indentStack[last] |= INDENTED;
      this.indent++;
    }
  }

  #writeString(s: string, escape: boolean): void {
    if (s !== "") this.#spaceBefore = false;
    this.output.push(escape ? ESCAPE + s + ESCAPE : s);
  }

  #writeByte(ch: string, n: number): void {
    this.output.push(ch.repeat(n));
    if (ch === "\n" || ch === "\f") this.output.push("\t".repeat(this.indent));
  }

  protected matchUnindent(): void {
    this.#allowed |= UNINDENT;
  }

  /** The end of the file: one line break, and the comments still waiting. */
  protected finish(): void {
    this.#allowed = NEWLINE;
    this.#writeWhitespace(this.#allowed);
  }
}

/** Go's mayCombine: whether a blank must stand before and after a token. */
function _mayCombine(prev: string, next: string): [boolean, boolean] {
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
