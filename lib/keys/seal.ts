/**
 * Sealing: authenticated encryption (AES-256-GCM) with a key derived from
 * pravo's key (`key.ts`). A sealed value is `nonce (12 bytes) || ciphertext
 * || tag (16 bytes)`; the associated data binds it to where it belongs (a
 * plan file's header, a record's address), so that a sealed value moved
 * elsewhere does not open.
 *
 * @module
 */

import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const NONCE = 12;
const TAG = 16;

/** Seals `plaintext` under `key` (32 bytes), bound to `aad`. */
export function seal(key: Uint8Array, plaintext: Uint8Array, aad: Uint8Array): Uint8Array {
  const nonce = randomBytes(NONCE);
  const c = createCipheriv("aes-256-gcm", key, nonce);
  c.setAAD(aad);
  const body = Buffer.concat([c.update(plaintext), c.final()]);
  const out = new Uint8Array(NONCE + body.length + TAG);
  out.set(nonce, 0);
  out.set(body, NONCE);
  out.set(c.getAuthTag(), NONCE + body.length);
  return out;
}

/** Opens what {@link seal} made; undefined when the key, the data or `aad` differ. */
export function unseal(
  key: Uint8Array,
  sealed: Uint8Array,
  aad: Uint8Array,
): Uint8Array | undefined {
  if (sealed.length < NONCE + TAG) return undefined;
  try {
    const d = createDecipheriv("aes-256-gcm", key, sealed.subarray(0, NONCE));
    d.setAAD(aad);
    d.setAuthTag(sealed.subarray(sealed.length - TAG));
    return new Uint8Array(
      Buffer.concat([d.update(sealed.subarray(NONCE, sealed.length - TAG)), d.final()]),
    );
  } catch {
    return undefined;
  }
}

const enc = new TextEncoder();
const dec = new TextDecoder();

/** Seals a string; the result is base64. */
export function sealText(key: Uint8Array, text: string, aad: string): string {
  return Buffer.from(seal(key, enc.encode(text), enc.encode(aad))).toString("base64");
}

/** Opens what {@link sealText} made; undefined when it does not open. */
export function unsealText(key: Uint8Array, sealed: string, aad: string): string | undefined {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(Buffer.from(sealed, "base64"));
  } catch {
    return undefined;
  }
  const out = unseal(key, bytes, enc.encode(aad));
  return out === undefined ? undefined : dec.decode(out);
}
