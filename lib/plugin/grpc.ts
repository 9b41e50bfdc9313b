/**
 * The gRPC connection to one provider process: plain over its unix socket,
 * or mutual TLS when the provider answered the handshake with its
 * certificate (AutoMTLS). Many calls may be in flight at once (HTTP/2
 * streams over the one connection).
 *
 * With TLS, pravo trusts exactly the certificate the provider printed: it is
 * the only root, and the certificate the provider presents must be that one,
 * byte for byte.
 *
 * @module
 */

import * as grpc from "@grpc/grpc-js";
import { Buffer } from "node:buffer";
import { encodeMessage, type Message, type MethodDef } from "./proto/load.ts";

/** Where the provider listens, from the handshake line. */
export interface Endpoint {
  network: "unix" | "tcp";
  address: string;
}

/** TLS material for a connection. */
export interface TlsSettings {
  /** The provider's certificate, from the handshake. */
  serverPem: string;
  serverDer: Uint8Array;
  /** pravo's own certificate and key, when the provider requires them (AutoMTLS). */
  clientCertPem?: string;
  clientKeyPem?: string;
}

/** A failed call: the gRPC status code and its message. */
export class CallError extends Error {
  readonly code: number;
  readonly details: string;
  constructor(code: number, details: string) {
    super(`${grpc.status[code] ?? code}: ${details}`);
    this.name = "CallError";
    this.code = code;
    this.details = details;
  }
}

export const STATUS = grpc.status;

/** The gRPC target for an endpoint. */
export function target(e: Endpoint): string {
  return e.network === "unix" ? `unix://${e.address}` : e.address;
}

function credentials(tls?: TlsSettings): grpc.ChannelCredentials {
  if (!tls) return grpc.credentials.createInsecure();
  const expected = Buffer.from(tls.serverDer);
  return grpc.credentials.createSsl(
    Buffer.from(tls.serverPem),
    tls.clientKeyPem ? Buffer.from(tls.clientKeyPem) : null,
    tls.clientCertPem ? Buffer.from(tls.clientCertPem) : null,
    {
      // The chain is checked against the provider's certificate as the only
      // root; this pins the exact certificate on top of that.
      checkServerIdentity: (_host, cert) =>
        cert?.raw && Buffer.from(cert.raw).equals(expected)
          ? undefined
          : new Error("the provider presented another certificate than its handshake named"),
    },
  );
}

/** One connection; `close()` ends it. */
export class Connection {
  readonly #client: grpc.Client;

  constructor(endpoint: Endpoint, tls?: TlsSettings) {
    this.#client = new grpc.Client(target(endpoint), credentials(tls), {
      // The whole AWS schema is one message of tens of MB.
      "grpc.max_receive_message_length": -1,
      "grpc.max_send_message_length": -1,
      // The certificate go-plugin makes names localhost.
      "grpc.default_authority": "localhost",
      "grpc.ssl_target_name_override": "localhost",
      // A provider is on this machine: never through an HTTP proxy.
      "grpc.enable_http_proxy": 0,
      // No reconnection storm against a process that is gone.
      "grpc.initial_reconnect_backoff_ms": 100,
      "grpc.max_reconnect_backoff_ms": 1000,
    });
  }

  /**
   * One call. Resolves with the decoded response; rejects with a
   * {@link CallError} (the provider's status, or CANCELLED when `signal`
   * aborts it).
   */
  unary(
    def: MethodDef,
    request: Record<string, unknown>,
    opts: { signal?: AbortSignal; deadlineMs?: number } = {},
  ): Promise<Message> {
    return new Promise((resolve, reject) => {
      if (opts.signal?.aborted) {
        reject(new CallError(grpc.status.CANCELLED, "cancelled before it was sent"));
        return;
      }
      let body: Uint8Array;
      try {
        body = encodeMessage(def.request, request);
      } catch (e) {
        reject(e);
        return;
      }
      const options: grpc.CallOptions = {};
      if (opts.deadlineMs !== undefined) options.deadline = Date.now() + opts.deadlineMs;
      const call = this.#client.makeUnaryRequest(
        def.path,
        (b: Uint8Array) => Buffer.from(b),
        (b: Buffer) => def.response.decode(b),
        body,
        new grpc.Metadata(),
        options,
        (err: grpc.ServiceError | null, value?: Message) => {
          opts.signal?.removeEventListener("abort", onAbort);
          if (err) reject(new CallError(err.code, err.details || err.message));
          else resolve(value);
        },
      );
      const onAbort = () => call.cancel();
      opts.signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /**
   * A call that answers with a stream: `onData` gets each message, and the
   * returned promise settles when the stream ends (rejects on an error
   * other than the end). `cancel` ends it from this side.
   */
  stream(
    def: MethodDef,
    request: Record<string, unknown>,
    onData: (m: Message) => void,
  ): { done: Promise<void>; cancel(): void } {
    const call = this.#client.makeServerStreamRequest(
      def.path,
      (b: Uint8Array) => Buffer.from(b),
      (b: Buffer) => def.response.decode(b),
      encodeMessage(def.request, request),
    );
    const done = new Promise<void>((resolve, reject) => {
      call.on("data", onData);
      call.on("end", () => resolve());
      call.on("error", (e: grpc.ServiceError) => {
        if (e.code === grpc.status.CANCELLED) resolve();
        else reject(new CallError(e.code, e.details || e.message));
      });
    });
    return { done, cancel: () => call.cancel() };
  }

  close(): void {
    this.#client.close();
  }
}
