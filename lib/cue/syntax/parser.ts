/**
 * A structural parser for CUE files: the package clause, the imports, every
 * field declaration with its path and position, the references in each value,
 * `@tag` attributes, and the syntax errors it can see, with positions.
 *
 * It does not evaluate anything: cue-wasm does that. It knows enough of the
 * grammar to say where a field is declared (cue-wasm's errors carry only a
 * path), which names a value refers to (the dependency graph), and where a
 * missing comma or an unclosed brace is.
 *
 * @module
 */

import { MAX_NESTING, scan, ScanError, type Token } from "./scanner.ts";

export { MAX_NESTING };

/**
 * The most operators one expression may chain (`a + b + ...`). cue-wasm
 * evaluates a long chain of `+` by recursion and runs out of stack between
 * 2,000 and 3,000 terms; a longer list belongs in a list (`list.Sum`,
 * `or([...])`).
 */
export const MAX_OPERATORS = 1000;

export interface Ref {
  /** The first identifier: `base` in `base.result`. */
  name: string;
  /** The selectors after it: `["result"]`. */
  selectors: string[];
  /** The scope the reference appears in, where its name is looked up. */
  scope: Scope;
  line: number;
  column: number;
}

export type SiteKind =
  | "regular"
  | "definition"
  | "hidden"
  | "let"
  | "alias"
  | "for"
  | "pattern"
  | "dynamic";

/** One declaration of a field (a field may be declared in several places). */
export interface Site {
  label: string;
  kind: SiteKind;
  /**
   * The field's path from the top of the package: regular labels, plus
   * definitions and hidden fields by name. Null where it is not static (a
   * dynamic or pattern label, or inside a list or a call).
   */
  path: string[] | null;
  file: string;
  line: number;
  column: number;
  /** References in the value, excluding those of nested field declarations. */
  refs: Ref[];
  /** The scope that declares it. */
  scope: Scope;
  /** `@...` attributes written after the value. */
  attrs: Token[];
  optional: boolean;
  /** Inside a definition, a hidden field, a let or a comprehension. */
  nonRegular: boolean;
  /**
   * The field whose value this declaration is written in (null at the top
   * of a file): where a declaration without a static path (inside a list, or
   * under a dynamic label) contributes its value.
   */
  owner: Site | null;
  /**
   * For the key variable of `for k, v in x.y` (a bare reference): that
   * reference. The keys of a struct of nodes are in the sources.
   */
  keyOf?: Ref;
  /** For a comprehension's variable: the comprehension that declares it. */
  generator?: Generator;
  /**
   * For the value variable of `for k, v in {"a": x, "b": y.z}` (a struct
   * written out whose every value is a bare reference): `v.f` reads `x.f`
   * and `y.z.f`, its references selected into, not whole.
   */
  valuesOf?: boolean;
  /** The label is a quoted string: the field exists, but its name is not bound for references. */
  quoted?: boolean;
  /** The value as written, when it is one literal (`"yes"`, `3`, `true`): for messages. */
  valueText?: string;
}

/**
 * What declares fields that the sources do not name: a comprehension among
 * a struct's declarations (`for`, `if`), or a field with a dynamic or
 * pattern label. Its clause references decide which fields exist.
 */
export interface Generator {
  /** The field whose value holds it; null at the top of a file. */
  owner: Site | null;
  /** The references of its clauses, or of its label's expression. */
  clauseRefs: Ref[];
  /**
   * The clause references that are all of a `for` clause's source (`for k,
   * v in servers`): iterating a struct of nodes depends on its keys only.
   */
  iterated: Ref[];
  /**
   * The clause references that an `if` only tests for presence (`if x.a !=
   * _|_`, `== _|_`): whether a field is there is known at plan time, also
   * when its value is not, and tells nothing of what it holds.
   */
  presence?: Ref[];
  /**
   * The clause references that an `if` only compares with null (`if
   * #in.at != null`, `== null`): a value the provider computes is taken as
   * not null before apply, as its stand-ins are.
   */
  nullTests?: Ref[];
  /**
   * The labels of the fields its body declares, whose existence its clauses
   * decide; null when they are not all known (a dynamic label, a nested
   * comprehension, or the generator of a dynamic label itself).
   */
  declares?: string[] | null;
  file: string;
  line: number;
  column: number;
}

