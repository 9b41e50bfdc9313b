/**
 * What the structural parser records of a CUE file: the declarations of
 * fields (sites) with their paths and positions, the references in their
 * values, the scopes that names are looked up in, the generators
 * (comprehensions, dynamic and pattern labels) that declare fields the
 * sources do not name, and the file's package clause and imports.
 *
 * @module
 */

import type { Token } from "./scanner.ts";

export interface Ref {
  /** The first identifier: `base` in `base.result`. */
  name: string;
  /** The selectors after it: `["result"]`. */
  selectors: string[];
  /** The scope the reference appears in, where its name is looked up. */
  scope: Scope;
  line: number;
  column: number;
  /** An index follows the selectors (`b[k].id`): the value read is inside what they name. */
  indexed?: boolean;
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

/** A new top-level scope, shared by all files of one package. */
export function newTopScope(): Scope {
  return { parent: null, sites: new Map(), path: [], nonRegular: false };
}

/** A new scope inside `parent`, with the path and regularity of `like`. */
export function scopeIn(
  parent: Scope | null,
  like: { path: string[] | null; nonRegular: boolean },
): Scope {
  return { parent, sites: new Map(), path: like.path, nonRegular: like.nonRegular };
}

/** What a label declares by its spelling: a definition (`#D`, `_#D`), a hidden field (`_h`), or a regular one. */
export function kindOf(label: string): SiteKind {
  if (label.startsWith("#") || label.startsWith("_#")) return "definition";
  if (label.startsWith("_")) return "hidden";
  return "regular";
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
