/**
 * JSONC (comments, trailing commas) read as a tree with positions, with
 * `jsonc-parser`'s `parseTree`: the tree of `json_nodes.ts`, so that a
 * refused setting is reported with its file, line and column.
 *
 * @module
 */

import { type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import type { SourcePos } from "./diag.ts";
import { type JsonDoc, type JsonNode, type JsonSyntaxError, lineColumn } from "./json_nodes.ts";

export {
  type JsonDoc,
  type JsonNode,
  type JsonSyntaxError,
  lineColumn,
  nodeValue,
  properties,
} from "./json_nodes.ts";

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
  return { root: root as JsonNode, at: (node) => at(node.offset) };
}
