/**
 * What converting Terraform's expressions to CUE shares (`expr.ts`): the
 * scope names are read in, the context that gathers diagnostics and
 * imports, the converter of one expression's tree with its source bytes
 * and positions, and how CUE labels, strings and operands are written.
 *
 * Packages are written as `⟪strings⟫.Join`: the file that holds the
 * expression chooses each import's name.
 *
 * @module
 */

import type { Diagnostic, SourcePos } from "../diag/diag.ts";
import { error, warning } from "../diag/diag.ts";
import type { AstNode, HclFile } from "./hcl.ts";
import { cueLabel, isReserved } from "../cue/literal.ts";

/** How a resource, data source or module call is expanded. */
export type Expansion = "none" | "count" | "for_each";

/** What names mean where an expression is. */
export interface Scope {
  /** Inside a module's definition: inputs are `#var`, locals `#local`. */
  module: boolean;
  /**
   * Inside the inputs given to a module call, in a module's definition:
   * the call declares `#var` too, so the definition's own is `_var` there.
   */
  callBody?: boolean;
  /** Declared here: `TYPE.NAME`, `data.TYPE.NAME`, by how they expand. */
  resources: Map<string, Expansion>;
  /** Module calls declared here, by how they expand. */
  modules: Map<string, Expansion>;
  /** Names bound by enclosing `for` expressions and dynamic blocks: HCL name → CUE name. */
  vars: Map<string, string>;
  /** The CUE name of `count.index`, inside a resource with `count`. */
  count?: string;
  /** The CUE names of `each.key` and `each.value`, inside one with `for_each`. */
  each?: { key: string; value: string };
  /** Dynamic blocks' iterators: HCL name → CUE names of `.key` and `.value`. */
  iterators: Map<string, { key: string; value: string }>;
  /** `path.module`: the module's directory, relative to the directory converted. */
  pathModule: string;
  /** The module's directory, absolute (where `file()` reads). */
  dir: string;
  /** The directory converted, absolute: no file outside it is read. */
  top: string;
}

/** What converting expressions gathers, for one file. */
export interface ExprContext {
  file: HclFile;
  diags: Diagnostic[];
  /** CUE packages used, by path (`strings`, `encoding/json`). */
  imports: Set<string>;
  /** Definitions of the converted root's `tf` package used (`#cidrsubnet`). */
  helpers: Set<string>;
  /** Files read at convert time (`file()`, `templatefile()`), relative to the directory. */
  reads: Set<string>;
}

/** A CUE expression and how tightly it binds (7: an operand of anything). */
export interface Cue {
  text: string;
  prec: number;
}

/** The CUE stand-in for what could not be converted. */
export const BOTTOM = "_|_";

export const PREC = { or: 1, and: 2, cmp: 3, add: 4, mul: 5, unary: 6, atom: 7 } as const;

/** A package reference, placed by the file that imports it: `⟪strings⟫`. */
export function pkg(path: string, ctx: ExprContext): string {
  ctx.imports.add(path);
  return `⟪${path}⟫`;
}

/** A label as CUE writes it: an identifier, else a quoted string. */
export { cueLabel };

/** A selector step: `.name`, or `."a b"` where a name will not do. */
export function selector(name: string): string {
  return `.${cueLabel(name)}`;
}

/** A CUE string literal. */
export function cueString(s: string): string {
  return JSON.stringify(s);
}

/** The operand `c`, parenthesized when it binds more loosely than `prec`. */
export function operand(c: Cue, prec: number): string {
  return c.prec >= prec ? c.text : `(${c.text})`;
}

export function atom(text: string): Cue {
  return { text, prec: PREC.atom };
}

/** The converter of one expression's tree: its source bytes, for slices and positions. */
export class Converter {
  readonly bytes: Uint8Array;
  readonly #dec = new TextDecoder();
  constructor(
    readonly src: string,
    /** Offset of the expression in its file's text. */
    readonly offset: number,
    readonly ctx: ExprContext,
  ) {
    this.bytes = new TextEncoder().encode(src);
  }

  /** The source text between two byte offsets. */
  slice(from: number, to: number): string {
    return this.#dec.decode(this.bytes.subarray(from, to));
  }

  /** The file position of a byte offset of the expression. */
  pos(byte: number): SourcePos {
    const chars = this.#dec.decode(this.bytes.subarray(0, byte)).length;
    const at = this.ctx.file.lines.at(this.offset + chars);
    return { file: this.ctx.file.name, line: at.line, column: at.column };
  }

  /** An error at `node`; returns the stand-in. */
  fail(node: AstNode, summary: string, detail: string): Cue {
    this.ctx.diags.push(error(summary, detail, { range: this.pos(node.range.start.byte) }));
    return atom(BOTTOM);
  }

  /** A warning at `node`. */
  warn(node: AstNode, summary: string, detail: string): void {
    this.ctx.diags.push(warning(summary, detail, { range: this.pos(node.range.start.byte) }));
  }
}

/** A new scope inside `scope`, with `vars` bound. */
export function withVars(scope: Scope, vars: Record<string, string>): Scope {
  const m = new Map(scope.vars);
  for (const [k, v] of Object.entries(vars)) m.set(k, v);
  return { ...scope, vars: m };
}

/** A CUE name for an HCL variable, not a keyword, nor one of `avoid`. */
export function freshName(name: string, avoid: ReadonlySet<string>): string {
  let n = /^[A-Za-z][A-Za-z0-9_]*$/.test(name) ? name : "x";
  while (isReserved(n) || avoid.has(n)) n += "_";
  return n;
}

/** A for expression's variables as CUE names, and the scope of its body, where they are bound. */
export interface ForVars {
  /** The key's (or index's) name, when the expression names one. */
  key?: string;
  value: string;
  inner: Scope;
}

/**
 * The variables of a for expression (or `%{for}` directive), whose HCL names
 * are `meta.keyVar` (optional) and `meta.valVar`: fresh CUE names, none of
 * the scope's nor of `avoid`, bound in the scope of the body.
 */
export function forVars(
  scope: Scope,
  meta: { keyVar?: string; valVar: string },
  avoid: Set<string> = new Set(),
): ForVars {
  for (const v of scope.vars.values()) avoid.add(v);
  const vars: Record<string, string> = {};
  const key = meta.keyVar ? freshName(meta.keyVar, avoid) : undefined;
  if (meta.keyVar) vars[meta.keyVar] = key!;
  const value = freshName(meta.valVar, avoid);
  vars[meta.valVar] = value;
  return { key, value, inner: withVars(scope, vars) };
}

/** The head of a CUE comprehension over `from` with these variables: `for k, v in from`. */
export function forHead(vars: ForVars, from: Cue): string {
  return `for ${vars.key ? `${vars.key}, ` : ""}${vars.value} in ${operand(from, PREC.atom)}`;
}

/** The name a file imports a package by, unless it must choose another: its last element. */
export function defaultAlias(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** Replaces the package references `⟪path⟫` in `text` with the names `alias` gives them. */
export function placeImports(text: string, alias: (path: string) => string): string {
  return text.replace(/⟪([^⟫]+)⟫/g, (_, p: string) => alias(p));
}