export interface Scope {
  parent: Scope | null;
  /** Names declared in this scope: fields, lets, aliases, comprehension variables. */
  sites: Map<string, Site[]>;
  /** The path of the struct this scope is, when static. */
  path: string[] | null;
  nonRegular: boolean;
}

export interface ImportSpec {
  /** The name the file uses: the alias, or the last element of the path. */
  name: string;
  path: string;
  explicitAlias: boolean;
  line: number;
  column: number;
}

export interface ParsedFile {
  file: string;
  /** The package name, or undefined when the file has no package clause. */
  packageName?: string;
  packageLine?: number;
  imports: ImportSpec[];
  /** Offset in the source where the body starts (after package and imports). */
  bodyOffset: number;
  tokens: Token[];
  /** Every field declaration, in source order. */
  sites: Site[];
  /** References at file level outside any field (top-level embeddings, comprehensions). */
  topRefs: Ref[];
  /** `let` declarations, for "unreferenced let" errors. */
  lets: Site[];
  /** Comprehensions and dynamic or pattern labels, in source order. */
  generators: Generator[];
}

/** A syntax error with its position. */
export class SyntaxError extends Error {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  constructor(message: string, file: string, line: number, column: number) {
    super(message);
    this.name = "SyntaxError";
    this.file = file;
    this.line = line;
    this.column = column;
  }
}

interface ChainLabel {
  text: string;
  tok: Token;
  optional: boolean;
  kind?: SiteKind;
  alias?: string;
  refsFrom?: Ref[];
}

const BINARY = new Set([
  "&",
  "|",
  "+",
  "-",
  "*",
  "/",
  "==",
  "!=",
  "<",
  "<=",
  ">",
  ">=",
  "=~",
  "!~",
  "&&",
  "||",
]);
const UNARY = new Set(["!", "-", "+", "*", "<", "<=", ">", ">=", "!=", "=~", "!~"]);
const WORD_OPS = new Set(["div", "mod", "quo", "rem"]);

function kindOf(label: string): SiteKind {
  if (label.startsWith("#") || label.startsWith("_#")) return "definition";
  if (label.startsWith("_")) return "hidden";
  return "regular";
}

/** Parses one file. Throws SyntaxError with a position on what it cannot read. */
export function parseFile(file: string, src: string, top: Scope): ParsedFile {
  let tokens: Token[];
  try {
    tokens = scan(src);
  } catch (e) {
    if (e instanceof ScanError) throw new SyntaxError(e.message, file, e.line, e.column);
    throw e;
  }
  return new Parser(file, tokens, top).parse();
}

/** A new top-level scope, shared by all files of one package. */
export function newTopScope(): Scope {
  return { parent: null, sites: new Map(), path: [], nonRegular: false };
}

class Parser {
  #file: string;
  #toks: Token[];
  #i = 0;
  #sites: Site[] = [];
  #lets: Site[] = [];
  #topRefs: Ref[] = [];
  #generators: Generator[] = [];
  /** Extra lists that every reference read is also added to (clause references). */
  #taps: Ref[][] = [];
  #top: Scope;
  /** Where references go: the field whose value is being read. */
  #current: Site | null = null;
  /** How deep the expression being read nests (see MAX_NESTING). */
  #depth = 0;
  /** Inside a comprehension clause's expression: what it declares is no field of the root. */
  #inClause = 0;

  constructor(file: string, toks: Token[], top: Scope) {
    this.#file = file;
    this.#toks = toks;
    this.#top = top;
  }

