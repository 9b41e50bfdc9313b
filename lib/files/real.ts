/**
 * Real paths: where a path leads once its links are followed.
 *
 * @module
 */

import { realpathSync } from "node:fs";
import { resolve, sep } from "node:path";

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
