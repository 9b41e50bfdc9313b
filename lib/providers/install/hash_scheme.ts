/**
 * The forms of the hashes a lock holds (`hash.ts` computes them), apart so
 * that reading a lock file loads no hashing code.
 *
 * @module
 */

/** `h1:<base64>` or `zh:<hex>`. */
export type Hash = string;

/** The hash schemes pravo reads and writes. */
export type HashScheme = "h1" | "zh";

const H1 = /^h1:[A-Za-z0-9+/]{43}=$/;
const ZH = /^zh:[0-9a-f]{64}$/;

/** The scheme of a well-formed hash, else undefined. */
export function hashScheme(hash: string): HashScheme | undefined {
  if (H1.test(hash)) return "h1";
  if (ZH.test(hash)) return "zh";
  return undefined;
}
