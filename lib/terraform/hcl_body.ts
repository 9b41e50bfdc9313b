/**
 * The structure of an HCL file of Terraform's native syntax: its blocks
 * (`resource "aws_s3_bucket" "logs" { ... }`) and attributes (`bucket =
 * "logs"`), each with where it is, and each attribute's expression as its
 * source text. HashiCorp's parser (`hcl.ts`) checks the syntax and parses
 * the expressions; its JSON has no positions and cannot tell a nested block
 * from an attribute holding a list of objects, so the structure is read
 * here, from the text, by a small scanner that knows HCL's comments,
 * strings, templates and heredocs well enough to find where an expression
 * ends. It runs only on text the parser accepted.
 *
 * @module
 */

/** An attribute: `name = expression`. */
export interface HclAttribute {
  name: string;
  /** The expression's source text, without a trailing comment. */
  expr: string;
  /** Offset of the name in the file's text. */
  offset: number;
  /** Offset of the expression in the file's text. */
  exprOffset: number;
}

/** A block: `type "label" ... { body }`. */
export interface HclBlock {
  type: string;
  labels: string[];
  body: HclBody;
  /** Offset of the type in the file's text. */
  offset: number;
  /** Offsets of the labels. */
  labelOffsets: number[];
}

/** What a body holds, in the order written. */
export interface HclBody {
  attributes: HclAttribute[];
  blocks: HclBlock[];
}

/** A scanning failure: the text is not of the shape this scanner reads. */
export class HclScanError extends Error {
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(message);
    this.name = "HclScanError";
    this.offset = offset;
  }
}

const IDENT_START = /[A-Za-z_]/;
const IDENT = /[A-Za-z0-9_-]/;

/**
 * Reads the body of a whole file.
 *
 * @example
 * ```ts
 * import { scanBody } from "./hcl_body.ts";
 * const body = scanBody('resource "a" "b" {\n  x = [1,\n    2] # two\n}\n');
 * const x = body.blocks[0].body.attributes[0];
 * if (x.expr !== "[1,\n    2]") throw new Error(x.expr);
 * ```
 */
export function scanBody(text: string): HclBody {
  const s = new Scanner(text);
  const body = s.body(false);
  s.skipSpace(true);
  if (s.i < text.length) throw new HclScanError("unexpected text", s.i);
  return body;
}

class Scanner {
  i = 0;
  constructor(readonly t: string) {}

  /** Skips spaces and comments; newlines too when `newlines`. */
  skipSpace(newlines: boolean): void {
    const t = this.t;
    while (this.i < t.length) {
      const c = t[this.i];
      if (c === " " || c === "\t" || c === "\r" || (newlines && c === "\n")) {
        this.i++;
      } else if (c === "#" || (c === "/" && t[this.i + 1] === "/")) {
        while (this.i < t.length && t[this.i] !== "\n") this.i++;
      } else if (c === "/" && t[this.i + 1] === "*") {
        const end = t.indexOf("*/", this.i + 2);
        if (end < 0) throw new HclScanError("unterminated comment", this.i);
        this.i = end + 2;
      } else {
        return;
      }
    }
  }

  ident(): string {
    const start = this.i;
    if (!IDENT_START.test(this.t[this.i] ?? "")) {
      throw new HclScanError("expected a name", this.i);
    }
    while (this.i < this.t.length && IDENT.test(this.t[this.i])) this.i++;
    return this.t.slice(start, this.i);
  }

  /** A body, up to its closing brace (`inner`) or the end of the text. */
  body(inner: boolean): HclBody {
    const out: HclBody = { attributes: [], blocks: [] };
    for (;;) {
      this.skipSpace(true);
      if (this.i >= this.t.length) {
        if (inner) throw new HclScanError("unclosed block", this.i);
        return out;
      }
      if (this.t[this.i] === "}") {
        if (!inner) throw new HclScanError("unexpected }", this.i);
        return out;
      }
      const offset = this.i;
      const name = this.ident();
      this.skipSpace(false);
      if (this.t[this.i] === "=" && this.t[this.i + 1] !== "=") {
        this.i++;
        this.skipSpace(false);
        const exprOffset = this.i;
        const end = this.expression();
        out.attributes.push({
          name,
          expr: this.t.slice(exprOffset, end),
          offset,
          exprOffset,
        });
      } else {
        out.blocks.push(this.block(name, offset));
      }
    }
  }

