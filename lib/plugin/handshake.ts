/**
 * The plugin handshake line: the first line a provider prints on stdout,
 * `CORE|PROTOCOL|NETWORK|ADDRESS|grpc|CERT`.
 *
 * - CORE is go-plugin's own version: 1.
 * - PROTOCOL is the plugin protocol the provider chose among those offered
 *   in `PLUGIN_PROTOCOL_VERSIONS`: 5 or 6.
 * - NETWORK and ADDRESS: `unix` and a socket path (`tcp` and `host:port` on
 *   Windows).
 * - `grpc`: providers for Terraform 0.12 and later; `netrpc` is the
 *   protocol of Terraform 0.11 and older, which pravo does not speak.
 * - CERT: with AutoMTLS, the provider's certificate (DER, base64 without
 *   padding); empty otherwise. Old plugins print five fields.
 *
 * @module
 */

import { serverCertificate } from "./cert.ts";
import type { ProtocolVersion } from "./proto/tfplugin.ts";

export interface Handshake {
  protocol: ProtocolVersion;
  network: "unix" | "tcp";
  address: string;
  /** The provider's certificate, when it serves TLS. */
  serverCert?: { der: Uint8Array; pem: string };
}

export type HandshakeResult = { ok: true; value: Handshake } | { ok: false; problem: string };

/** The line as a user should see it in a message: one line, not too long. */
export function quoteLine(line: string): string {
  const one = line.replace(/\s+$/, "").replace(/[\r\n]+/g, "⏎");
  return JSON.stringify(one.length > 200 ? one.slice(0, 200) + "…" : one);
}

/** Reads a handshake line; `offered` are the protocol versions pravo offered. */
export function parseHandshake(line: string, offered: readonly ProtocolVersion[]): HandshakeResult {
  const fields = line.replace(/\r?\n$/, "").split("|");
  if (fields.length < 5) {
    return {
      ok: false,
      problem: `it printed ${quoteLine(line)}, which is not a plugin handshake line`,
    };
  }
  const [core, proto, network, address, kind, cert = ""] = fields;
  if (core !== "1") {
    return {
      ok: false,
      problem: `it speaks go-plugin core protocol ${JSON.stringify(core)}; pravo speaks version 1`,
    };
  }
  const v = Number(proto);
  if (!offered.includes(v as ProtocolVersion)) {
    return {
      ok: false,
      problem: `it chose plugin protocol ${JSON.stringify(proto)}; pravo offered ${
        offered.join(" and ")
      }`,
    };
  }
  if (network !== "unix" && network !== "tcp") {
    return {
      ok: false,
      problem: `it listens on an unsupported network ${JSON.stringify(network)}`,
    };
  }
  if (!address) return { ok: false, problem: "its handshake line names no address" };
  if (kind !== "grpc") {
    return {
      ok: false,
      problem: kind === "netrpc"
        ? "it speaks net/rpc, the protocol of Terraform 0.11 and older, which pravo does not speak"
        : `it speaks ${JSON.stringify(kind)} instead of grpc`,
    };
  }
  const value: Handshake = { protocol: v as ProtocolVersion, network, address };
  if (cert.trim() !== "") {
    const c = serverCertificate(cert);
    if (!c) {
      return {
        ok: false,
        problem: "the certificate in its handshake line is not valid base64 DER",
      };
    }
    value.serverCert = c;
  }
  return { ok: true, value };
}
