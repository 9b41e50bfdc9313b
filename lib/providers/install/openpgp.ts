/**
 * A small OpenPGP verifier, on `node:crypto`, for what provider registries
 * publish: an ASCII-armored public key (or several) and a detached signature
 * of a `SHA256SUMS` file.
 *
 * What it reads (RFC 4880 and RFC 9580):
 *
 * - armor (with its CRC-24 checked when present) and binary packets, in the
 *   old and the new packet formats;
 * - version 4 public keys and subkeys: RSA (algorithms 1 and 3), EdDSA on
 *   Ed25519 (22, the form GnuPG writes), Ed25519 (27) and ECDSA on NIST
 *   P-256, P-384 and P-521 (19);
 * - version 4 signatures of type binary (0x00) or canonical text (0x01),
 *   hashed with SHA-224, SHA-256, SHA-384 or SHA-512; MD5, SHA-1 and
 *   RIPEMD-160 are refused as too weak;
 * - a signature by a subkey counts only when the subkey is bound to its
 *   primary key (a valid 0x18 binding signature, which, when it grants the
 *   signing flag, carries a valid 0x19 back-signature by the subkey, as
 *   GnuPG and Go's openpgp require).
 *
 * What it does not check, as Terraform's trust is in the registry (over
 * TLS) that names the keys: user-ID self-signatures, key flags of a primary
 * key, key expiry and revocations. A signature past its own expiry time is
 * refused.
 *
 * @module
 */

import { createHash, createPublicKey, type KeyObject, verify } from "node:crypto";
import { concat } from "../../bytes.ts";
import { dearmor, OpenPgpError, parsePackets, Reader } from "./openpgp_packets.ts";

export { OpenPgpError };

/** A version 4 public key or subkey. */
export interface PublicKey {
  algorithm: number;
  /** 16 hex digits, upper case. */
  keyId: string;
  /** 40 hex digits, upper case. */
  fingerprint: string;
  /** The packet body, as hashed in fingerprints and binding signatures. */
  body: Uint8Array;
  /** For verification; undefined for an algorithm pravo does not verify with. */
  crypto?: { kind: "rsa" | "eddsa" | "ecdsa"; key: KeyObject; size: number };
}

/** A primary key, its user IDs and its subkeys with their binding signatures. */
export interface KeyBundle {
  primary: PublicKey;
  userIds: string[];
  subkeys: { key: PublicKey; bindings: Signature[] }[];
}

