/**
 * The dependency modules a root's `pravo.lock.json` pins, read from pravo's
 * module cache (or what `pravo mcp` pinned) as if they were vendored.
 *
 * @module
 */

import { lstatSync } from "node:fs";
import { join } from "node:path";
import { type Diagnostic, DiagnosticsError, error, type SourcePos } from "../../diag/diag.ts";
import { decodeUtf8 } from "../../diag/text.ts";
import type { LockedModule } from "../../providers/install/lock.ts";
import { lockedModuleFiles, ModuleReadError } from "../module_cache.ts";
import { dependencyVersions, VENDOR_DIR } from "../modules.ts";
import { notUtf8 } from "./files.ts";
import type { SourcesWorkspace, SourceText } from "./sources.ts";

/** The files of the locked modules' packages, by import path. */
export interface RegistryModules {
  filesOf(importPath: string, at: { range: SourcePos }): SourceText[] | undefined;
}

/**
 * The dependency modules `pravo.lock.json` pins, which `pravo init` fetched
 * from a registry (registry.ts, module_cache.ts): `filesOf(importPath)`
 * gives the files of a package of one of them, named as if vendored
 * (`cue.mod/pkg/example.com/pets/pets/pets.cue`), or undefined when no
 * locked module holds the package. Each module is read once, from pravo's
 * cache (or what `pravo mcp` pinned), and checked against the lock; a
 * module.cue whose deps ask another version than the lock, or a vendored
 * copy beside a locked one, is a diagnostic.
 */
export function registryModules(
  root: string,
  from: {
    moduleSrc: string;
    diags: Diagnostic[];
    /** The workspace: its lock (the modules it pins), and what `pravo mcp` pinned. */
    workspace: Pick<SourcesWorkspace, "lock" | "pinned">;
  },
): RegistryModules {
  const { moduleSrc, diags, workspace } = from;
  let lock: Record<string, LockedModule> | undefined;
  const wanted = dependencyVersions(moduleSrc);
  const read = new Map<string, Map<string, Uint8Array> | undefined>();
  return {
    filesOf(importPath, at) {
      if (lock === undefined) {
        try {
          lock = workspace.lock?.modules ?? {};
        } catch (e) {
          if (!(e instanceof DiagnosticsError)) throw e;
          diags.push(...e.diagnostics);
          lock = {};
        }
      }
      let key: string | undefined;
      for (const k of Object.keys(lock)) {
        const bare = k.replace(/@v\d+$/, "");
        if (importPath !== bare && !importPath.startsWith(bare + "/")) continue;
        if (!key || bare.length > key.replace(/@v\d+$/, "").length) key = k;
      }
      if (key === undefined) return undefined;
      const bare = key.replace(/@v\d+$/, "");
      const pin = lock[key];
      if (!read.has(key)) {
        read.set(key, undefined);
        let vendored = false;
        try {
          lstatSync(join(root, VENDOR_DIR, bare));
          vendored = true;
        } catch { /* not vendored */ }
        if (vendored) {
          diags.push(error(
            `${bare} is both vendored and pinned from a registry`,
            `${VENDOR_DIR}/${bare} holds a copy of the module, and pravo.lock.json pins ${key} ${pin.version} from a registry: pravo does not choose between them. Remove the vendored copy, or remove the module from pravo.lock.json by running \`pravo init\` with it vendored.`,
            at,
          ));
        } else if (wanted.get(bare) !== pin.version) {
          diags.push(error(
            `pravo.lock.json pins another version of ${bare}`,
            `${
              wanted.has(bare)
                ? `cue.mod/module.cue's deps ask ${key} ${wanted.get(bare)}`
                : `cue.mod/module.cue's deps do not list ${key}`
            }, and pravo.lock.json pins ${pin.version}; nothing is fetched until \`pravo init\` runs. Run \`pravo init\` to fetch and pin the version module.cue asks, or ask ${pin.version} there.`,
            at,
          ));
        } else {
          try {
            read.set(key, lockedModuleFiles(key, pin, workspace.pinned));
          } catch (e) {
            if (!(e instanceof ModuleReadError)) throw e;
            diags.push(error(`Cannot read the module ${key}`, `${e.message}.`, at));
          }
        }
      }
      const files = read.get(key);
      if (!files) return [];
      const sub = importPath === bare ? "" : importPath.slice(bare.length + 1) + "/";
      const out: SourceText[] = [];
      for (const [name, bytes] of [...files].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)) {
        if (!name.startsWith(sub) || !name.endsWith(".cue")) continue;
        const rest = name.slice(sub.length);
        if (rest.includes("/")) continue;
        const shown = `${VENDOR_DIR}/${importPath}/${rest}`;
        const text = decodeUtf8(bytes);
        if (!text.ok) {
          diags.push(notUtf8(shown, text.bad));
          continue;
        }
        out.push({ name: shown, src: text.text });
      }
      return out;
    },
  };
}
