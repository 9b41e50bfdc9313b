/**
 * How `pravo fmt` formats declarations (as `cue/format`'s `walkDeclList` and
 * `decl`): fields with their labels and attributes, the package clause,
 * imports, lets, embeddings, comprehensions; where blank lines and column
 * breaks go between them. `printFile` formats a whole file.
 *
 * @module
 */

import { ExprFormatter } from "./expressions.ts";
import {
  hasDocComments,
  inlineField,
  isDefinition,
  isNewline,
  nestDepth,
  nextNeedsFormfeed,
  specHasComments,
} from "./layout.ts";
import {
  BLANK,
  DECLCOMMA,
  FORMFEED,
  INDENT,
  NEWLINE,
  NEWSECTION,
  NOBLANK,
  NOOVERRIDE,
  UNINDENT,
  VTAB,
} from "./printer.ts";
import { tabwrite } from "./tabwriter.ts";
import type { Tok } from "./tokens.ts";
import { type Decl, type Field, type File, firstTok, type ImportSpec, type Label } from "./tree.ts";

/** Formats a parsed file; the result ends with one line break. */
export function printFile(file: File): string {
  const f = new Formatter();
  f.file(file);
  return tabwrite(f.output.join(""));
}

class Formatter extends ExprFormatter {
  file(file: File): void {
    this.walkDeclList(file.decls);
    for (const c of file.tail) this.comment(c);
    this.finish();
  }

  protected walkDeclList(list: Decl[]): void {
    this.before();
    let d = 0;
    for (let i = 0; i < list.length; i++) {
      const x = list[i];
      if (i > 0) {
        this.ws(DECLCOMMA);
        const nd = x.type === "field" ? nestDepth(x) : 0;
        if (this.sep.parentSep === NEWLINE && (d === 0 || nd !== d)) this.ws(this.formfeed());
        if (hasDocComments(x)) {
          const prev = list[i - 1];
          if (prev.type !== "field" || isDefinition(prev.label)) this.ws(NEWSECTION);
        }
      }
      this.#decl(x);
      d = x.type === "field" ? nestDepth(x) : 0;
      const next = list[i + 1];
      if (next?.type === "field") {
        const v = next.value;
        if ((v.type === "struct" && (v.lbrace || v.elts.length !== 1)) || v.type === "list") {
          this.ws(this.formfeed());
          continue;
        }
      }
      this.ws(this.sep.parentSep);
    }
    this.after();
  }

  #decl(decl: Decl): void {
    this.before(decl);
    try {
      this.#declRaw(decl);
    } finally {
      this.after();
    }
  }

  #declRaw(n: Decl): void {
    switch (n.type) {
      case "field":
        this.#field(n);
        return;
      case "package":
        this.pos(n.kw);
        this.literal("package", "string", true);
        this.ws(BLANK);
        this.own(n.name);
        this.literal(n.name.text, "ident", false);
        this.ws(NEWSECTION, NOOVERRIDE);
        return;
      case "import":
        this.#import(n);
        return;
      case "let":
        if (isNewline(n.kw.rel)) this.ws(FORMFEED);
        this.letBinding(n);
        this.ws(DECLCOMMA);
        return;
      case "embed":
        if (isNewline(firstTok(n.x).rel)) this.ws(FORMFEED);
        this.expr(n.x);
        this.ws(NEWLINE);
        return;
      case "comprehension":
        if (isNewline(firstTok(n).rel)) this.ws(FORMFEED);
        this.comprehension(n);
        return;
      case "ellipsis":
        this.ellipsis(n);
        return;
      case "attr":
        this.pos(n.tok);
        this.literal(n.tok.text, "attr", true);
        return;
    }
  }
  /** `label: value @attr`, or `a: b: c` on one line (or `a:` then `b: c` below, indented). */
  #field(n: Field): void {
    this.#label(n.label, n.constraint);
    this.ws(NOBLANK, NOOVERRIDE);
    this.pos(n.colon);
    this.token(":");
    const mem = inlineField(n);
    if (mem) {
      if (isNewline(firstTok(mem).rel)) {
        // `a:` with the next label on a line of its own stays so, indented.
        this.ws(INDENT, FORMFEED);
        this.#decl(mem);
        this.indent--;
      } else {
        this.ws(BLANK, NOOVERRIDE);
        this.#decl(mem);
      }
      return;
    }
    const nextFF = nextNeedsFormfeed(n.value);
    const tab = nextFF || this.prevLbraceOnLine ? BLANK : VTAB;
    this.ws(tab);
    if (n.value.type === "list" || n.value.type === "struct") {
      this.expr(n.value);
    } else {
      this.ws(INDENT);
      this.expr(n.value);
      this.markUnindentLine();
    }
    let space = tab;
    for (const a of n.attrs) {
      this.ws(space);
      this.pos(a);
      this.literal(a.text, "attr", true);
      space = BLANK;
    }
    if (nextFF) this.ws(FORMFEED);
  }

  /** `import "path"`, or `import (` with a spec a line `)`. */
  #import(n: Decl & { type: "import" }): void {
    this.pos(n.kw);
    this.literal("import", "string", true);
    this.ws(BLANK);
    if (n.specs.length === 1 && !n.lparen && !specHasComments(n.specs[0])) {
      this.#walkSpecList(n.specs);
    } else {
      this.pos(n.lparen);
      this.token("(");
      this.ws(NEWLINE, INDENT);
      this.#walkSpecList(n.specs);
      if (n.rparen) this.lead(n.rparen);
      this.ws(UNINDENT, NEWLINE);
      this.pos(n.rparen);
      this.token(")");
      this.ws(NEWLINE);
    }
    this.ws(NEWSECTION, NOOVERRIDE);
  }

  #walkSpecList(list: ImportSpec[]): void {
    for (const x of list) {
      if (x.name) {
        this.identTok(x.name);
        this.ws(BLANK);
      }
      this.pos(x.path);
      this.literal(x.path.text, "string", true);
      this.ws(NEWLINE);
    }
  }

  #label(l: Label, constraint?: Tok): void {
    if (l.alias) {
      this.identTok(l.alias.ident);
      this.pos(l.alias.equal);
      this.token("=");
    }
    const x = l.expr;
    if (x.type === "ident") this.identTok(x.tok);
    else if (x.type === "lit") {
      this.pos(x.tok);
      this.literal(x.tok.text, "string", true);
    } else this.expr(x);
    if (constraint) {
      this.own(constraint);
      this.token(constraint.text);
    }
  }
}
