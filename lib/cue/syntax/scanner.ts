/**
 * A scanner for CUE source: tokens with positions, knowing strings (with
 * interpolations), raw strings, multi-line strings, comments and attributes.
 * It inserts commas at line ends as CUE's own scanner does.
 *
 * cue-wasm reports errors without positions; this scanner and the parser on
 * top of it are where pravo's positions come from.
 *
 * @module
 */

export type TokenKind =
  | "ident"
  | "number"
  | "string"
  | "punct"
  | "attr"
  | "comma"
  | "eof";

export interface Token {
  kind: TokenKind;
  /** The source text of the token (for "comma" inserted at a newline: "\n"). */
  text: string;
  /** Offset in the file. */
  offset: number;
  line: number;
  column: number;
  /** For strings: the tokens of each interpolation `\(...)`. */
  interpolations?: Token[][];
  /** For strings: the value when it has no interpolation. */
  value?: string;
}

/**
 * How deep a value may nest: braces, brackets, parentheses and string
 * interpolations, counted together. The parser (and the walks over values
 * after it) recurse once per level; the bound keeps them far from the end of
 * the stack, with a diagnostic where it is passed. Real configurations nest
 * a few levels.
 */
export const MAX_NESTING = 100;

/** An error at a line and column of a CUE source: the base of the syntax errors. */
export class SourceError extends Error {
  readonly line: number;
  readonly column: number;
  constructor(name: string, message: string, at: { line: number; column: number }) {
    super(message);
    this.name = name;
    this.line = at.line;
    this.column = at.column;
  }
}

/** A syntax error found while scanning, with its position. */
export class ScanError extends SourceError {
  constructor(message: string, line: number, column: number) {
    super("ScanError", message, { line, column });
  }
}

/** Punctuation, longest first where one begins another. */
const PUNCT = "... _|_ == != <= >= =~ !~ && || { } [ ] ( ) , : ? ! . & | + - * / < > =".split(" ");

