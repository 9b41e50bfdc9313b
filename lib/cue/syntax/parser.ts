/**
 * A structural parser for CUE files: the package clause, the imports, every
 * field declaration with its path and position, the references in each value,
 * `@tag` attributes, and the syntax errors it can see, with positions.
 *
 * It does not evaluate anything: cue-wasm does that. It knows enough of the
 * grammar to say where a field is declared (cue-wasm's errors carry only a
 * path), which names a value refers to (the dependency graph), and where a
 * missing comma or an unclosed brace is. This file reads the declarations;
 * `expressions.ts` and `comprehensions.ts` the rest, `sites.ts` says what
 * it records.
 *
 * @module
 */

import { ComprehensionReader } from "./comprehensions.ts";
import { SyntaxError } from "./reader.ts";
import { scan, ScanError, type Token } from "./scanner.ts";
import {
  type Generator,
  type ImportSpec,
  kindOf,
  type ParsedFile,
  type Ref,
  type Scope,
  scopeIn,
  type Site,
  type SiteKind,
} from "./sites.ts";

/** A label before its `:`, as read. */
interface ChainLabel {
  text: string;
  tok: Token;
  optional: boolean;
  kind?: SiteKind;
  alias?: string;
  refsFrom?: Ref[];
}

/** Parses one file. Throws SyntaxError with a position on what it cannot read. */
export function parseFile(file: string, src: string, top: Scope): ParsedFile {
  let tokens: Token[];
  try {
    tokens = scan(src);
  } catch (e) {
    if (e instanceof ScanError) {
      throw new SyntaxError(e.message, { file, line: e.line, column: e.column });
    }
    throw e;
  }
  return new Parser(file, tokens, top).parse();
}

class Parser extends ComprehensionReader {
  protected reader(toks: Token[]): Parser {
    return new Parser(this.file, toks, this.top);
  }

  parse(): ParsedFile {
    const out: ParsedFile = {
      file: this.file,
      imports: [],
      bodyOffset: 0,
      tokens: this.toks,
      sites: this.sites,
      topRefs: this.topRefs,
      lets: this.lets,
      generators: this.generators,
    };
    this.skipCommas();
    if (this.isWord("package")) {
      const kw = this.next();
      const name = this.next();
      if (name.kind !== "ident") this.fail('expected a package name after "package"', name);
      out.packageName = name.text;
      out.packageLine = kw.line;
      this.skipCommas();
    }
    while (this.isWord("import")) {
      this.next();
      if (this.is("(")) {
        this.next();
        this.skipCommas();
        while (!this.is(")")) {
          if (this.cur().kind === "eof") this.fail("the import list has no closing )");
          out.imports.push(this.#importSpec());
          this.skipCommas();
        }
        this.next();
      } else {
        out.imports.push(this.#importSpec());
      }
      this.skipCommas();
    }
    out.bodyOffset = this.cur().offset;
    this.#decls(this.top, "eof");
    return out;
  }

  #importSpec(): ImportSpec {
    let alias: Token | undefined;
    if (this.cur().kind === "ident") alias = this.next();
    const p = this.next();
    if (p.kind !== "string" || p.value === undefined) {
      this.fail("expected an import path in quotes", p);
    }
    const path = p.value!;
    const base = path.split(":")[0].split("/").pop()!;
    const name = alias?.text ?? path.split(":")[1] ?? base;
    return {
      name,
      path,
      explicitAlias: alias !== undefined,
      line: (alias ?? p).line,
      column: (alias ?? p).column,
    };
  }

  /** Declarations until `end` ("}" or "eof"). */
  #decls(scope: Scope, end: "}" | "eof"): void {
    for (;;) {
      this.skipCommas();
      const t = this.cur();
      if (end === "eof" && t.kind === "eof") return;
      if (end === "}" && this.is("}")) return;
      // The struct that is not closed says where it opens (structLiteral).
      if (t.kind === "eof") return;
      if (end === "eof" && this.is("}")) this.fail("unexpected }: there is no { to close");
      this.#decl(scope);
      const after = this.cur();
      if (after.kind === "comma") continue;
      if (end === "}" && this.is("}")) continue;
      if (end === "eof" && after.kind === "eof") continue;
      this.fail(`missing ',' or new line before ${this.describe(after)}`, after);
    }
  }

  #decl(scope: Scope): void {
    const t = this.cur();
    if (
      t.kind === "ident" && (t.text === "package" || t.text === "import") &&
      this.peek().kind !== "punct"
    ) {
      this.fail(`"${t.text}" must come first in the file, before any field`);
    }
    if (t.kind === "attr") {
      this.next();
      return;
    }
    if (this.is("...")) {
      this.next();
      if (!this.atValueEnd()) this.expr(scope, false);
      return;
    }
    if (this.atLet()) {
      this.next();
      const name = this.next();
      this.next(); // =
      const site = this.newSite(scope, {
        label: name.text,
        kind: "let",
        path: null,
        tok: name,
        optional: false,
      });
      this.lets.push(site);
      this.withSite(site, () => this.expr(scope, false));
      return;
    }
    if ((this.isWord("for") || this.isWord("if")) && !this.labelColonAt(1)) {
      this.#generator(t, scope);
      return;
    }
    if (this.#tryField(scope)) return;
    // An embedding: its references belong to the enclosing field, or to the file.
    this.expr(scope, false);
  }

