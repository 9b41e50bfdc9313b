/**
 * Reading a root: its `.cue` files, and when it is a CUE module, the files
 * of the packages they import; then checked without CUE (parse.ts).
 *
 * @module
 */

import { type Diagnostic, error } from "../../diag/diag.ts";
import { decodeUtf8 } from "../../diag/text.ts";
import type { Result } from "../result.ts";
import { cueFilesIn, notUtf8, readSource } from "./files.ts";
import { readModule } from "./module_files.ts";
import { parseSources } from "./parse.ts";
import type { Sources, SourcesWorkspace, SourceText } from "./sources.ts";

/**
 * Reads the root's `.cue` files and checks what can be checked without CUE,
 * against `providers` (the workspace's).
 */
export function readRoot(root: string, providers: SourcesWorkspace): Result<Sources> {
  let names: string[];
  try {
    names = cueFilesIn(root);
  } catch (e) {
    return {
      ok: false,
      diagnostics: [
        error(
          "Cannot read the root",
          `Reading the directory "${root}" failed: ${
            (e as Error).message
          }. Check the path given with -C, or run pravo in the root.`,
        ),
      ],
    };
  }
  if (names.length === 0) {
    return {
      ok: false,
      diagnostics: [
        error(
          "No .cue files in the root",
          `"${root}" holds no .cue file. Write the specification in a file such as main.cue that starts with a package clause, or give the root with -C DIR.`,
        ),
      ],
    };
  }
  // CUE source is UTF-8 text: a file that is not is refused where it stops
  // being so, rather than read with U+FFFD in place of what it holds.
  const given: SourceText[] = [];
  const diags: Diagnostic[] = [];
  const readText = (name: string): string | undefined => {
    const bytes = readSource(root, name);
    if (!(bytes instanceof Uint8Array)) {
      diags.push(bytes);
      return undefined;
    }
    const read = decodeUtf8(bytes);
    if (read.ok) return read.text;
    diags.push(notUtf8(name, read.bad));
    return undefined;
  };
  for (const name of names) {
    const src = readText(name);
    if (src !== undefined) given.push({ name, src });
  }
  if (diags.length) return { ok: false, diagnostics: diags };
  given.push(...readModule(root, { rootFiles: given, readText, diags, workspace: providers }));
  if (diags.length) return { ok: false, diagnostics: diags };
  return parseSources(root, given, providers);
}
