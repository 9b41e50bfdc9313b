import assert from "node:assert/strict";
import { fileURLToPath as fromFileUrl } from "node:url";
import { OpenPgpError, readPublicKeys, verifyDetached } from "./openpgp.ts";
import { crc24 } from "./openpgp_packets.ts";

// Keys and signatures made by GnuPG 2.2.40 (see testdata/openpgp/README).
const dir = fromFileUrl(new URL("./testdata/openpgp/", import.meta.url));
const text = (f: string) => Deno.readTextFileSync(dir + f);
const bytes = (f: string) => Deno.readFileSync(dir + f);
const DOC = bytes("SHA256SUMS");
const keys = (...names: string[]) => names.flatMap((n) => readPublicKeys(text(`${n}.asc`)));

Deno.test("verifyDetached() accepts GnuPG's signatures by RSA, EdDSA and ECDSA keys", () => {
  for (const name of ["rsa", "ed", "ec"]) {
    const signer = verifyDetached(DOC, bytes(`${name}.sig`), keys(name));
    assert.equal(signer.keyId, signer.fingerprint.slice(-16));
    assert.equal(signer.signingKeyId, signer.keyId, `${name}: the primary key signed`);
    assert.match(signer.userIds[0], new RegExp(`<${name}@example.com>`));
  }
});

Deno.test("verifyDetached() accepts a signing subkey bound to its primary key", () => {
  for (const name of ["rsasub", "edsub"]) {
    const [bundle] = keys(name);
    const signer = verifyDetached(DOC, bytes(`${name}.sig`), [bundle]);
    assert.equal(
      signer.keyId,
      bundle.primary.keyId,
      "reported by the primary key, as Terraform does",
    );
    assert.equal(signer.signingKeyId, bundle.subkeys[0].key.keyId);
  }
});

Deno.test("verifyDetached() accepts text-mode, SHA-512 and armored signatures", () => {
  verifyDetached(DOC, bytes("rsa-text.sig"), keys("rsa"));
  verifyDetached(DOC, bytes("ed-sha512.sig"), keys("ed"));
  verifyDetached(DOC, bytes("rsa.sig.asc"), keys("rsa"));
});

Deno.test("verifyDetached() finds the signer among several keys", () => {
  const signer = verifyDetached(DOC, bytes("ed.sig"), keys("rsa", "stranger", "ed"));
  assert.match(signer.userIds[0], /Ed Signer/);
});

function refused(fn: () => unknown, pattern: RegExp) {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof OpenPgpError, String(e));
    assert.match(e.message, pattern);
    return true;
  });
}

Deno.test("verifyDetached() refuses a changed document, a stranger's key and weak hashes", () => {
  const changed = new Uint8Array(DOC);
  changed[0] ^= 1;
  refused(() => verifyDetached(changed, bytes("rsa.sig"), keys("rsa")), /does not match/);
  refused(() => verifyDetached(changed, bytes("edsub.sig"), keys("edsub")), /does not match/);
  refused(() => verifyDetached(changed, bytes("ec.sig"), keys("ec")), /does not match/);
  refused(
    () => verifyDetached(DOC, bytes("stranger.sig"), keys("rsa", "ed")),
    /a key the registry did not name/,
  );
  refused(() => verifyDetached(DOC, bytes("rsa-sha1.sig"), keys("rsa")), /SHA-1.*too weak/);
  refused(() => verifyDetached(DOC, new Uint8Array(0), keys("rsa")), /holds no signature/);
  refused(() => verifyDetached(DOC, bytes("rsa.sig").subarray(0, 40), keys("rsa")), /truncated/);
});

Deno.test("verifyDetached() refuses a signature whose bits were flipped", () => {
  for (const name of ["rsa", "ed", "ec"]) {
    const sig = new Uint8Array(bytes(`${name}.sig`));
    sig[sig.length - 3] ^= 0x10;
    refused(() => verifyDetached(DOC, sig, keys(name)), /does not match/);
  }
});

Deno.test("verifyDetached() refuses a subkey signature when the subkey is not bound", () => {
  // The subkey of edsub, presented as if it were a key of the rsa bundle.
  const [rsa] = keys("rsa");
  const [edsub] = keys("edsub");
  const forged = { ...rsa, subkeys: [{ key: edsub.subkeys[0].key, bindings: [] }] };
  refused(
    () => verifyDetached(DOC, bytes("edsub.sig"), [forged]),
    /subkey [0-9A-F]{16} is not bound to its primary key/,
  );
  // With the real binding, but over another primary key: still refused.
  const moved = { ...rsa, subkeys: edsub.subkeys };
  refused(() => verifyDetached(DOC, bytes("edsub.sig"), [moved]), /not bound/);
});

Deno.test("readPublicKeys() refuses damaged armor", () => {
  const armored = text("rsa.asc");
  refused(() => readPublicKeys("no key here"), /no armored public key block/);
  const lines = armored.split("\n");
  const i = lines.findIndex((l) => l.length > 60);
  lines[i] = lines[i].slice(0, 10) + (lines[i][10] === "A" ? "B" : "A") + lines[i].slice(11);
  refused(() => readPublicKeys(lines.join("\n")), /CRC-24 mismatch/);
  refused(() => readPublicKeys(armored.replace(/-----END[^\n]*/, "")), /has no end/);
});

Deno.test("crc24() is OpenPGP's armor checksum: b704ce for nothing, 21cf02 for 123456789", () => {
  assert.equal(crc24(new Uint8Array()), 0xb704ce);
  assert.equal(crc24(new TextEncoder().encode("123456789")), 0x21cf02);
});
