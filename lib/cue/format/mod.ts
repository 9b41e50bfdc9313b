/**
 * CUE's canonical formatting (`cue fmt` of CUE v0.4.3), written on pravo's
 * scanner: `formatSource(src)` returns the formatted text or throws
 * {@link FormatSyntaxError} with the line and column of what it cannot read.
 * It evaluates nothing, so it never loads cue-wasm.
 *
 * @module
 */

import { parseSource } from "./parser.ts";
import { printFile } from "./declarations.ts";

export { FormatSyntaxError } from "./tokens.ts";

/** Formats the text of one `.cue` file. */
export function formatSource(src: string): string {
  return printFile(parseSource(src));
}
