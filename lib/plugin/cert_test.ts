import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { makeClientCertificate, serverCertificate } from "./cert.ts";

Deno.test("makeClientCertificate() makes a self-signed certificate Go and Node accept", async () => {
  const now = new Date("2030-01-02T03:04:05Z");
  const c = await makeClientCertificate(now);
  const x = new X509Certificate(c.certPem);
  assert.equal(x.subject, "O=pravo\nCN=localhost");
  assert.equal(x.issuer, x.subject);
  assert.equal(x.subjectAltName, "DNS:localhost");
  assert.equal(x.ca, false);
  assert.ok(x.verify(x.publicKey), "it is signed by its own key");
  assert.equal(new Date(x.validFrom).toISOString(), "2030-01-02T02:59:05.000Z");
  assert.equal(new Date(x.validTo).toISOString(), "2030-02-01T03:04:05.000Z");
  // Extended key usage: clientAuth (…3.2) and serverAuth (…3.1), as DER OIDs.
  const hex = Array.from(c.der, (b) => b.toString(16).padStart(2, "0")).join("");
  assert.ok(hex.includes("06082b06010505070302"), "clientAuth");
  assert.ok(hex.includes("06082b06010505070301"), "serverAuth");
  assert.ok(x.checkPrivateKey((await import("node:crypto")).createPrivateKey(c.keyPem)));
  assert.match(c.keyPem, /^-----BEGIN PRIVATE KEY-----\n/);
  // Two certificates never share a serial or a key.
  const d = await makeClientCertificate(now);
  assert.notEqual(new X509Certificate(d.certPem).serialNumber, x.serialNumber);
});

Deno.test("makeClientCertificate() writes GeneralizedTime from 2050 on", async () => {
  const c = await makeClientCertificate(new Date("2060-06-01T00:00:00Z"));
  const x = new X509Certificate(c.certPem);
  assert.equal(new Date(x.validTo).toISOString(), "2060-07-01T00:00:00.000Z");
});

Deno.test("serverCertificate() reads the handshake's field, padded or not", async () => {
  const c = await makeClientCertificate();
  const b64 = btoa(String.fromCharCode(...c.der));
  assert.deepEqual(serverCertificate(b64)?.der, c.der);
  assert.deepEqual(serverCertificate(b64.replace(/=+$/, ""))?.der, c.der);
  assert.equal(serverCertificate(""), undefined);
  assert.equal(serverCertificate("aGVsbG8"), undefined, "base64 of something that is not DER");
});
