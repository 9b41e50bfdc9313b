/**
 * The package a root's files are in: one for all, the one most of them name.
 *
 * @module
 */

import { type Diagnostic, error } from "../../diag/diag.ts";
import { pos, type Sources } from "./sources.ts";

/**
 * The root's package: the first file's name, unless most files agree on
 * another; a file without a package clause, or of another package, is a
 * diagnostic.
 */
export function packageNameOf(
  files: Sources["files"],
): { packageName?: string; diagnostics: Diagnostic[] } {
  const diags: Diagnostic[] = [];
  const counts = new Map<string, number>();
  for (const f of files) {
    if (f.parsed.packageName) {
      counts.set(f.parsed.packageName, (counts.get(f.parsed.packageName) ?? 0) + 1);
    }
  }
  const packageName = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  for (const f of files) {
    if (!f.parsed.packageName) {
      diags.push(
        error(
          "File without a package clause",
          `${f.name} does not say which package it belongs to. Add "package ${
            packageName ?? "main"
          }" as its first line.`,
          { range: pos(f.name, 1, 1) },
        ),
      );
    } else if (packageName && f.parsed.packageName !== packageName) {
      diags.push(
        error(
          "File of another package",
          `${f.name} is in package "${f.parsed.packageName}", but the root's files are in package "${packageName}". A root holds one package: change its package clause to "package ${packageName}", or move the file out of the root.`,
          { range: pos(f.name, f.parsed.packageLine ?? 1, 1) },
        ),
      );
    }
  }
  return { packageName, diagnostics: diags };
}
