/**
 * JSON (and JSONC) read as a tree with positions, so that a refused setting
 * or lock entry is reported with its file, line and column. A thin layer on
 * `jsonc-parser`'s `parseTree`.
 *
 * @module
 */

import { type Node, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import type { SourcePos } from "./diag.ts";

/** A parsed document: its tree and where a node is. */
export interface JsonDoc {
  root: Node;
  /** The file, line and column where a node starts. */
  at(node: Node): SourcePos;
}

/** Why a document did not parse, and where. */
export interface JsonSyntaxError {
  message: string;
  pos: SourcePos;
}

/** The line and column (from 1) of an offset in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}

/**
 * Parses `text` (named `file` in positions); comments and trailing commas
 * only when `jsonc`. Returns the tree, or the first syntax error.
 */
export function parseJsonTree(
  text: string,
  file: string,
  jsonc: boolean,
): JsonDoc | JsonSyntaxError {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, {
    allowTrailingComma: jsonc,
    disallowComments: !jsonc,
  });
  const at = (offset: number): SourcePos => ({ file, ...lineColumn(text, offset) });
  if (errors.length > 0 || !root) {
    const e = errors[0];
    const code = e ? printParseErrorCode(e.error) : "ValueExpected";
    return {
      message: code.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase(),
      pos: at(e?.offset ?? 0),
    };
  }
  return { root, at: (node) => at(node.offset) };
}

/** The properties of an object node: key, the key's node and the value's node. */
export function properties(node: Node): { key: string; keyNode: Node; valueNode: Node }[] {
  if (node.type !== "object") return [];
  return (node.children ?? []).flatMap((p) => {
    const [k, v] = p.children ?? [];
    return k && v ? [{ key: String(k.value), keyNode: k, valueNode: v }] : [];
  });
}

/** The plain value of a node (objects and arrays rebuilt). */
export function nodeValue(node: Node): unknown {
  switch (node.type) {
    case "object":
      return Object.fromEntries(properties(node).map((p) => [p.key, nodeValue(p.valueNode)]));
    case "array":
      return (node.children ?? []).map(nodeValue);
    default:
      return node.value;
  }
}
