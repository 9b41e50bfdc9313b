/**
 * Parsing a root's files: the root's own in one scope, and, when the root
 * is a CUE module, each package of the module in a scope of its own under
 * the package's label (modules.ts). A syntax error is a diagnostic.
 *
 * @module
 */

import { type Diagnostic, error } from "../../diag/diag.ts";
import {
  declareImports,
  MODULE_FILE,
  type ModulePackage,
  packageLabel,
  packagePathOf,
  readModuleFile,
} from "../modules.ts";
import { newTopScope, type ParsedFile, parseFile, type Scope, SyntaxError } from "../syntax/mod.ts";
import { pos, type Sources, type SourceText } from "./sources.ts";

/** The files of a root, parsed. */
export interface ParsedSources {
  /** The root's own files. */
  files: Sources["files"];
  /** The packages of the module that the sources hold. */
  packages: ModulePackage[];
  /** The root's module path, when it is a CUE module. */
  modulePath?: string;
  /** `cue.mod/module.cue`'s text, when the sources hold it. */
  moduleSrc?: string;
  diagnostics: Diagnostic[];
}

/** Parses the sources: the root's files (names without a `/`) and the module's packages. */
export function parseFiles(all: readonly SourceText[]): ParsedSources {
  const diags: Diagnostic[] = [];
  // The root's own files; the module's declaration and packages (modules.ts).
  const given = all.filter((f) => !f.name.includes("/"));
  const moduleFile = all.find((f) => f.name === MODULE_FILE);
  let modulePath: string | undefined;
  if (moduleFile) {
    const declared = readModuleFile(moduleFile.src);
    if ("path" in declared) modulePath = declared.path;
    else diags.push(declared);
  }
  const parse = (name: string, src: string, scope: Scope): ParsedFile | undefined => {
    try {
      declareImports(scope, name, src, modulePath);
      return parseFile(name, src, scope);
    } catch (e) {
      if (!(e instanceof SyntaxError)) throw e;
      diags.push(
        error("Syntax error", `${e.message}. Correct the syntax at this place.`, {
          range: pos(e.file, e.line, e.column),
        }),
      );
      return undefined;
    }
  };
  const top = newTopScope();
  const files: Sources["files"] = [];
  for (const { name, src } of given) {
    const parsed = parse(name, src, top);
    if (parsed) files.push({ name, src, parsed });
  }
  const packages = modulePath ? _modulePackages(all, modulePath, parse, diags) : [];
  return { files, packages, modulePath, moduleSrc: moduleFile?.src, diagnostics: diags };
}

/** The packages of the module, by directory, each parsed in a scope of its own. */
function _modulePackages(
  all: readonly SourceText[],
  modulePath: string,
  parse: (name: string, src: string, scope: Scope) => ParsedFile | undefined,
  diags: Diagnostic[],
): ModulePackage[] {
  const packages: ModulePackage[] = [];
  const byDir = new Map<string, SourceText[]>();
  for (const f of all) {
    if (!f.name.includes("/") || f.name === MODULE_FILE) continue;
    const dir = f.name.slice(0, f.name.lastIndexOf("/"));
    byDir.set(dir, [...(byDir.get(dir) ?? []), f]);
  }
  for (const [dir, fs] of [...byDir].sort()) {
    const path = packagePathOf(modulePath, dir);
    // One scope a package; its declarations lie under the package's label.
    const scope = { ...newTopScope(), path: [packageLabel(path)] };
    const pkg: ModulePackage = { path, dir, files: [] };
    for (const { name, src } of fs) {
      const parsed = parse(name, src, scope);
      if (parsed) pkg.files.push({ name, src, parsed });
    }
    const names = new Set(pkg.files.map((f) => f.parsed.packageName));
    if (names.size > 1) {
      diags.push(
        error(
          `The files of ${dir} are of several packages`,
          `A directory of the module holds one package; ${dir} has files of packages ${
            [...names].join(", ")
          }. Give them one package clause.`,
          { range: pos(pkg.files[0].name, pkg.files[0].parsed.packageLine ?? 1, 1) },
        ),
      );
    }
    packages.push(pkg);
  }
  return packages;
}
