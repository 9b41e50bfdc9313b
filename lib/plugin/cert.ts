import { concat } from "../bytes.ts";
/**
 * AutoMTLS: the client certificate pravo hands a provider in
 * `PLUGIN_CLIENT_CERT`, and the provider's certificate read back from the
 * handshake line.
 *
 * go-plugin's AutoMTLS works so: the client makes a key pair and a
 * self-signed certificate and passes the certificate (PEM) in the provider's
 * environment; the provider makes its own, answers it in the handshake
 * line's sixth field (the DER, base64 without padding), and serves TLS that
 * requires the client's exact certificate. The client trusts the provider's
 * exact certificate and nothing else. No file is written: the key lives in
 * this process only.
 *
 * The certificate is built here (a small DER writer and WebCrypto's ECDSA
 * P-256): X.509 v3, subject and issuer `CN=localhost, O=pravo`, a random
 * 128-bit serial, valid from five minutes ago for 30 days, not a CA, key
 * usage digitalSignature, extended key usage clientAuth and serverAuth,
 * subjectAltName DNS:localhost. Go's TLS accepts it as its own root.
 *
 * @module
 */

/** A key pair and its self-signed certificate, in PEM. */
export interface ClientCertificate {
  /** `-----BEGIN CERTIFICATE-----`: what goes in `PLUGIN_CLIENT_CERT`. */
  certPem: string;
  /** `-----BEGIN PRIVATE KEY-----` (PKCS #8). */
  keyPem: string;
  /** The certificate's DER bytes. */
  der: Uint8Array;
}

// --- A minimal DER writer -----------------------------------------------------

function length(n: number): Uint8Array {
  if (n < 0x80) return Uint8Array.of(n);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Uint8Array.of(0x80 | bytes.length, ...bytes);
}

/** One TLV: tag, length, contents. */
function tlv(tag: number, ...contents: Uint8Array[]): Uint8Array {
  const body = concat(contents);
  return concat([Uint8Array.of(tag), length(body.length), body]);
}

const seq = (...c: Uint8Array[]) => tlv(0x30, ...c);
const set = (...c: Uint8Array[]) => tlv(0x31, ...c);

/** An unsigned big-endian integer as a DER INTEGER (a 0 byte keeps it positive). */
function uint(bytes: Uint8Array): Uint8Array {
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i++;
  const b = bytes.subarray(i);
  return tlv(0x02, b[0] & 0x80 ? concat([Uint8Array.of(0), b]) : b);
}

function oid(dotted: string): Uint8Array {
  const parts = dotted.split(".").map(Number);
  const out = [parts[0] * 40 + parts[1]];
  for (const p of parts.slice(2)) {
    const chunk: number[] = [p & 0x7f];
    for (let v = Math.floor(p / 128); v > 0; v = Math.floor(v / 128)) {
      chunk.unshift(0x80 | (v & 0x7f));
    }
    out.push(...chunk);
  }
  return tlv(0x06, Uint8Array.from(out));
}

const utf8 = (s: string) => tlv(0x0c, new TextEncoder().encode(s));
const bitString = (b: Uint8Array, unused = 0) => tlv(0x03, Uint8Array.of(unused), b);
const octets = (...c: Uint8Array[]) => tlv(0x04, ...c);
const bool = (v: boolean) => tlv(0x01, Uint8Array.of(v ? 0xff : 0));

/** UTCTime before 2050, GeneralizedTime from 2050 on (RFC 5280 4.1.2.5). */
function time(d: Date): Uint8Array {
  const p = (n: number) => String(n).padStart(2, "0");
  const rest = `${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}` +
    `${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}Z`;
  const y = d.getUTCFullYear();
  const enc = new TextEncoder();
  return y < 2050
    ? tlv(0x17, enc.encode(`${p(y % 100)}${rest}`))
    : tlv(0x18, enc.encode(`${y}${rest}`));
}

