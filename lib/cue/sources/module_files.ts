/**
 * The files of a root that is a CUE module: its `cue.mod/module.cue`, and
 * the files of every package of the module (or of a dependency module,
 * vendored or pinned from a registry) that the root's files import.
 *
 * @module
 */

import { lstatSync } from "node:fs";
import { join } from "node:path";
import { type Diagnostic, error } from "../../diag/diag.ts";
import { ConfinementError, realInsideRoot } from "../../providers/confine.ts";
import { MODULE_FILE, packageDirectory, readModuleFile, VENDOR_DIR } from "../modules.ts";
import { newTopScope, type ParsedFile, parseFile } from "../syntax/mod.ts";
import { cueFilesIn } from "./files.ts";
import { registryModules } from "./registry_modules.ts";
import { pos, type SourcesWorkspace, type SourceText } from "./sources.ts";

/**
 * When the root is a CUE module (modules.ts): its `cue.mod/module.cue`, and
 * the files of every package of the module that the files import, read
 * beneath the root, as names relative to it.
 */
/** How {@link readModule} reads: the root's files read, the reader of a file, where problems go. */
export interface ModuleReader {
  /** The root's own files, whose imports say which packages to read. */
  rootFiles: readonly SourceText[];
  /** A file's text by its name relative to the root; undefined when it cannot be read (said in `diags`). */
  readText: (name: string) => string | undefined;
  diags: Diagnostic[];
  /** The workspace: the lock's modules, what `pravo mcp` pinned. */
  workspace: Pick<SourcesWorkspace, "lock" | "pinned">;
}

export function readModule(root: string, reader: ModuleReader): SourceText[] {
  const { rootFiles, readText, diags } = reader;
  let st;
  try {
    st = lstatSync(join(root, MODULE_FILE));
  } catch {
    return []; // not a module
  }
  if (!st.isFile() && !st.isSymbolicLink()) return [];
  const moduleSrc = readText(MODULE_FILE);
  if (moduleSrc === undefined) return [];
  const out = [{ name: MODULE_FILE, src: moduleSrc }];
  const declared = readModuleFile(moduleSrc);
  if (!("path" in declared)) {
    diags.push(declared);
    return out;
  }
  const registry = registryModules(root, { moduleSrc, diags, workspace: reader.workspace });
  const seen = new Set<string>();
  const queue = [...rootFiles];
  while (queue.length) {
    const f = queue.shift()!;
    let imports: ParsedFile["imports"];
    try {
      imports = parseFile(f.name, f.src, newTopScope()).imports;
    } catch {
      continue; // reported where the file is parsed
    }
    for (const imp of imports) {
      const dir = packageDirectory(declared.path, imp.path);
      if (dir === undefined || seen.has(dir)) continue;
      seen.add(dir);
      const at = { range: pos(f.name, imp.line, imp.column) };
      const fromRegistry = dir.startsWith(VENDOR_DIR + "/")
        ? registry.filesOf(dir.slice(VENDOR_DIR.length + 1), at)
        : undefined;
      if (fromRegistry) {
        for (const file of fromRegistry) {
          out.push(file);
          queue.push(file);
        }
        continue;
      }
      let names: string[] = [];
      try {
        // The package's directory by its real path, beneath the root: a
        // link that leads out is not listed.
        names = cueFilesIn(realInsideRoot(root, dir));
      } catch (e) {
        if (e instanceof ConfinementError) {
          diags.push(
            error(
              `Cannot read the package ${dir}: ${e.message}`,
              "pravo reads a package of the module from a directory of the root. Replace the symbolic link by the directory itself.",
              { range: pos(f.name, imp.line, imp.column) },
            ),
          );
        }
        // no such directory: parseSources says so at the import
      }
      for (const n of names) {
        const src = readText(`${dir}/${n}`);
        if (src === undefined) continue;
        const file = { name: `${dir}/${n}`, src };
        out.push(file);
        queue.push(file);
      }
    }
  }
  return out;
}
