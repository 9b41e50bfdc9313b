/**
 * Reading the text files of a root strictly: a file that is not UTF-8 is
 * refused at its first bad byte (line and column), instead of being read
 * with U+FFFD in place of what it held; JSON text is checked for how deep it
 * nests before a recursive parser meets it.
 *
 * @module
 */

/** Where a file stops being UTF-8. Line and column count from 1; the column in characters. */
export interface BadByte {
  offset: number;
  line: number;
  column: number;
  /** The first byte of the bad sequence, as `0xE9`. */
  byte: string;
}

/**
 * The first byte of `bytes` that does not begin (or continue) a well-formed
 * UTF-8 sequence (RFC 3629: no overlong forms, no surrogates, nothing above
 * U+10FFFF), or undefined when all of it is UTF-8.
 *
 * @example
 * ```ts
 * import { firstBadUtf8 } from "./text.ts";
 * const bad = firstBadUtf8(new Uint8Array([0x61, 0x0a, 0x63, 0x61, 0x66, 0xe9, 0x2e]));
 * if (bad?.line !== 2 || bad.column !== 4 || bad.byte !== "0xE9") throw new Error("wrong");
 * ```
 */
export function firstBadUtf8(bytes: Uint8Array): BadByte | undefined {
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let len: number;
    let lo = 0x80, hi = 0xbf; // the range of the second byte
    if (b >= 0xc2 && b <= 0xdf) len = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      len = 3;
      if (b === 0xe0) lo = 0xa0; // no overlong form
      if (b === 0xed) hi = 0x9f; // no surrogate
    } else if (b >= 0xf0 && b <= 0xf4) {
      len = 4;
      if (b === 0xf0) lo = 0x90; // no overlong form
      if (b === 0xf4) hi = 0x8f; // nothing above U+10FFFF
    } else return at(bytes, i);
    if (i + len > n) return at(bytes, i);
    if (bytes[i + 1] < lo || bytes[i + 1] > hi) return at(bytes, i);
    for (let k = 2; k < len; k++) {
      if (bytes[i + k] < 0x80 || bytes[i + k] > 0xbf) return at(bytes, i);
    }
    i += len;
  }
  return undefined;
}

function at(bytes: Uint8Array, offset: number): BadByte {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      start = i + 1;
    }
  }
  // The part of the line before it is UTF-8: count its characters.
  const before = new TextDecoder().decode(bytes.subarray(start, offset));
  return {
    offset,
    line,
    column: [...before].length + 1,
    byte: `0x${bytes[offset].toString(16).toUpperCase().padStart(2, "0")}`,
  };
}

/** The text of `bytes`, or where it is not UTF-8. A byte order mark is dropped. */
export function decodeUtf8(
  bytes: Uint8Array,
): { ok: true; text: string } | { ok: false; bad: BadByte } {
  const bad = firstBadUtf8(bytes);
  if (bad) return { ok: false, bad };
  return { ok: true, text: new TextDecoder().decode(bytes) };
}

/**
 * Where JSON (or JSONC) text first nests deeper than `max` objects and
 * arrays, as an offset; undefined when it does not. Strings and comments are
 * skipped.
 *
 * @example
 * ```ts
 * import { jsonTooDeep } from "./text.ts";
 * if (jsonTooDeep('{"a": [[1]], "b": "[[[["}', 3) !== undefined) throw new Error("too strict");
 * if (jsonTooDeep("[[[[1]]]]", 3) !== 3) throw new Error("missed");
 * ```
 */
export function jsonTooDeep(text: string, max: number): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 1;
    } else if (c === "{" || c === "[") {
      if (++depth > max) return i;
    } else if (c === "}" || c === "]") {
      depth--;
    }
  }
  return undefined;
}

/** The line and column (from 1) of `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}