const OID = {
  ecdsaWithSHA256: "1.2.840.10045.4.3.2",
  commonName: "2.5.4.3",
  organization: "2.5.4.10",
  basicConstraints: "2.5.29.19",
  keyUsage: "2.5.29.15",
  extKeyUsage: "2.5.29.37",
  subjectAltName: "2.5.29.17",
  serverAuth: "1.3.6.1.5.5.7.3.1",
  clientAuth: "1.3.6.1.5.5.7.3.2",
};

function extension(id: string, critical: boolean, value: Uint8Array): Uint8Array {
  return critical ? seq(oid(id), bool(true), octets(value)) : seq(oid(id), octets(value));
}

/** WebCrypto's ECDSA signature (r || s) as DER `SEQUENCE { r, s }`. */
function ecdsaDer(raw: Uint8Array): Uint8Array {
  const half = raw.length / 2;
  return seq(uint(raw.subarray(0, half)), uint(raw.subarray(half)));
}

function base64(b: Uint8Array): string {
  let s = "";
  for (let i = 0; i < b.length; i += 0x8000) {
    s += String.fromCharCode(...b.subarray(i, i + 0x8000));
  }
  return btoa(s);
}

/** DER bytes as PEM with the given label. */
export function pem(label: string, der: Uint8Array): string {
  const lines = base64(der).match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}

/** Makes a fresh key pair and its self-signed client certificate. */
export async function makeClientCertificate(now: Date = new Date()): Promise<ClientCertificate> {
  const keys = await crypto.subtle.generateKey(
    { name: "ECDSA", namedCurve: "P-256" },
    true,
    ["sign", "verify"],
  ) as CryptoKeyPair;
  const spki = new Uint8Array(await crypto.subtle.exportKey("spki", keys.publicKey));
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey("pkcs8", keys.privateKey));
  const serial = crypto.getRandomValues(new Uint8Array(16));
  serial[0] &= 0x7f;
  serial[0] |= 0x40; // positive, and no leading zero byte to strip
  const name = seq(
    set(seq(oid(OID.organization), utf8("pravo"))),
    set(seq(oid(OID.commonName), utf8("localhost"))),
  );
  const sigAlg = seq(oid(OID.ecdsaWithSHA256));
  const notBefore = new Date(now.getTime() - 5 * 60_000);
  const notAfter = new Date(now.getTime() + 30 * 24 * 3600_000);
  const extensions = seq(
    extension(OID.basicConstraints, true, seq()),
    extension(OID.keyUsage, true, bitString(Uint8Array.of(0x80), 7)), // digitalSignature
    extension(OID.extKeyUsage, false, seq(oid(OID.clientAuth), oid(OID.serverAuth))),
    extension(OID.subjectAltName, false, seq(tlv(0x82, new TextEncoder().encode("localhost")))),
  );
  const tbs = seq(
    tlv(0xa0, tlv(0x02, Uint8Array.of(2))), // version 3
    uint(serial),
    sigAlg,
    name,
    seq(time(notBefore), time(notAfter)),
    name,
    spki,
    tlv(0xa3, extensions),
  );
  const sig = new Uint8Array(
    await crypto.subtle.sign(
      { name: "ECDSA", hash: "SHA-256" },
      keys.privateKey,
      tbs as Uint8Array<ArrayBuffer>,
    ),
  );
  const der = seq(tbs, sigAlg, bitString(ecdsaDer(sig)));
  return { certPem: pem("CERTIFICATE", der), keyPem: pem("PRIVATE KEY", pkcs8), der };
}

/**
 * The provider's certificate from the handshake line's sixth field: DER in
 * standard base64, which go-plugin writes without padding. Undefined when the
 * field is not a certificate.
 */
export function serverCertificate(field: string): { der: Uint8Array; pem: string } | undefined {
  const s = field.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(s)) return undefined;
  const padded = s.replace(/=+$/, "").padEnd(Math.ceil(s.replace(/=+$/, "").length / 4) * 4, "=");
  let der: Uint8Array;
  try {
    der = Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
  if (der.length < 16 || der[0] !== 0x30) return undefined;
  return { der, pem: pem("CERTIFICATE", der) };
}
