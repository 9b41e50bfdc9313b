/**
 * CUE's syntax as pravo reads it: the scanner (tokens with positions) and the
 * structural parser (the package clause, imports, every field declaration
 * with its path and position, the references in each value, and the syntax
 * errors, with positions). It evaluates nothing: cue-wasm does that.
 *
 * @module
 */

export { MAX_NESTING, scan, ScanError, type Token, type TokenKind } from "./scanner.ts";
export {
  type Generator,
  type ImportSpec,
  MAX_OPERATORS,
  newTopScope,
  type ParsedFile,
  parseFile,
  type Ref,
  resolve,
  type Scope,
  type Site,
  type SiteKind,
  SyntaxError,
} from "./parser.ts";
