/**
 * The tokens that `pravo fmt` prints, each with its comments and where it
 * stood relative to the one before (same line, next line, after a blank
 * line): what the formatter keeps of the source that the scanner
 * (`../syntax/scanner.ts`) does not. The scanner skips comments; they are
 * found again in the gaps between its tokens.
 *
 * @module
 */

import { scan, ScanError, SourceError, type Token } from "../syntax/scanner.ts";

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
export class FormatSyntaxError extends SourceError {
  constructor(message: string, line: number, column: number) {
    super("FormatSyntaxError", message, { line, column });
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
