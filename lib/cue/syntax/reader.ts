/**
 * The structural parser's record keeping, beneath its grammar
 * (`expressions.ts`, `comprehensions.ts`, `parser.ts`): the sites, lets,
 * references and generators of one file as they are read, which field a
 * reference belongs to, and the syntax error with its file and position.
 *
 * @module
 */

import { TokenCursor } from "./cursor.ts";
import { SourceError, type Token } from "./scanner.ts";
import type { Generator, Ref, Scope, Site, SiteKind } from "./sites.ts";

/** A syntax error with its position. */
export class SyntaxError extends SourceError {
  readonly file: string;
  constructor(message: string, at: { file: string; line: number; column: number }) {
    super("SyntaxError", message, at);
    this.file = at.file;
  }
}

/** What a new site is: its label, kind, path, where it is written, and more. */
export interface NewSite {
  label: string;
  kind: SiteKind;
  path: string[] | null;
  tok: Token;
  optional: boolean;
  /** Inside a definition, a hidden field, a let or a comprehension (lets and `for` variables always are). */
  nonRegular?: boolean;
}

/** The state of the structural parser over one file's tokens. */
export abstract class SiteReader extends TokenCursor<Token> {
  protected readonly file: string;
  /** The scope shared by the package's files. */
  protected readonly top: Scope;
  protected sites: Site[] = [];
  protected lets: Site[] = [];
  protected topRefs: Ref[] = [];
  protected generators: Generator[] = [];
  /** Extra lists that every reference read is also added to (clause references). */
  protected taps: Ref[][] = [];
  /** Where references go: the field whose value is being read. */
  protected current: Site | null = null;
  /** How deep the expression being read nests (see MAX_NESTING). */
  protected depth = 0;
  /** Inside a comprehension clause's expression: what it declares is no field of the root. */
  protected inClause = 0;

  constructor(file: string, toks: Token[], top: Scope) {
    super(toks);
    this.file = file;
    this.top = top;
  }

  protected fail(message: string, t: Token = this.cur()): never {
    throw new SyntaxError(message, { file: this.file, line: t.line, column: t.column });
  }

  protected skipCommas(): void {
    while (this.cur().kind === "comma") this.next();
  }

  protected skipNewlines(): void {
    while (this.cur().kind === "comma" && this.cur().text === "\n") this.next();
  }

  /** A site that no scope holds, to collect the references of a label or an interpolation. */
  protected scratchSite(t: Token): Site {
    return {
      label: "",
      kind: "dynamic",
      path: null,
      file: this.file,
      line: t.line,
      column: t.column,
      refs: [],
      scope: this.top,
      attrs: [],
      optional: false,
      nonRegular: true,
      owner: this.current,
    };
  }

  /** Declares a site in `scope`; a field (not a let, not a `for` variable) is one of the file's. */
  protected newSite(scope: Scope, n: NewSite): Site {
    const { label, kind } = n;
    const site: Site = {
      label,
      kind,
      path: n.path,
      file: this.file,
      line: n.tok.line,
      column: n.tok.column,
      refs: [],
      scope,
      attrs: [],
      optional: n.optional,
      nonRegular: kind === "let" || kind === "for" ? true : n.nonRegular ?? true,
      owner: this.current,
    };
    const list = scope.sites.get(label) ?? [];
    list.push(site);
    scope.sites.set(label, list);
    if (kind !== "let" && kind !== "for" && this.inClause === 0) this.sites.push(site);
    return site;
  }

  /** Runs `fn` with the references it reads going to `site` (to the file when null). */
  protected withSite(site: Site | null, fn: () => void): void {
    const saved = this.current;
    this.current = site;
    try {
      fn();
    } finally {
      this.current = saved;
    }
  }

  protected addRef(ref: Ref): void {
    if (this.current) this.current.refs.push(ref);
    else this.topRefs.push(ref);
    for (const tap of this.taps) tap.push(ref);
  }

  /** Runs `fn`, collecting every reference it reads into `into` too. */
  protected tapped(into: Ref[], fn: () => void): void {
    this.taps.push(into);
    try {
      fn();
    } finally {
      this.taps.pop();
    }
  }
}
