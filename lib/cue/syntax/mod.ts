/**
 * CUE's syntax as pravo reads it: the scanner (tokens with positions) and the
 * structural parser (the package clause, imports, every field declaration
 * with its path and position, the references in each value, and the syntax
 * errors, with positions). It evaluates nothing: cue-wasm does that.
 *
 * @module
 */

export { MAX_NESTING, scan, ScanError, type Token, type TokenKind } from "./scanner.ts";
export { MAX_OPERATORS } from "./expressions.ts";
export { parseFile } from "./parser.ts";
export { SyntaxError } from "./reader.ts";
export {
  type Generator,
  type ImportSpec,
  newTopScope,
  type ParsedFile,
  type Ref,
  resolve,
  type Scope,
  type Site,
  type SiteKind,
} from "./sites.ts";
