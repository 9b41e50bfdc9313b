/**
 * Bytes: base64 and hexadecimal, and joining byte arrays. One body each for
 * the whole program.
 *
 * @module
 */

import { Buffer } from "node:buffer";

/** Standard base64 of `bytes`, with padding. */
export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

/** URL-safe base64 of `bytes`, without padding. */
export function toBase64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64url");
}

/**
 * Decodes standard base64 (white space ignored), or undefined when `text` is
 * not valid base64.
 */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  const clean = text.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 === 1) return undefined;
  return new Uint8Array(Buffer.from(clean, "base64"));
}

/** Lower-case hexadecimal of `bytes`. */
export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}

/** The bytes of `parts`, one after the other. */
export function concat(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
