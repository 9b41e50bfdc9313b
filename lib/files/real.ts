/**
 * Real paths: where a path leads once its links are followed.
 *
 * @module
 */

import { realpathSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";

/** The real path of `p`, or `p` made absolute when it does not exist (or cannot be read). */
export function realOrResolved(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

/** True when `file` lies inside `root` (or is it), links followed where they exist. */
export function liesInside(root: string, file: string): boolean {
  const r = realOrResolved(root);
  const f = realOrResolved(file);
  return f === r || f.startsWith(r + sep);
}

/** True when `path` is `dir` or lies below it, by their text alone (no link is followed). */
export function isInside(dir: string, path: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/**
 * The real path of an absolute `path` of which only a part may exist: its
 * nearest existing ancestor's real path (links resolved), plus the rest.
 */
export function realish(path: string): string {
  let probe = path;
  const rest: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(probe), ...rest.reverse());
    } catch {
      const up = dirname(probe);
      if (up === probe) return path;
      rest.push(probe.slice(up.length).replace(/^\/+/, ""));
      probe = up;
    }
  }
}