const isIdentStart = (c: string) => /[A-Za-z_$#]/.test(c);
const isIdentPart = (c: string) => /[A-Za-z0-9_$#]/.test(c);

/** Tokens after which a newline ends the declaration (CUE's comma insertion). */
function endsLine(t: Token | undefined): boolean {
  if (!t) return false;
  if (t.kind === "ident" || t.kind === "number" || t.kind === "string" || t.kind === "attr") {
    return true;
  }
  return t.kind === "punct" && [")", "]", "}", "_|_", "..."].includes(t.text);
}

/** Scans a whole file. Throws ScanError on an unterminated string or a stray character. */
export function scan(src: string): Token[] {
  return new Scanner(src, 0, 1, 1, 0).run(undefined);
}

class Scanner {
  #src: string;
  #i: number;
  #line: number;
  #col: number;
  /** How many interpolations this one is inside. */
  #depth: number;
  constructor(src: string, offset: number, line: number, column: number, depth: number) {
    this.#src = src;
    this.#i = offset;
    this.#line = line;
    this.#col = column;
    this.#depth = depth;
  }

  #advance(n = 1): void {
    for (let k = 0; k < n; k++) {
      if (this.#src[this.#i] === "\n") {
        this.#line++;
        this.#col = 1;
      } else {
        this.#col++;
      }
      this.#i++;
    }
  }

  /**
   * Scans tokens until the end of input, or, inside an interpolation, until
   * the `)` that closes it (returned tokens exclude it).
   */
  run(closeParen: { depth: number } | undefined): Token[] {
    const out: Token[] = [];
    const src = this.#src;
    let parens = 0;
    while (this.#i < src.length) {
      const c = src[this.#i];
      if (c === "\n") {
        if (endsLine(out[out.length - 1])) {
          out.push(this.#tok("comma", "\n", this.#i, this.#line, this.#col));
        }
        this.#advance();
        continue;
      }
      if (c === " " || c === "\t" || c === "\r") {
        this.#advance();
        continue;
      }
      if (c === "/" && src[this.#i + 1] === "/") {
        while (this.#i < src.length && src[this.#i] !== "\n") this.#advance();
        continue;
      }
      const start = this.#i, line = this.#line, col = this.#col;
      if (closeParen && c === ")" && parens === 0) {
        this.#advance();
        return out;
      }
      if (c === "(") parens++;
      if (c === ")") parens--;
      if (
        c === '"' || c === "'" || (c === "#" && /^#+["']/.test(src.slice(this.#i, this.#i + 8)))
      ) {
        out.push(this.#string());
        continue;
      }
      if (c === "@" && isIdentStart(src[this.#i + 1] ?? "")) {
        out.push(this.#attribute());
        continue;
      }
      if (src.startsWith("_|_", this.#i)) {
        this.#advance(3);
        out.push(this.#tok("punct", "_|_", start, line, col));
        continue;
      }
      if (/[0-9]/.test(c) || (c === "." && /[0-9]/.test(src[this.#i + 1] ?? ""))) {
        const m =
          /^(0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:[0-9][0-9_]*)?\.?[0-9_]*(?:[eE][+-]?[0-9]+)?(?:[KMGTP]i?)?)/
            .exec(src.slice(this.#i));
        const text = m![0];
        this.#advance(text.length);
        out.push(this.#tok("number", text, start, line, col));
        continue;
      }
      if (isIdentStart(c)) {
        let j = this.#i + 1;
        while (j < src.length && isIdentPart(src[j])) j++;
        const text = src.slice(this.#i, j);
        this.#advance(j - this.#i);
        out.push(this.#tok("ident", text, start, line, col));
        continue;
      }
      const p = PUNCT.find((p) => src.startsWith(p, this.#i));
      if (p) {
        this.#advance(p.length);
        out.push(this.#tok(p === "," ? "comma" : "punct", p, start, line, col));
        continue;
      }
      throw new ScanError(`illegal character ${JSON.stringify(c)}`, line, col);
    }
    if (closeParen) {
      throw new ScanError(
        "unterminated interpolation: a \\( has no closing )",
        this.#line,
        this.#col,
      );
    }
    if (endsLine(out[out.length - 1])) {
      out.push(this.#tok("comma", "\n", this.#i, this.#line, this.#col));
    }
    out.push(this.#tok("eof", "", this.#i, this.#line, this.#col));
    return out;
  }

  #tok(kind: TokenKind, text: string, offset: number, line: number, column: number): Token {
    return { kind, text, offset, line, column };
  }

  #attribute(): Token {
    const start = this.#i, line = this.#line, col = this.#col;
    const src = this.#src;
    this.#advance(); // @
    while (this.#i < src.length && isIdentPart(src[this.#i])) this.#advance();
    if (src[this.#i] !== "(") {
      throw new ScanError("an attribute needs its arguments in parentheses: @name(...)", line, col);
    }
    let depth = 0;
    while (this.#i < src.length) {
      const ch = src[this.#i];
      if (ch === '"') {
        this.#advance();
        while (this.#i < src.length && src[this.#i] !== '"' && src[this.#i] !== "\n") {
          if (src[this.#i] === "\\") this.#advance();
          this.#advance();
        }
      }
      if (ch === "(") depth++;
      if (ch === ")") {
        depth--;
        if (depth === 0) {
          this.#advance();
          return this.#tok("attr", src.slice(start, this.#i), start, line, col);
        }
      }
      if (ch === "\n") break;
      this.#advance();
    }
    throw new ScanError("unterminated attribute: a ( has no closing ) on the same line", line, col);
  }

  #string(): Token {
    const src = this.#src;
    const start = this.#i, line = this.#line, col = this.#col;
    let hashes = 0;
    while (src[this.#i] === "#") {
      hashes++;
      this.#advance();
    }
    const q = src[this.#i];
    const multi = src.startsWith(q.repeat(3), this.#i);
    const open = multi ? q.repeat(3) : q;
    const close = open + "#".repeat(hashes);
    const escape = "\\" + "#".repeat(hashes);
    this.#advance(open.length);
    const interpolations: Token[][] = [];
    let value = "";
    for (;;) {
      if (this.#i >= src.length) {
        throw new ScanError("unterminated string: it has no closing " + close, line, col);
      }
      if (!multi && src[this.#i] === "\n") {
        throw new ScanError(
          'unterminated string: a string that spans lines needs triple quotes (""")',
          line,
          col,
        );
      }
      if (src.startsWith(close, this.#i)) {
        this.#advance(close.length);
        break;
      }
      if (src.startsWith(escape, this.#i)) {
        const after = src[this.#i + escape.length];
        if (after === "(") {
          if (this.#depth >= MAX_NESTING) {
            throw new ScanError(
              `interpolations nest more than ${MAX_NESTING} levels deep here: build the string ` +
                "from named parts",
              this.#line,
              this.#col,
            );
          }
          this.#advance(escape.length + 1);
          const inner = new Scanner(src, this.#i, this.#line, this.#col, this.#depth + 1);
          interpolations.push(inner.run({ depth: 0 }));
          this.#i = inner.#i;
          this.#line = inner.#line;
          this.#col = inner.#col;
          continue;
        }
        const esc = src.slice(this.#i, this.#i + escape.length + 1);
        value += unescape(after) ?? esc;
        this.#advance(escape.length + 1);
        continue;
      }
      value += src[this.#i];
      this.#advance();
    }
    const t = this.#tok("string", src.slice(start, this.#i), start, line, col);
    if (interpolations.length) t.interpolations = interpolations;
    else t.value = multi ? dedentMultiline(value) : value;
    return t;
  }
}

function unescape(c: string | undefined): string | undefined {
  switch (c) {
    case "n":
      return "\n";
    case "t":
      return "\t";
    case "\\":
      return "\\";
    case '"':
      return '"';
    case "'":
      return "'";
    case "r":
      return "\r";
    case "/":
      return "/";
    default:
      return undefined;
  }
}

function dedentMultiline(v: string): string {
  // """ strings: the first newline is dropped and the closing line's indent
  // is removed from every line.
  const lines = v.split("\n");
  if (lines.length < 2) return v;
  const indent = lines[lines.length - 1];
  return lines.slice(1, -1).map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l)).join(
    "\n",
  );
}
