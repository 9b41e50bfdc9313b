/**
 * A root that is a CUE module: `cue.mod/module.cue` in the root names the
 * module (`module: "example.com/infra"`), and the root's files import its
 * packages by path (`import "example.com/infra/lib/pets"`), one package a
 * directory under the root, several files a package, as CUE does.
 *
 * cue-wasm knows no packages (STACK.md): each imported package goes into
 * the program as a hidden field of its own, its import names renamed, as
 * the providers' packages do (program.ts). For reading dependencies, the
 * sites of a package's files have paths under one label of their own
 * ({@link packageLabel}), and each import name in a file that imports it
 * is a declaration at that path, so a reference `pets.#Pet` resolves into
 * the package's declarations (evaluate/deps.ts `Deps`).
 *
 * The package files are read as the root's files are, beneath the root,
 * and they are part of the sources: a plan file carries them, their digest
 * is the configuration's, and an edit to one is a change.
 *
 * Dependency modules are read vendored, as CUE's `cue.mod/pkg` layout has
 * them: a package of another module (`example.com/pets/pets`) lives in
 * `cue.mod/pkg/example.com/pets/pets/` of the root, read as the root's own
 * files are (a plan carries them too). `deps` in module.cue may list them,
 * with their versions. A module of `deps` that is not vendored is fetched
 * by `pravo init` from a registry (registry.ts), pinned in pravo.lock.json
 * and kept in pravo's cache outside the root (module_cache.ts); its files
 * are read from there under the same names, as if vendored.
 *
 * @module
 */

import { type Diagnostic, error } from "../diag/diag.ts";
import { newTopScope, type ParsedFile, parseFile, type Scope, type Site } from "./syntax/mod.ts";

/** Where a root that is a CUE module names itself. */
export const MODULE_FILE = "cue.mod/module.cue";

/** The label under which a package's declarations lie, for reading dependencies. */
export function packageLabel(importPath: string): string {
  return "\u0001" + importPath;
}

/** The hidden field that holds an imported package of the root's module in the program. */
export function packageField(importPath: string): string {
  return "_mod_" + importPath.replace(/[^A-Za-z0-9]/g, "_");
}

/** The module path that `module.cue` declares, or a diagnostic. */
export function readModuleFile(src: string): { path: string } | Diagnostic {
  // Comments out, then `module: "..."` (CUE v0.8+ writes `language` and
  // `deps` beside it).
  const text = src.replace(/\/\/[^\n]*/g, "");
  const m = /(?:^|\n)\s*module\s*:\s*"([^"\\]+)"/.exec(text);
  const where = { range: { file: MODULE_FILE, line: 1, column: 1 } };
  // CUE v0.8+ writes the major version after the path (`@v0`).
  if (!m || !/^[a-z0-9][a-z0-9.-]*(\/[A-Za-z0-9._~-]+)*(@v\d+)?$/.test(m[1])) {
    return error(
      "cue.mod/module.cue names no module",
      'A CUE module declares its path: write module: "example.com/infra" in cue.mod/module.cue (a domain, then the path of the module under it).',
      where,
    );
  }
  return { path: m[1].replace(/@v\d+$/, "") };
}

/** Where vendored dependency modules live in a root: `cue.mod/pkg/<import path>`. */
export const VENDOR_DIR = "cue.mod/pkg";

/**
 * The versions that module.cue's `deps` give dependency modules, by module
 * path without its major version (`example.com/pets`): `deps:
 * {"example.com/pets@v0": {v: "v0.1.0"}}`.
 */
export function dependencyVersions(src: string): Map<string, string> {
  return new Map(dependencies(src).map((d) => [d.module, d.version]));
}

/** A dependency of module.cue's `deps`. */
export interface Dependency {
  /** As `deps` keys it, with the major version: `example.com/pets@v0`. */
  key: string;
  /** Without the major version: `example.com/pets`. */
  module: string;
  version: string;
  /** Where module.cue gives the version. */
  line: number;
  column: number;
}

/** The dependencies of module.cue's `deps`, in the file's order. */
export function dependencies(src: string): Dependency[] {
  const out: Dependency[] = [];
  let parsed: ParsedFile;
  try {
    parsed = parseFile(MODULE_FILE, src, newTopScope());
  } catch {
    return out;
  }
  for (const s of parsed.sites) {
    if (s.path?.length !== 3 || s.path[0] !== "deps" || s.path[2] !== "v") continue;
    const v = s.valueText && /^"(v[0-9][^"\\]*)"$/.exec(s.valueText)?.[1];
    if (!v) continue;
    out.push({
      key: s.path[1],
      module: s.path[1].replace(/@v\d+$/, ""),
      version: v,
      line: s.line,
      column: s.column,
    });
  }
  return out;
}