  #cur(): Token {
    return this.#toks[this.#i];
  }
  #peek(n = 1): Token {
    return this.#toks[Math.min(this.#i + n, this.#toks.length - 1)];
  }
  #next(): Token {
    return this.#toks[this.#i++];
  }
  #is(text: string, t: Token = this.#cur()): boolean {
    return (t.kind === "punct" || t.kind === "comma") && t.text === text;
  }
  #fail(message: string, t: Token = this.#cur()): never {
    throw new SyntaxError(message, this.#file, t.line, t.column);
  }
  #describe(t: Token): string {
    if (t.kind === "eof") return "the end of the file";
    if (t.kind === "comma" && t.text === "\n") return "a new line";
    return `"${t.text}"`;
  }

  parse(): ParsedFile {
    const out: ParsedFile = {
      file: this.#file,
      imports: [],
      bodyOffset: 0,
      tokens: this.#toks,
      sites: this.#sites,
      topRefs: this.#topRefs,
      lets: this.#lets,
      generators: this.#generators,
    };
    this.#skipCommas();
    if (this.#cur().kind === "ident" && this.#cur().text === "package") {
      const kw = this.#next();
      const name = this.#next();
      if (name.kind !== "ident") this.#fail('expected a package name after "package"', name);
      out.packageName = name.text;
      out.packageLine = kw.line;
      this.#skipCommas();
    }
    while (this.#cur().kind === "ident" && this.#cur().text === "import") {
      this.#next();
      if (this.#is("(")) {
        this.#next();
        this.#skipCommas();
        while (!this.#is(")")) {
          if (this.#cur().kind === "eof") this.#fail("the import list has no closing )");
          out.imports.push(this.#importSpec());
          this.#skipCommas();
        }
        this.#next();
      } else {
        out.imports.push(this.#importSpec());
      }
      this.#skipCommas();
    }
    out.bodyOffset = this.#cur().offset;
    this.#decls(this.#top, "eof");
    return out;
  }

  #importSpec(): ImportSpec {
    let alias: Token | undefined;
    if (this.#cur().kind === "ident") alias = this.#next();
    const p = this.#next();
    if (p.kind !== "string" || p.value === undefined) {
      this.#fail("expected an import path in quotes", p);
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

  #skipCommas(): void {
    while (this.#cur().kind === "comma") this.#next();
  }

  /** Declarations until `end` ("}" or "eof"). */
  #decls(scope: Scope, end: "}" | "eof"): void {
    for (;;) {
      this.#skipCommas();
      const t = this.#cur();
      if (end === "eof" && t.kind === "eof") return;
      if (end === "}" && this.#is("}")) return;
      // The struct that is not closed says where it opens (#structLiteral).
      if (t.kind === "eof") return;
      if (end === "eof" && this.#is("}")) this.#fail("unexpected }: there is no { to close");
      this.#decl(scope);
      const after = this.#cur();
      if (after.kind === "comma") continue;
      if (end === "}" && this.#is("}")) continue;
      if (end === "eof" && after.kind === "eof") continue;
      this.#fail(`missing ',' or new line before ${this.#describe(after)}`, after);
    }
  }

  #decl(scope: Scope): void {
    const t = this.#cur();
    if (
      t.kind === "ident" && (t.text === "package" || t.text === "import") &&
      this.#peek().kind !== "punct"
    ) {
      this.#fail(`"${t.text}" must come first in the file, before any field`);
    }
    if (t.kind === "attr") {
      this.#next();
      return;
    }
    if (this.#is("...")) {
      this.#next();
      if (!this.#atDeclEnd()) this.#expr(scope, false);
      return;
    }
    if (
      t.kind === "ident" && t.text === "let" && this.#peek().kind === "ident" &&
      this.#is("=", this.#peek(2))
    ) {
      this.#next();
      const name = this.#next();
      this.#next(); // =
      const site = this.#newSite(scope, name.text, "let", null, name, false);
      this.#lets.push(site);
      this.#withSite(site, () => this.#expr(scope, false));
      return;
    }
    if (t.kind === "ident" && (t.text === "for" || t.text === "if") && !this.#isLabelColon(1)) {
      const g: Generator = {
        owner: this.#current,
        clauseRefs: [],
        iterated: [],
        file: this.#file,
        line: t.line,
        column: t.column,
      };
      this.#generators.push(g);
      this.#comprehension(scope, (inner) => {
        const body: Scope = {
          parent: inner,
          sites: new Map(),
          path: inner.path,
          nonRegular: inner.nonRegular,
        };
        const before = this.#generators.length;
        this.#structLiteral(inner, body);
        // What the clauses decide the existence of: the body's own fields,
        // when all of them are known by label.
        const labels = [...body.sites.entries()]
          .filter(([, ss]) => ss.some((x) => x.kind !== "let" && x.kind !== "alias"))
          .map(([l, ss]) => ({ l, ss }));
        const known = this.#generators.length === before &&
          labels.every(({ ss }) => ss.every((x) => x.path !== null));
        g.declares = known ? labels.map(({ l }) => l) : null;
      }, g);
      return;
    }
    if (this.#tryField(scope)) return;
    // An embedding: its references belong to the enclosing field, or to the file.
    this.#expr(scope, false);
  }

  /** True when the token at offset n begins `:` / `?:` / `!:` after a label. */
  #isLabelColon(n: number): boolean {
    const a = this.#peek(n);
    if (this.#is(":", a)) return true;
    return (this.#is("?", a) || this.#is("!", a)) && this.#is(":", this.#peek(n + 1));
  }

  #atDeclEnd(): boolean {
    const t = this.#cur();
    return t.kind === "comma" || t.kind === "eof" || this.#is("}") || this.#is("]") ||
      this.#is(")");
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
      site = this.#newSite(s, l.text, kind, path, l.tok, l.optional, nonRegular);
      // A quoted label declares the field but no name: `"pause": pause.id`
      // refers to the pause outside (as CUE resolves it).
      if (l.tok.kind === "string") site.quoted = true;
      if (l.alias) this.#newSite(s, l.alias, "alias", path, l.tok, false, nonRegular);
      if (l.refsFrom) {
        // A dynamic or pattern label: its expression's references count for the value.
        for (const r of l.refsFrom) site.refs.push(r);
        this.#generators.push({
          owner: site.owner,
          clauseRefs: [...l.refsFrom],
          iterated: [],
          file: this.#file,
          line: l.tok.line,
          column: l.tok.column,
        });
      }
      s = { parent: s, sites: new Map(), path, nonRegular };
    }
    const leaf = site!;
    const start = this.#i;
    this.#withSite(leaf, () => this.#expr(s.parent!, false, s));
    // A value that is one literal, for messages that quote it.
    const only = this.#toks[start];
    if (
      this.#i === start + 1 && !only.interpolations?.length &&
      (only.kind === "string" || only.kind === "number" ||
        (only.kind === "ident" && (only.text === "true" || only.text === "false")))
    ) leaf.valueText = only.text;
    while (this.#cur().kind === "attr") leaf.attrs.push(this.#next());
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
      const save = this.#i;
      const saved = {
        sites: this.#sites.length,
        lets: this.#lets.length,
        top: this.#topRefs.length,
        generators: this.#generators.length,
      };
      // A label that turns out not to be one leaves nothing behind.
      const rewind = () => {
        this.#i = save;
        this.#sites.length = saved.sites;
        this.#lets.length = saved.lets;
        this.#topRefs.length = saved.top;
        this.#generators.length = saved.generators;
        return out;
      };
      const l = this.#label(scope);
      if (!l) return rewind();
      let optional = false;
      if (this.#is("?") || this.#is("!")) {
        optional = this.#cur().text === "?";
        this.#next();
      }
      if (!this.#is(":")) return rewind();
      this.#next();
      out.push({ ...l, optional });
    }
  }

  /** A label; its expression's references are looked up in `scope`, the struct's. */
  #label(scope: Scope):
    | { text: string; tok: Token; kind?: SiteKind; alias?: string; refsFrom?: Ref[] }
    | undefined {
    let alias: string | undefined;
    if (this.#cur().kind === "ident" && this.#is("=", this.#peek())) {
      alias = this.#next().text;
      this.#next();
    }
    const t = this.#cur();
    if (t.kind === "ident") {
      this.#next();
      return { text: t.text, tok: t, alias };
    }
    if (t.kind === "string") {
      this.#next();
      if (t.value !== undefined) return { text: t.value, tok: t, kind: "regular", alias };
      return {
        text: t.text,
        tok: t,
        kind: "dynamic",
        alias,
        refsFrom: this.#interpolationRefs(t, scope),
      };
    }
    if (this.#is("(") || this.#is("[")) {
      const close = this.#is("(") ? ")" : "]";
      const refs: Ref[] = [];
      const probe: Site = this.#scratchSite(t);
      this.#next();
      try {
        this.#withSite(probe, () => this.#expr(scope, false));
      } catch {
        return undefined;
      }
      if (!this.#is(close)) return undefined;
      this.#next();
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

  #scratchSite(t: Token): Site {
    return {
      label: "",
      kind: "dynamic",
      path: null,
      file: this.#file,
      line: t.line,
      column: t.column,
      refs: [],
      scope: this.#top,
      attrs: [],
      optional: false,
      nonRegular: true,
      owner: this.#current,
    };
  }

  #newSite(
    scope: Scope,
    label: string,
    kind: SiteKind,
    path: string[] | null,
    tok: Token,
    optional: boolean,
    nonRegular = true,
  ): Site {
    const site: Site = {
      label,
      kind,
      path,
      file: this.#file,
      line: tok.line,
      column: tok.column,
      refs: [],
      scope,
      attrs: [],
      optional,
      nonRegular: kind === "let" || kind === "for" ? true : nonRegular,
      owner: this.#current,
    };
    const list = scope.sites.get(label) ?? [];
    list.push(site);
    scope.sites.set(label, list);
    if (kind !== "let" && kind !== "for" && this.#inClause === 0) this.#sites.push(site);
    return site;
  }

  #withSite(site: Site | null, fn: () => void): void {
    const saved = this.#current;
    this.#current = site;
    try {
      fn();
    } finally {
      this.#current = saved;
    }
  }

  #addRef(ref: Ref): void {
    if (this.#current) this.#current.refs.push(ref);
    else this.#topRefs.push(ref);
    for (const tap of this.#taps) tap.push(ref);
  }

  /** Runs `fn`, collecting every reference it reads into `into` too. */
  #tapped(into: Ref[], fn: () => void): void {
    this.#taps.push(into);
    try {
      fn();
    } finally {
      this.#taps.pop();
    }
  }

  #interpolationRefs(t: Token, scope: Scope): Ref[] {
    const probe = this.#scratchSite(t);
    this.#withSite(probe, () => this.#interpolations(t, scope));
    return probe.refs;
  }

  #interpolations(t: Token, scope: Scope): void {
    for (const inner of t.interpolations ?? []) {
      const eof: Token = { ...t, kind: "eof", text: "" };
      const sub = new Parser(this.#file, [...inner, eof], this.#top);
      sub.#current = this.#current ?? this.#scratchSite(t);
      sub.#taps = this.#taps;
      sub.#depth = this.#depth;
      const target = this.#current;
      sub.#expr(scope, false);
      if (sub.#cur().kind !== "eof") sub.#fail("unexpected token in interpolation", sub.#cur());
      if (!target) this.#topRefs.push(...sub.#current!.refs);
      this.#lets.push(...sub.#lets);
    }
  }

  /**
   * A comprehension: clauses (`for k, v in x`, `if c`, `let y = e`) then the
   * struct that `body` reads with the clause variables in scope.
   */
  #comprehension(scope: Scope, body: (inner: Scope) => void, g?: Generator): void {
    const clauseRefs = g?.clauseRefs ?? [];
    let inner: Scope = {
      parent: scope,
      sites: new Map(),
      path: scope.path,
      nonRegular: scope.nonRegular,
    };
    // A clause's expression is a value, not fields of the struct around it:
    // a struct written out there (`for k, v in {"a": a}`) declares nothing
    // at the struct's path.
    const clause = (s: Scope): Scope => ({
      parent: s,
      sites: new Map(),
      path: null,
      nonRegular: true,
    });
    const clauseExpr = (s: Scope): void => {
      this.#inClause++;
      try {
        this.#expr(clause(s), true);
      } finally {
        this.#inClause--;
      }
    };
    while (this.#cur().kind === "ident" && ["for", "if", "let"].includes(this.#cur().text)) {
      const kw = this.#next();
      if (kw.text === "for") {
        const vars: Token[] = [this.#next()];
        if (this.#cur().kind === "comma" && this.#cur().text === ",") {
          this.#next();
          vars.push(this.#next());
        }
        for (const v of vars) {
          if (v.kind !== "ident") this.#fail('expected a variable name after "for"', v);
        }
        if (!(this.#cur().kind === "ident" && this.#cur().text === "in")) {
          this.#fail(
            `expected "in" after the variables of "for", found ${this.#describe(this.#cur())}`,
          );
        }
        this.#next();
        const from: Ref[] = [];
        const start = this.#i;
        const generatorsBefore = this.#generators.length;
        this.#tapped(from, () => clauseExpr(inner));
        clauseRefs.push(...from);
        const bare = from.length === 1 && this.#bareReference(start, this.#i);
        if (bare) g?.iterated.push(from[0]);
        // A struct written out with its labels (`for k, v in {"a": pw}`): its
        // keys are in the sources; its references are its values.
        const literal = !bare && this.#generators.length === generatorsBefore &&
          this.#oneStructLiteral(start, this.#i);
        if (literal) g?.iterated.push(...from);
        const valuesOf = literal && this.#literalOfReferences(start, this.#i);
        const next: Scope = {
          parent: inner,
          sites: new Map(),
          path: inner.path,
          nonRegular: inner.nonRegular,
        };
        vars.forEach((v, i) => {
          const site = this.#newSite(next, v.text, "for", null, v, false);
          if (g) site.generator = g;
          // The keys of a struct written out are in the sources: its key
          // variable reads no value.
          if (!(literal && vars.length === 2 && i === 0)) site.refs.push(...from);
          if (bare && vars.length === 2 && i === 0) site.keyOf = from[0];
          if (valuesOf && i === vars.length - 1) site.valuesOf = true;
        });
        inner = next;
      } else if (kw.text === "if") {
        const from: Ref[] = [];
        const start = this.#i;
        this.#tapped(from, () => clauseExpr(inner));
        clauseRefs.push(...from);
        if (g && from.length === 1 && this.#presenceTest(start, this.#i)) {
          (g.presence ??= []).push(from[0]);
        }
        if (g && from.length === 1 && this.#presenceTest(start, this.#i, "null")) {
          (g.nullTests ??= []).push(from[0]);
        }
      } else {
        const name = this.#next();
        if (!this.#is("=")) this.#fail("expected = after the name in a let clause");
        this.#next();
        const from: Ref[] = [];
        const start = this.#i;
        this.#tapped(from, () => clauseExpr(inner));
        clauseRefs.push(...from);
        if (from.length === 1 && this.#bareReference(start, this.#i)) g?.iterated.push(from[0]);
        const next: Scope = {
          parent: inner,
          sites: new Map(),
          path: inner.path,
          nonRegular: inner.nonRegular,
        };
        this.#newSite(next, name.text, "let", null, name, false).refs.push(...from);
        inner = next;
      }
      this.#skipNewlines();
    }
    if (!this.#is("{")) {
      this.#fail(
        `expected { after the comprehension clauses, found ${this.#describe(this.#cur())}`,
      );
    }
    body(inner);
  }

  /** True when the tokens from `start` to `end` are one struct literal: `{...}`. */
  #oneStructLiteral(start: number, end: number): boolean {
    const toks = this.#toks.slice(start, end).filter((t) =>
      !(t.kind === "comma" && t.text === "\n")
    );
    if (toks.length < 2 || !this.#is("{", toks[0])) return false;
    let depth = 0;
    for (let i = 0; i < toks.length; i++) {
      if (this.#is("{", toks[i])) depth++;
      else if (this.#is("}", toks[i])) {
        depth--;
        if (depth === 0 && i !== toks.length - 1) return false;
      }
    }
    return depth === 0;
  }

  /**
   * True when the tokens from `start` to `end` are a struct written out
   * whose every value is one reference: `{"a": x, b: y.z}`.
   */
  #literalOfReferences(start: number, end: number): boolean {
    const toks = this.#toks.slice(start + 1, end - 1);
    let i = 0;
    const sep = () => {
      while (i < toks.length && toks[i].kind === "comma") i++;
    };
    sep();
    while (i < toks.length) {
      // A label written out: a name, or a string without interpolation.
      if (toks[i].kind !== "ident" && toks[i].kind !== "string") return false;
      if (toks[i].interpolations?.length) return false;
      if (!this.#is(":", toks[i + 1])) return false;
      i += 2;
      const from = i;
      while (i < toks.length && toks[i].kind !== "comma") i++;
      if (!this.#bareReference(start + 1 + from, start + 1 + i)) return false;
      sep();
    }
    return true;
  }

  /** True when the tokens from `start` to `end` are one reference: `a.b.c`. */
  /** True when the tokens are `REF != _|_` or `REF == _|_`, REF a bare reference. */
  /** Whether the clause is `ref != X` or `ref == X`, X `_|_` (or `null`). */
  #presenceTest(start: number, end: number, against = "_|_"): boolean {
    const toks = this.#toks.slice(start, end).filter((t) =>
      !(t.kind === "comma" && t.text === "\n")
    );
    const n = toks.length;
    if (n < 3 || toks[n - 1].text !== against || !["!=", "=="].includes(toks[n - 2].text)) {
      return false;
    }
    const refEnd = start + this.#toks.slice(start, end).findIndex((t) => t === toks[n - 2]);
    return this.#bareReference(start, refEnd);
  }

  #bareReference(start: number, end: number): boolean {
    const toks = this.#toks.slice(start, end).filter((t) =>
      !(t.kind === "comma" && t.text === "\n")
    );
    if (toks.length === 0 || toks.length % 2 === 0 || toks[0].kind !== "ident") return false;
    for (let i = 1; i < toks.length; i += 2) {
      if (!this.#is(".", toks[i])) return false;
      if (toks[i + 1].kind !== "ident" && toks[i + 1].value === undefined) return false;
    }
    return true;
  }

  #skipNewlines(): void {
    while (this.#cur().kind === "comma" && this.#cur().text === "\n") this.#next();
  }

  /** `{ decls }` with a scope of its own. */
  #structLiteral(parent: Scope, own?: Scope): void {
    const open = this.#next(); // {
    const scope: Scope = own ??
      { parent, sites: new Map(), path: parent.path, nonRegular: parent.nonRegular };
    this.#decls(scope, "}");
    if (!this.#is("}")) {
      this.#fail("a { has no closing }: the file ends before it is closed", open);
    }
    this.#next();
  }

  /**
   * An expression, up to a `,`, new line, closing bracket or attribute.
   * `own` is the scope a struct literal at the top of the value takes (the
   * field's own scope, so that its fields have the field's path).
   * With `clause`, a `{` after an operand ends it (comprehension clauses).
   */
  #expr(scope: Scope, clause: boolean, own?: Scope): void {
    // A field's value is depth 1; each bracket inside it one more.
    if (this.#depth > MAX_NESTING) {
      this.#fail(
        `the value nests more than ${MAX_NESTING} levels deep here (braces, brackets, ` +
          "parentheses and interpolations, counted together): flatten it, or build it from " +
          "named parts",
      );
    }
    this.#depth++;
    try {
      this.#exprAt(scope, clause, own);
    } finally {
      this.#depth--;
    }
  }

  #exprAt(scope: Scope, clause: boolean, own?: Scope): void {
    let operand = true;
    let first = true;
    let operators = 0;
    for (;;) {
      const t = this.#cur();
      if (t.kind === "eof" || t.kind === "comma" || t.kind === "attr") break;
      if (this.#is("}") || this.#is("]") || this.#is(")")) break;
      if (operand) {
        if (t.kind === "punct" && UNARY.has(t.text)) {
          this.#next();
          continue;
        }
        if (t.kind === "ident") {
          if ((t.text === "for" || t.text === "if" || t.text === "let") && !first) {
            this.#fail(`unexpected "${t.text}" in an expression`);
          }
          this.#next();
          if (first && this.#is("=")) {
            // A value alias `X={...}`: the name is local; read what follows.
            this.#next();
            continue;
          }
          if (!["true", "false", "null"].includes(t.text)) this.#reference(t, scope);
          operand = false;
        } else if (t.kind === "number" || this.#is("_|_")) {
          this.#next();
          operand = false;
        } else if (t.kind === "string") {
          this.#next();
          this.#interpolations(t, scope);
          operand = false;
        } else if (this.#is("{")) {
          // Struct literals at the top of a field's value have the field's path.
          this.#structLiteral(
            scope,
            own
              ? { parent: own.parent, sites: new Map(), path: own.path, nonRegular: own.nonRegular }
              : undefined,
          );
          operand = false;
        } else if (this.#is("[")) {
          this.#list(scope);
          operand = false;
        } else if (this.#is("(")) {
          const open = this.#next();
          this.#expr(scope, false);
          if (!this.#is(")")) this.#fail("a ( has no closing )", open);
          this.#next();
          operand = false;
        } else if (this.#is("...")) {
          // `...` alone, or `...T` (a typed ellipsis: every further element is T).
          this.#next();
          const next = this.#cur();
          operand =
            !(next.kind === "eof" || next.kind === "comma" || this.#is("]") || this.#is("}") ||
              this.#is(")"));
          first = false;
          continue;
        } else {
          this.#fail(`expected a value, found ${this.#describe(t)}`);
        }
      } else {
        if (
          (t.kind === "punct" && BINARY.has(t.text)) || (t.kind === "ident" && WORD_OPS.has(t.text))
        ) {
          if (++operators > MAX_OPERATORS) {
            this.#fail(
              `the expression chains more than ${MAX_OPERATORS} operators: split it into ` +
                "named parts, or use a list (list.Sum, or([...]))",
            );
          }
          this.#next();
          operand = true;
        } else if (this.#is(".")) {
          this.#next();
          const sel = this.#next();
          if (sel.kind !== "ident" && sel.kind !== "string") {
            this.#fail('expected a field name after "."', sel);
          }
        } else if (this.#is("(")) {
          const open = this.#next();
          this.#skipNewlines();
          while (!this.#is(")")) {
            if (this.#cur().kind === "eof") this.#fail("a ( has no closing )", open);
            this.#expr(scope, false);
            this.#skipCommas();
          }
          this.#next();
        } else if (this.#is("[")) {
          const open = this.#next();
          this.#expr(scope, false);
          if (this.#is(":")) {
            this.#next();
            this.#expr(scope, false);
          }
          if (!this.#is("]")) this.#fail("a [ has no closing ]", open);
          this.#next();
        } else if (
          clause &&
          (this.#is("{") || (t.kind === "ident" && ["for", "if", "let"].includes(t.text)))
        ) {
          break;
        } else {
          this.#fail(`missing ',' or new line before ${this.#describe(t)}`);
        }
      }
      first = false;
    }
    if (operand && !clause) {
      this.#fail(`expected a value, found ${this.#describe(this.#cur())}`);
    }
  }

  #reference(t: Token, scope: Scope): void {
    const selectors: string[] = [];
    let j = this.#i;
    while (
      this.#is(".", this.#toks[j]) &&
      (this.#toks[j + 1].kind === "ident" || this.#toks[j + 1].value !== undefined)
    ) {
      const s = this.#toks[j + 1];
      selectors.push(s.kind === "ident" ? s.text : s.value!);
      j += 2;
    }
    this.#addRef({ name: t.text, selectors, scope, line: t.line, column: t.column });
  }

  #list(scope: Scope): void {
    const open = this.#next(); // [
    for (;;) {
      this.#skipCommas();
      if (this.#is("]")) break;
      if (this.#cur().kind === "eof") this.#fail("a [ has no closing ]", open);
      if (
        this.#cur().kind === "ident" && (this.#cur().text === "for" || this.#cur().text === "if")
      ) {
        const listScope: Scope = { parent: scope, sites: new Map(), path: null, nonRegular: true };
        this.#comprehension(listScope, (inner) => this.#structLiteral(inner));
      } else {
        const elemScope: Scope = { parent: scope, sites: new Map(), path: null, nonRegular: true };
        this.#expr(elemScope, false, elemScope);
      }
      const after = this.#cur();
      if (after.kind === "comma" || this.#is("]")) continue;
      this.#fail(`missing ',' in the list before ${this.#describe(after)}`, after);
    }
    this.#next();
  }
}

/**
 * Finds the declaration a reference names: the innermost scope that declares
 * its first identifier. Undefined when no scope does (an import, a builtin,
 * or an undefined name, which CUE reports).
 */
export function resolve(ref: Ref): Site[] | undefined {
  for (let s: Scope | null = ref.scope; s; s = s.parent) {
    const found = s.sites.get(ref.name)?.filter((x) => !x.quoted);
    if (found?.length) return found;
  }
  return undefined;
}
