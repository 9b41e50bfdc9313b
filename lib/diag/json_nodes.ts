/**
 * A JSON document as a tree of nodes with offsets, so that a refused value
 * is reported with its file, line and column; and a strict JSON parser that
 * builds it with nothing but this file (for `pravo.lock.json`, read by
 * commands that must stay light). `json_tree.ts` builds the same tree from
 * JSONC with `jsonc-parser`.
 *
 * @module
 */

import type { SourcePos } from "./diag.ts";

/** A node: the shape `jsonc-parser`'s `parseTree` gives, for the fields read here. */
export interface JsonNode {
  type: "object" | "array" | "property" | "string" | "number" | "boolean" | "null";
  value?: unknown;
  offset: number;
  length: number;
  children?: JsonNode[];
}

/** A parsed document: its tree and where a node is. */
export interface JsonDoc {
  root: JsonNode;
  /** The file, line and column where a node starts. */
  at(node: JsonNode): SourcePos;
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

/** The properties of an object node: key, the key's node and the value's node. */
export function properties(
  node: JsonNode,
): { key: string; keyNode: JsonNode; valueNode: JsonNode }[] {
  if (node.type !== "object") return [];
  return (node.children ?? []).flatMap((p) => {
    const [k, v] = p.children ?? [];
    return k && v ? [{ key: String(k.value), keyNode: k, valueNode: v }] : [];
  });
}

/** The plain value of a node (objects and arrays rebuilt). */
export function nodeValue(node: JsonNode): unknown {
  switch (node.type) {
    case "object":
      return Object.fromEntries(properties(node).map((p) => [p.key, nodeValue(p.valueNode)]));
    case "array":
      return (node.children ?? []).map(nodeValue);
    default:
      return node.value;
  }
}

// A JSON string: control characters must be escaped in it.
// deno-lint-ignore no-control-regex
const STRING = /"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/y;
const LITERAL = /true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

class Syntax extends Error {
  offset: number;
  constructor(message: string, offset: number) {
    super(message);
    this.offset = offset;
  }
}

/**
 * Parses strict JSON (no comments, no trailing commas) into a tree; returns
 * the first syntax error otherwise.
 *
 * @example
 * ```ts
 * import { parseStrictJson, properties } from "./json_nodes.ts";
 * const doc = parseStrictJson('{\n  "a": [1, true]\n}', "x.json");
 * if (!("root" in doc) || doc.at(properties(doc.root)[0].valueNode).line !== 2) throw new Error();
 * ```
 */
export function parseStrictJson(text: string, file: string): JsonDoc | JsonSyntaxError {
  let p = 0;
  const ws = () => {
    while (p < text.length && " \t\n\r".includes(text[p])) p++;
  };
  /** An object or an array at its bracket: `element`s, a comma between two, up to `close`. */
  const container = (type: "object" | "array", close: string, element: () => JsonNode) => {
    const start = p++;
    const children: JsonNode[] = [];
    ws();
    if (text[p] !== close) {
      for (;;) {
        children.push(element());
        ws();
        if (text[p] === close) break;
        if (text[p] !== ",") throw new Syntax("comma expected", p);
        p++;
      }
    }
    p++;
    return { type, offset: start, length: p - start, children };
  };
  /** `"key": value` in an object. */
  const property = (): JsonNode => {
    ws();
    if (text[p] !== '"') throw new Syntax("property name expected", p);
    const key = value();
    ws();
    if (text[p] !== ":") throw new Syntax("colon expected", p);
    p++;
    const v = value();
    const length = v.offset + v.length - key.offset;
    return { type: "property", offset: key.offset, length, children: [key, v] };
  };
  const value = (): JsonNode => {
    ws();
    const start = p;
    const c = text[p];
    if (c === "{") return container("object", "}", property);
    if (c === "[") return container("array", "]", value);
    if (c === '"') {
      STRING.lastIndex = p;
      const m = STRING.exec(text);
      if (!m) throw new Syntax("invalid string", p);
      p += m[0].length;
      return { type: "string", value: JSON.parse(m[0]), offset: start, length: m[0].length };
    }
    LITERAL.lastIndex = p;
    const m = LITERAL.exec(text);
    if (!m) throw new Syntax(p >= text.length ? "value expected" : "invalid symbol", p);
    p += m[0].length;
    const v = JSON.parse(m[0]);
    const type = v === null ? "null" : typeof v === "boolean" ? "boolean" : "number";
    return { type, value: v, offset: start, length: m[0].length };
  };
  const at = (offset: number): SourcePos => ({ file, ...lineColumn(text, offset) });
  try {
    const root = value();
    ws();
    if (p < text.length) throw new Syntax("end of file expected", p);
    return { root, at: (node) => at(node.offset) };
  } catch (e) {
    if (!(e instanceof Syntax)) throw e;
    return { message: e.message, pos: at(e.offset) };
  }
}
