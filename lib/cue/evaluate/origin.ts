/**
 * Where a node's type is declared: the package (and module, with its
 * version and digest) whose file declares it, which policies may ask of.
 *
 * @module
 */

import type { LockedModule } from "../../providers/install/lock.ts";
import {
  dependencyOf,
  dependencyVersions,
  MODULE_FILE,
  type NodeOrigin,
  packagePathOf,
  VENDOR_DIR,
} from "../modules.ts";
import type { Sources } from "../sources/sources.ts";
import { Deps, TYPE_MODES } from "./deps.ts";

/**
 * The origin of the node at a path: the package whose file declares a
 * node's type (through the aliases of definitions): the root's files, a
 * package of the module, or one of a vendored dependency module with the
 * version module.cue gives it. None in a root that is no CUE module. The
 * sources are read (and the lock file) when first asked.
 */
export function nodeOrigins(sources: Sources): (path: string[]) => NodeOrigin | undefined {
  const depVersions = dependencyVersions(
    sources.given.find((f) => f.name === MODULE_FILE)?.src ?? "",
  );
  let deps: Deps | undefined;
  let locked: [string, LockedModule][] | undefined;
  const lockedModules = () => {
    if (locked) return locked;
    try {
      locked = Object.entries(sources.workspace.lock?.modules ?? {});
    } catch {
      locked = []; // a malformed lock was refused when the sources were read
    }
    return locked;
  };
  return (path) => {
    deps ??= new Deps(sources, []);
    const file = deps.sitesFor(path).find(({ site }) =>
      site.refs.some((r) => r.selectors.some((x) => x in TYPE_MODES))
    )?.site.file;
    if (!sources.modulePath) return undefined; // the root's files, and nothing else
    // Not found: said as unknown, which no policy's allowed origin matches.
    if (file === undefined) return { package: "", module: "" };
    const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : undefined;
    if (dir === undefined) return { package: sources.modulePath, module: sources.modulePath };
    const pkg = packagePathOf(sources.modulePath, dir);
    if (!dir.startsWith(VENDOR_DIR + "/")) return { package: pkg, module: sources.modulePath };
    const dep = dependencyOf(pkg, depVersions);
    if (!dep) return { package: pkg };
    // Fetched from a registry, and checked against the lock's digest when read.
    const pin = lockedModules().find(([k]) => k.replace(/@v\d+$/, "") === dep.module)?.[1];
    return pin
      ? { package: pkg, module: dep.module, version: pin.version, digest: pin.digest }
      : { package: pkg, module: dep.module, version: dep.version };
  };
}