  /** A comprehension among a struct's declarations, starting at `t`: a generator of fields. */
  #generator(t: Token, scope: Scope): void {
    const g: Generator = {
      owner: this.current,
      clauseRefs: [],
      iterated: [],
      file: this.file,
      line: t.line,
      column: t.column,
    };
    this.generators.push(g);
    this.comprehension(scope, (inner) => {
      const body = scopeIn(inner, inner);
      const before = this.generators.length;
      this.structLiteral(inner, body);
      // What the clauses decide the existence of: the body's own fields,
      // when all of them are known by label.
      const labels = [...body.sites.entries()]
        .filter(([, ss]) => ss.some((x) => x.kind !== "let" && x.kind !== "alias"))
        .map(([l, ss]) => ({ l, ss }));
      const known = this.generators.length === before &&
        labels.every(({ ss }) => ss.every((x) => x.path !== null));
      g.declares = known ? labels.map(({ l }) => l) : null;
    }, g);
  }

  /** Reads `label: label: ... value @attr...` if one starts here. */
  #tryField(scope: Scope): boolean {
    const labels = this.#labelChain(scope);
    if (labels.length === 0) return false;
    let s = scope;
    let site: Site | null = null;
    for (const l of labels) {
      const kind: SiteKind = l.kind ?? kindOf(l.text);
      const nonRegular = s.nonRegular || kind !== "regular";
      const path = s.path && (kind === "regular" || kind === "definition" || kind === "hidden")
        ? [...s.path, l.text]
        : null;
      site = this.newSite(s, {
        label: l.text,
        kind,
        path,
        tok: l.tok,
        optional: l.optional,
        nonRegular,
      });
      // A quoted label declares the field but no name: `"pause": pause.id`
      // refers to the pause outside (as CUE resolves it).
      if (l.tok.kind === "string") site.quoted = true;
      if (l.alias) {
        this.newSite(s, {
          label: l.alias,
          kind: "alias",
          path,
          tok: l.tok,
          optional: false,
          nonRegular,
        });
      }
      if (l.refsFrom) {
        // A dynamic or pattern label: its expression's references count for the value.
        for (const r of l.refsFrom) site.refs.push(r);
        this.generators.push({
          owner: site.owner,
          clauseRefs: [...l.refsFrom],
          iterated: [],
          file: this.file,
          line: l.tok.line,
          column: l.tok.column,
        });
      }
      s = scopeIn(s, { path, nonRegular });
    }
    const leaf = site!;
    const start = this.at;
    this.withSite(leaf, () => this.expr(s.parent!, false, s));
    // A value that is one literal, for messages that quote it.
    const only = this.toks[start];
    if (
      this.at === start + 1 && !only.interpolations?.length &&
      (only.kind === "string" || only.kind === "number" ||
        (only.kind === "ident" && (only.text === "true" || only.text === "false")))
    ) leaf.valueText = only.text;
    while (this.cur().kind === "attr") leaf.attrs.push(this.next());
    return true;
  }

  /**
   * Reads a chain of labels each followed by `:` (`a: b?: "c":`), leaving the
   * position after the last colon; returns [] and moves nothing when no label
   * starts here.
   */
  #labelChain(scope: Scope): ChainLabel[] {
    const out: ChainLabel[] = [];
    for (;;) {
      const save = this.at;
      const saved = {
        sites: this.sites.length,
        lets: this.lets.length,
        top: this.topRefs.length,
        generators: this.generators.length,
      };
      // A label that turns out not to be one leaves nothing behind.
      const rewind = () => {
        this.at = save;
        this.sites.length = saved.sites;
        this.lets.length = saved.lets;
        this.topRefs.length = saved.top;
        this.generators.length = saved.generators;
        return out;
      };
      const l = this.#label(scope);
      if (!l) return rewind();
      let optional = false;
      if (this.is("?") || this.is("!")) {
        optional = this.cur().text === "?";
        this.next();
      }
      if (!this.is(":")) return rewind();
      this.next();
      out.push({ ...l, optional });
    }
  }

  /** A label; its expression's references are looked up in `scope`, the struct's. */
  #label(scope: Scope): Omit<ChainLabel, "optional"> | undefined {
    let alias: string | undefined;
    if (this.cur().kind === "ident" && this.is("=", this.peek())) {
      alias = this.next().text;
      this.next();
    }
    const t = this.cur();
    if (t.kind === "ident") {
      this.next();
      return { text: t.text, tok: t, alias };
    }
    if (t.kind === "string") {
      this.next();
      if (t.value !== undefined) return { text: t.value, tok: t, kind: "regular", alias };
      return {
        text: t.text,
        tok: t,
        kind: "dynamic",
        alias,
        refsFrom: this.interpolationRefs(t, scope),
      };
    }
    if (this.is("(") || this.is("[")) {
      const close = this.is("(") ? ")" : "]";
      const refs: Ref[] = [];
      const probe: Site = this.scratchSite(t);
      this.next();
      try {
        this.withSite(probe, () => this.expr(scope, false));
      } catch {
        return undefined;
      }
      if (!this.is(close)) return undefined;
      this.next();
      refs.push(...probe.refs);
      return {
        text: t.text,
        tok: t,
        kind: close === ")" ? "dynamic" : "pattern",
        alias,
        refsFrom: refs,
      };
    }
    return undefined;
  }

  /** `{ decls }` with a scope of its own. */
  protected structLiteral(parent: Scope, own?: Scope): void {
    const open = this.next(); // {
    const scope: Scope = own ?? scopeIn(parent, parent);
    this.#decls(scope, "}");
    if (!this.is("}")) {
      this.fail("a { has no closing }: the file ends before it is closed", open);
    }
    this.next();
  }
}