/** A version 4 signature. */
export interface Signature {
  type: number;
  algorithm: number;
  hashAlgorithm: number;
  /** The bytes from the version octet through the hashed subpackets. */
  hashedPart: Uint8Array;
  left16: Uint8Array;
  /** The algorithm-specific values: MPIs, or the raw 64 bytes of Ed25519. */
  values: Uint8Array[];
  created?: number;
  /** Seconds after creation after which it expires; 0 or undefined: never. */
  expiresAfter?: number;
  issuerKeyId?: string;
  issuerFingerprint?: string;
  keyFlags?: number;
  embedded: Signature[];
}

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
const b64url = (b: Uint8Array) =>
  btoa(String.fromCharCode(...b)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

function stripZeros(b: Uint8Array): Uint8Array {
  let i = 0;
  while (i < b.length - 1 && b[i] === 0) i++;
  return b.subarray(i);
}

function leftPad(b: Uint8Array, size: number): Uint8Array {
  const s = stripZeros(b);
  if (s.length > size) throw new OpenPgpError("a signature value is too long");
  const out = new Uint8Array(size);
  out.set(s, size - s.length);
  return out;
}

const OID_ED25519 = "2b06010401da470f01";
const CURVES: Record<string, { crv: string; size: number }> = {
  "2a8648ce3d030107": { crv: "P-256", size: 32 },
  "2b81040022": { crv: "P-384", size: 48 },
  "2b81040023": { crv: "P-521", size: 66 },
};

// ---------------------------------------------------------------- keys

function parsePublicKey(body: Uint8Array): PublicKey {
  const r = new Reader(body);
  const version = r.byte();
  if (version !== 4) throw new OpenPgpError(`public keys of version ${version} are not supported`);
  r.u32(); // creation time
  const algorithm = r.byte();
  let crypto: PublicKey["crypto"];
  try {
    crypto = keyMaterial(algorithm, r);
  } catch (e) {
    if (e instanceof OpenPgpError) throw e;
    throw new OpenPgpError(`a public key cannot be read: ${(e as Error).message}`);
  }
  const fp = createHash("sha1").update(new Uint8Array([0x99, body.length >> 8, body.length & 0xff]))
    .update(body).digest();
  const fingerprint = hex(new Uint8Array(fp)).toUpperCase();
  return { algorithm, keyId: fingerprint.slice(-16), fingerprint, body, crypto };
}

function keyMaterial(algorithm: number, r: Reader): PublicKey["crypto"] {
  switch (algorithm) {
    case 1:
    case 3: {
      const n = stripZeros(r.mpi());
      const e = stripZeros(r.mpi());
      const key = createPublicKey({
        key: { kty: "RSA", n: b64url(n), e: b64url(e) },
        format: "jwk",
      });
      return { kind: "rsa", key, size: n.length };
    }
    case 22: {
      const oid = hex(r.bytes(r.byte()));
      const point = r.mpi();
      if (oid !== OID_ED25519 || point.length !== 33 || point[0] !== 0x40) return undefined;
      const key = createPublicKey({
        key: { kty: "OKP", crv: "Ed25519", x: b64url(point.subarray(1)) },
        format: "jwk",
      });
      return { kind: "eddsa", key, size: 32 };
    }
    case 27: {
      const raw = r.bytes(32);
      const key = createPublicKey({
        key: { kty: "OKP", crv: "Ed25519", x: b64url(raw) },
        format: "jwk",
      });
      return { kind: "eddsa", key, size: 32 };
    }
    case 19: {
      const curve = CURVES[hex(r.bytes(r.byte()))];
      const point = r.mpi();
      if (!curve || point[0] !== 0x04 || point.length !== 1 + 2 * curve.size) return undefined;
      const key = createPublicKey({
        key: {
          kty: "EC",
          crv: curve.crv,
          x: b64url(point.subarray(1, 1 + curve.size)),
          y: b64url(point.subarray(1 + curve.size)),
        },
        format: "jwk",
      });
      return { kind: "ecdsa", key, size: curve.size };
    }
    default:
      return undefined; // DSA, ElGamal, X25519...: kept, never used to verify
  }
}

/** Reads every key bundle of an armored (or binary) public key block. */
export function readPublicKeys(armoredOrBinary: string | Uint8Array): KeyBundle[] {
  const blocks = typeof armoredOrBinary === "string"
    ? dearmor(armoredOrBinary, "PUBLIC KEY BLOCK")
    : [armoredOrBinary];
  if (blocks.length === 0) throw new OpenPgpError("no armored public key block was found");
  const bundles: KeyBundle[] = [];
  for (const block of blocks) {
    let current: KeyBundle | undefined;
    let lastSubkey: KeyBundle["subkeys"][number] | undefined;
    for (const packet of parsePackets(block)) {
      if (packet.tag === 6) {
        current = { primary: parsePublicKey(packet.body), userIds: [], subkeys: [] };
        lastSubkey = undefined;
        bundles.push(current);
      } else if (!current) {
        throw new OpenPgpError("a key block does not start with a public key");
      } else if (packet.tag === 13) {
        current.userIds.push(new TextDecoder().decode(packet.body));
      } else if (packet.tag === 14) {
        lastSubkey = { key: parsePublicKey(packet.body), bindings: [] };
        current.subkeys.push(lastSubkey);
      } else if (packet.tag === 2 && lastSubkey) {
        try {
          const sig = parseSignature(packet.body);
          if (sig.type === 0x18) lastSubkey.bindings.push(sig);
        } catch {
          // a signature pravo cannot read binds nothing
        }
      }
    }
  }
  if (bundles.length === 0) throw new OpenPgpError("the key block holds no public key");
  return bundles;
}

// ---------------------------------------------------------------- signatures

const HASHES: Record<number, string> = { 8: "sha256", 9: "sha384", 10: "sha512", 11: "sha224" };
const WEAK_HASHES: Record<number, string> = { 1: "MD5", 2: "SHA-1", 3: "RIPEMD-160" };

/** Parses a signature packet's body. */
export function parseSignature(body: Uint8Array): Signature {
  const r = new Reader(body);
  const version = r.byte();
  if (version !== 4) throw new OpenPgpError(`signatures of version ${version} are not supported`);
  const type = r.byte();
  const algorithm = r.byte();
  const hashAlgorithm = r.byte();
  const hashedLength = r.u16();
  const hashed = r.bytes(hashedLength);
  const hashedPart = body.subarray(0, r.p);
  const sig: Signature = {
    type,
    algorithm,
    hashAlgorithm,
    hashedPart,
    left16: new Uint8Array(0),
    values: [],
    embedded: [],
  };
  readSubpackets(hashed, sig, true);
  const unhashed = r.bytes(r.u16());
  readSubpackets(unhashed, sig, false);
  sig.left16 = r.bytes(2);
  if (algorithm === 27) sig.values = [r.bytes(64)];
  else while (!r.done) sig.values.push(r.mpi());
  return sig;
}

const UNDERSTOOD = new Set([
  2,
  3,
  4,
  5,
  7,
  9,
  11,
  12,
  16,
  20,
  21,
  22,
  23,
  24,
  25,
  27,
  28,
  30,
  32,
  33,
]);

function readSubpackets(data: Uint8Array, sig: Signature, hashed: boolean): void {
  const r = new Reader(data);
  while (!r.done) {
    const o = r.byte();
    let len: number;
    if (o < 192) len = o;
    else if (o < 255) len = ((o - 192) << 8) + r.byte() + 192;
    else len = r.u32();
    if (len === 0) throw new OpenPgpError("a signature subpacket is empty");
    const typeByte = r.byte();
    const type = typeByte & 0x7f;
    const critical = (typeByte & 0x80) !== 0;
    const v = r.bytes(len - 1);
    if (hashed && critical && !UNDERSTOOD.has(type)) {
      throw new OpenPgpError(
        `the signature has a critical subpacket pravo does not know (${type})`,
      );
    }
    const vr = new Reader(v);
    switch (type) {
      case 2:
        if (hashed) sig.created = vr.u32();
        break;
      case 3:
        if (hashed) sig.expiresAfter = vr.u32();
        break;
      case 16:
        sig.issuerKeyId ??= hex(v).toUpperCase();
        break;
      case 27:
        if (hashed) sig.keyFlags = v[0] ?? 0;
        break;
      case 32:
        try {
          sig.embedded.push(parseSignature(v));
        } catch {
          // unreadable: as if absent
        }
        break;
      case 33:
        if (v[0] === 4 && v.length === 21) {
          sig.issuerFingerprint ??= hex(v.subarray(1)).toUpperCase();
        }
        break;
    }
  }
}

function hashName(sig: Signature): string {
  const weak = WEAK_HASHES[sig.hashAlgorithm];
  if (weak) throw new OpenPgpError(`the signature uses ${weak}, which is too weak to trust`);
  const name = HASHES[sig.hashAlgorithm];
  if (!name) throw new OpenPgpError(`the signature uses an unknown hash (${sig.hashAlgorithm})`);
  return name;
}

/** The data a v4 signature covers, with its trailer. */
function signedData(prefix: Uint8Array, sig: Signature): Uint8Array {
  const n = sig.hashedPart.length;
  const trailer = new Uint8Array([
    0x04,
    0xff,
    (n >>> 24) & 0xff,
    (n >>> 16) & 0xff,
    (n >>> 8) & 0xff,
    n & 0xff,
  ]);
  return concat([prefix, sig.hashedPart, trailer]);
}

function keyPrefix(key: PublicKey): Uint8Array {
  return concat([new Uint8Array([0x99, key.body.length >> 8, key.body.length & 0xff]), key.body]);
}

/** True when `sig` by `key` is valid over `prefix` (the document, or key material). */
function checks(key: PublicKey, sig: Signature, prefix: Uint8Array): boolean {
  if (
    !key.crypto ||
    key.algorithm !== sig.algorithm && !(key.algorithm === 1 && sig.algorithm === 3) &&
      !(key.algorithm === 3 && sig.algorithm === 1)
  ) {
    return false;
  }
  const name = hashName(sig);
  const data = signedData(prefix, sig);
  const digest = new Uint8Array(createHash(name).update(data).digest());
  if (digest[0] !== sig.left16[0] || digest[1] !== sig.left16[1]) return false;
  const { kind, key: k, size } = key.crypto;
  try {
    if (kind === "rsa") {
      if (sig.values.length !== 1) return false;
      return verify(name, data, k, leftPad(sig.values[0], size));
    }
    if (kind === "eddsa") {
      const raw = sig.algorithm === 27
        ? sig.values[0]
        : sig.values.length === 2
        ? concat([leftPad(sig.values[0], 32), leftPad(sig.values[1], 32)])
        : undefined;
      return raw !== undefined && raw.length === 64 && verify(null, digest, k, raw);
    }
    if (sig.values.length !== 2) return false;
    const rs = concat([leftPad(sig.values[0], size), leftPad(sig.values[1], size)]);
    return verify(name, data, { key: k, dsaEncoding: "ieee-p1363" }, rs);
  } catch {
    return false;
  }
}

/** True when the subkey is bound to the primary and may sign. */
function boundForSigning(primary: PublicKey, sub: KeyBundle["subkeys"][number]): boolean {
  const prefix = concat([keyPrefix(primary), keyPrefix(sub.key)]);
  return sub.bindings.some((b) => {
    if (!checks(primary, b, prefix)) return false;
    if (b.keyFlags !== undefined && (b.keyFlags & 0x02) === 0) return false;
    // A signing subkey must sign back: the primary key binding (0x19).
    return b.embedded.some((e) => e.type === 0x19 && checks(sub.key, e, prefix));
  });
}

/** Who made a verified signature. */
export interface Signer {
  /** The primary key's ID (16 hex digits), as Terraform reports it. */
  keyId: string;
  /** The primary key's fingerprint. */
  fingerprint: string;
  /** The key that made the signature: the primary or one of its subkeys. */
  signingKeyId: string;
  userIds: string[];
}

/**
 * Verifies a detached signature (binary, or armored) of `document` by one of
 * the keys. Throws an {@link OpenPgpError} that says why when it does not
 * verify: no signature, made by none of these keys, or not valid.
 */
export function verifyDetached(
  document: Uint8Array,
  signature: Uint8Array,
  keys: readonly KeyBundle[],
  now: Date = new Date(),
): Signer {
  const text = new TextDecoder("utf-8", { fatal: false }).decode(signature.subarray(0, 64));
  const blocks = text.includes("-----BEGIN PGP SIGNATURE-----")
    ? dearmor(new TextDecoder().decode(signature), "SIGNATURE")
    : [signature];
  const sigs = blocks.flatMap((b) => parsePackets(b)).filter((p) => p.tag === 2).map((p) =>
    parseSignature(p.body)
  );
  if (sigs.length === 0) throw new OpenPgpError("the signature file holds no signature");
  for (const sig of sigs) {
    const issuer = sig.issuerFingerprint ?? sig.issuerKeyId;
    const candidates: { bundle: KeyBundle; key: PublicKey; sub?: KeyBundle["subkeys"][number] }[] =
      [];
    for (const bundle of keys) {
      const all = [
        { key: bundle.primary, sub: undefined },
        ...bundle.subkeys.map((s) => ({
          key: s.key,
          sub: s,
        })),
      ];
      for (const { key, sub } of all) {
        if (
          issuer === undefined || key.fingerprint === sig.issuerFingerprint ||
          key.keyId === sig.issuerKeyId
        ) {
          candidates.push({ bundle, key, sub });
        }
      }
    }
    if (candidates.length === 0) continue;
    if (sig.type !== 0x00 && sig.type !== 0x01) {
      throw new OpenPgpError(
        `the signature is of type 0x${sig.type.toString(16)}, not a document signature`,
      );
    }
    hashName(sig);
    const doc = sig.type === 0x01 ? canonicalText(document) : document;
    for (const c of candidates) {
      if (!checks(c.key, sig, doc)) continue;
      if (c.sub && !boundForSigning(c.bundle.primary, c.sub)) {
        throw new OpenPgpError(
          `the signing subkey ${c.key.keyId} is not bound to its primary key ${c.bundle.primary.keyId}`,
        );
      }
      if (sig.expiresAfter && sig.created !== undefined) {
        if ((sig.created + sig.expiresAfter) * 1000 <= now.getTime()) {
          throw new OpenPgpError("the signature has expired");
        }
      }
      return {
        keyId: c.bundle.primary.keyId,
        fingerprint: c.bundle.primary.fingerprint,
        signingKeyId: c.key.keyId,
        userIds: c.bundle.userIds,
      };
    }
    throw new OpenPgpError(
      `the signature by key ${issuer ?? "(unnamed)"} does not match the document`,
    );
  }
  const issuers = sigs.map((s) => s.issuerFingerprint ?? s.issuerKeyId ?? "(unnamed)");
  throw new OpenPgpError(
    `the signature was made by a key the registry did not name (${issuers.join(", ")})`,
  );
}

/** Text in canonical form: every line ending is CR LF. */
function canonicalText(doc: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < doc.length; i++) {
    const b = doc[i];
    if (b === 0x0a && (i === 0 || doc[i - 1] !== 0x0d)) out.push(0x0d);
    out.push(b);
  }
  return new Uint8Array(out);
}
