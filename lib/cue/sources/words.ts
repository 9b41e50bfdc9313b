/**
 * The words of a root's files: every identifier and label, in
 * interpolations too. A plugin provider's package is generated with the
 * types the files may use, those whose names are among them.
 *
 * @module
 */

import type { Token } from "../syntax/scanner.ts";
import { allFiles, type Sources } from "./sources.ts";

/** Every identifier of the files, the module's packages' included. */
export function wordsOf(parsed: Pick<Sources, "files" | "packages">): Set<string> {
  const words = new Set<string>();
  const collect = (toks: Token[]) => {
    for (const t of toks) {
      if (t.kind === "ident") words.add(t.text);
      if (t.interpolations) t.interpolations.forEach(collect);
    }
  };
  for (const f of allFiles(parsed)) collect(f.parsed.tokens);
  return words;
}