/** The module path of a package's import path, for a vendored one: the longest `deps` entry it is under. */
export function dependencyOf(
  importPath: string,
  deps: ReadonlyMap<string, string>,
): { module: string; version: string } | undefined {
  let best: string | undefined;
  for (const m of deps.keys()) {
    if ((importPath === m || importPath.startsWith(m + "/")) && (!best || m.length > best.length)) {
      best = m;
    }
  }
  return best ? { module: best, version: deps.get(best)! } : undefined;
}

/**
 * The directory, relative to the root, of a package: one of the module's
 * own, or one of a dependency module vendored under {@link VENDOR_DIR} (an
 * import path whose first element is a domain, `example.com/pets/pets`);
 * undefined for another import (CUE's builtin packages, the providers).
 */
export function packageDirectory(modulePath: string, importPath: string): string | undefined {
  const bare = importPath.replace(/:[A-Za-z_][A-Za-z0-9_]*$/, "");
  const bad = (dir: string) =>
    dir.split("/").some((p) => p === "" || p === "." || p === ".." || p === "cue.mod");
  if (bare.startsWith(modulePath + "/")) {
    const dir = bare.slice(modulePath.length + 1);
    return bad(dir) ? undefined : dir;
  }
  if (bare === modulePath || bare.startsWith("pravo.dev/")) return undefined;
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+\//.test(bare) || bad(bare)) return undefined;
  return `${VENDOR_DIR}/${bare}`;
}

/** The import path of a package in the directory `dir` of a root that is the module `modulePath`. */
export function packagePathOf(modulePath: string, dir: string): string {
  return dir.startsWith(VENDOR_DIR + "/")
    ? dir.slice(VENDOR_DIR.length + 1)
    : `${modulePath}/${dir}`;
}

/** The package name an import of `importPath` gives (`lib/pets` → `pets`, `x:name` → `name`). */
export function packageName(importPath: string): string {
  const q = /:([A-Za-z_][A-Za-z0-9_]*)$/.exec(importPath);
  if (q) return q[1];
  const last = importPath.split("/").pop()!;
  return last.replace(/@v\d+$/, "");
}

/** A parsed package of the root's module. */
export interface ModulePackage {
  /** The import path: `example.com/infra/lib/pets`. */
  path: string;
  /** Its directory, relative to the root. */
  dir: string;
  files: { name: string; src: string; parsed: ParsedFile }[];
}

/**
 * A top scope for files that import packages of the module: each import
 * name is a declaration at the package's label, so that references into
 * the package resolve to its declarations.
 */
export function declareImports(
  top: Scope,
  file: string,
  src: string,
  modulePath: string | undefined,
): void {
  if (!modulePath) return;
  // The import clauses, as parseFile will find them; a throwaway scope.
  let imports: ParsedFile["imports"];
  try {
    imports = parseFile(file, src, newTopScope()).imports;
  } catch {
    return; // the syntax error is reported where the file is parsed
  }
  for (const imp of imports) {
    if (packageDirectory(modulePath, imp.path) === undefined) continue;
    const site: Site = {
      label: imp.name,
      kind: "regular",
      path: [packageLabel(imp.path.replace(/:[A-Za-z_][A-Za-z0-9_]*$/, ""))],
      file,
      line: imp.line,
      column: imp.column,
      refs: [],
      scope: top,
      attrs: [],
      optional: false,
      nonRegular: true,
      owner: null,
    };
    top.sites.set(imp.name, [...(top.sites.get(imp.name) ?? []), site]);
  }
}

/**
 * Where a node's configuration is written: the CUE package whose file
 * declares its type (`example.com/pets/pets`), and the module that package
 * belongs to with the version module.cue's `deps` give it; for the root's
 * own files, the root's module. None in a root that is no CUE module.
 */
export interface NodeOrigin {
  /** The package's import path (the module's own path for the root's files). */
  package: string;
  /** The module: the root's own, or a dependency's. */
  module?: string;
  /** The dependency module's version, as module.cue's deps give it. */
  version?: string;
  /**
   * For a module fetched from a registry: the SHA-256 of its zip, as
   * pravo.lock.json pins it and pravo checked when it read the files.
   */
  digest?: string;
}
