import assert from "node:assert/strict";
import { makeClientCertificate } from "./cert.ts";
import { parseHandshake } from "./handshake.ts";

Deno.test("parseHandshake() reads the line go-plugin prints", () => {
  const r = parseHandshake("1|5|unix|/tmp/plugin2799833419|grpc|\n", [5, 6]);
  assert.deepEqual(r, {
    ok: true,
    value: { protocol: 5, network: "unix", address: "/tmp/plugin2799833419" },
  });
  const tcp = parseHandshake("1|6|tcp|127.0.0.1:10000|grpc|", [5, 6]);
  assert.ok(tcp.ok && tcp.value.network === "tcp" && tcp.value.protocol === 6);
  // Old plugins print five fields.
  assert.ok(parseHandshake("1|5|unix|/tmp/p|grpc", [5]).ok);
});

Deno.test("parseHandshake() reads the provider's certificate: base64 DER without padding", async () => {
  const c = await makeClientCertificate();
  const field = btoa(String.fromCharCode(...c.der)).replace(/=+$/, "");
  const r = parseHandshake(`1|5|unix|/tmp/p|grpc|${field}\n`, [5, 6]);
  assert.ok(r.ok);
  assert.deepEqual(r.value.serverCert?.der, c.der);
  assert.equal(r.value.serverCert?.pem, c.certPem);
  const bad = parseHandshake("1|5|unix|/tmp/p|grpc|not!base64", [5]);
  assert.deepEqual(bad, {
    ok: false,
    problem: "the certificate in its handshake line is not valid base64 DER",
  });
});

Deno.test("parseHandshake() says what is wrong with a line that is not a handshake", () => {
  const cases: [string, RegExp][] = [
    [
      "hello, I am not a plugin\n",
      /it printed "hello, I am not a plugin", which is not a plugin handshake line/,
    ],
    ["2|5|unix|/tmp/p|grpc|", /core protocol "2"; pravo speaks version 1/],
    ["1|4|unix|/tmp/p|grpc|", /chose plugin protocol "4"; pravo offered 5 and 6/],
    ["1|5|pipe|/tmp/p|grpc|", /unsupported network "pipe"/],
    ["1|5|unix||grpc|", /names no address/],
    ["1|5|unix|/tmp/p|netrpc|", /net\/rpc, the protocol of Terraform 0\.11 and older/],
  ];
  for (const [line, want] of cases) {
    const r = parseHandshake(line, [5, 6]);
    assert.ok(!r.ok, line);
    assert.match(r.problem, want);
  }
  // A protocol pravo did not offer is refused even if pravo speaks it.
  assert.ok(!parseHandshake("1|6|unix|/tmp/p|grpc|", [5]).ok);
});