  block(type: string, offset: number): HclBlock {
    const labels: string[] = [];
    const labelOffsets: number[] = [];
    for (;;) {
      this.skipSpace(false);
      const c = this.t[this.i];
      if (c === "{") break;
      labelOffsets.push(this.i);
      if (c === '"') {
        const start = this.i;
        this.quoted();
        labels.push(JSON.parse(this.t.slice(start, this.i)));
      } else {
        labels.push(this.ident());
      }
    }
    this.i++; // {
    const body = this.body(true);
    this.i++; // }
    return { type, labels, body, offset, labelOffsets };
  }

  /**
   * Skips an expression that starts here; returns where it ends (before a
   * trailing comment and spaces). Stops at a newline, or a closing brace,
   * outside brackets.
   */
  expression(): number {
    const t = this.t;
    let depth = 0;
    let end = this.i;
    while (this.i < t.length) {
      const c = t[this.i];
      if (depth === 0 && (c === "\n" || c === "}")) break;
      if (c === '"') {
        this.quoted();
      } else if (c === "<" && t[this.i + 1] === "<" && /[-A-Za-z_]/.test(t[this.i + 2] ?? "")) {
        this.heredoc();
      } else if (
        c === "#" || (c === "/" && (t[this.i + 1] === "/" || t[this.i + 1] === "*"))
      ) {
        this.skipSpace(false);
        continue;
      } else if (c === "(" || c === "[" || c === "{") {
        depth++;
        this.i++;
      } else if (c === ")" || c === "]" || c === "}") {
        depth--;
        this.i++;
      } else {
        this.i++;
      }
      if (!/\s/.test(c)) end = this.i;
    }
    return end;
  }

  /** Skips a quoted template, with its interpolations. */
  quoted(): void {
    const t = this.t;
    this.i++; // "
    while (this.i < t.length) {
      const c = t[this.i];
      if (c === "\\") {
        this.i += 2;
      } else if (c === '"') {
        this.i++;
        return;
      } else if ((c === "$" || c === "%") && t[this.i + 1] === c && t[this.i + 2] === "{") {
        this.i += 3; // $${ and %%{ are literal
      } else if ((c === "$" || c === "%") && t[this.i + 1] === "{") {
        this.i += 2;
        this.interpolation();
      } else if (c === "\n") {
        throw new HclScanError("unterminated string", this.i);
      } else {
        this.i++;
      }
    }
    throw new HclScanError("unterminated string", this.i);
  }

  /** Skips the inside of `${ ... }` or `%{ ... }`, up to and past its brace. */
  interpolation(): void {
    const t = this.t;
    let depth = 0;
    while (this.i < t.length) {
      const c = t[this.i];
      if (c === '"') {
        this.quoted();
        continue;
      }
      if (c === "<" && t[this.i + 1] === "<" && /[-A-Za-z_]/.test(t[this.i + 2] ?? "")) {
        this.heredoc();
        continue;
      }
      this.i++;
      if (c === "{" || c === "(" || c === "[") depth++;
      else if (c === ")" || c === "]") depth--;
      else if (c === "}") {
        if (depth === 0) return;
        depth--;
      }
    }
    throw new HclScanError("unterminated interpolation", this.i);
  }

  /** Skips a heredoc `<<EOT` / `<<-EOT` up to its closing marker. */
  heredoc(): void {
    const t = this.t;
    const m = /^<<-?([A-Za-z_][A-Za-z0-9_-]*)[ \t]*\r?\n/.exec(t.slice(this.i, this.i + 200));
    if (!m) throw new HclScanError("malformed heredoc", this.i);
    this.i += m[0].length;
    const marker = m[1];
    for (;;) {
      const nl = t.indexOf("\n", this.i);
      const line = t.slice(this.i, nl < 0 ? t.length : nl);
      if (line.trim() === marker) {
        this.i += line.length;
        return;
      }
      if (nl < 0) throw new HclScanError("unterminated heredoc", this.i);
      this.i = nl + 1;
    }
  }
}

/** Line starts of a text, for offsets to lines and columns. */
export class LineIndex {
  readonly starts: number[] = [0];
  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) if (text[i] === "\n") this.starts.push(i + 1);
  }

  /** Line and column (from 1, the column in characters) of an offset. */
  at(offset: number): { line: number; column: number } {
    let lo = 0, hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.starts[lo] + 1 };
  }
}
