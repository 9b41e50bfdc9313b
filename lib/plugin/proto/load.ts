/**
 * The protocol's messages, loaded once: protobufjs parses our protocol text
 * ({@link protocolText}, {@link GO_PLUGIN_TEXT}) into message types, and each
 * call becomes a method definition (its path, how to write its request and
 * read its response) for a gRPC client or, in tests, a server.
 *
 * Parsing costs ~20 ms and happens the first time a provider starts.
 *
 * Messages are read as protobufjs decodes them (snake_case field names,
 * enums as numbers, int64 as numbers or Longs, defaults where a field is
 * absent) by the translation layer, which alone looks inside them.
 *
 * @module
 */

import protobuf from "protobufjs";
import {
  GO_PLUGIN_TEXT,
  MESSAGES,
  type Method,
  METHODS,
  protocolPackage,
  protocolText,
  type ProtocolVersion,
} from "./tfplugin.ts";

let root: protobuf.Root | undefined;

/** Every message type of both versions and of go-plugin. */
export function protoRoot(): protobuf.Root {
  if (!root) {
    const r = new protobuf.Root();
    protobuf.parse(protocolText(5), r, { keepCase: true });
    protobuf.parse(protocolText(6), r, { keepCase: true });
    protobuf.parse(GO_PLUGIN_TEXT, r, { keepCase: true });
    r.resolveAll();
    root = r;
  }
  return root;
}

/** A decoded message: its fields by their protocol names. */
// deno-lint-ignore no-explicit-any
export type Message = any;

/** One call: its path and its request and response types. */
export interface MethodDef {
  /** `/tfplugin5.Provider/GetSchema` */
  path: string;
  request: protobuf.Type;
  response: protobuf.Type;
  /** True for a call that answers with a stream. */
  responseStream: boolean;
}

/** Writes a message from a plain object of its fields. */
export function encodeMessage(type: protobuf.Type, fields: Record<string, unknown>): Uint8Array {
  const err = type.verify(fields);
  if (err) throw new Error(`pravo built a malformed ${type.fullName}: ${err}`);
  return type.encode(type.fromObject(fields)).finish();
}

const cache = new Map<string, MethodDef>();

/** The definition of a Provider call in a protocol version. */
export function providerMethod(v: ProtocolVersion, m: Method): MethodDef {
  const key = `${v}/${m}`;
  let def = cache.get(key);
  if (!def) {
    const pkg = protocolPackage(v);
    const r = protoRoot();
    def = {
      path: `/${pkg}.Provider/${METHODS[m][v]}`,
      request: r.lookupType(`${pkg}.${MESSAGES[m]}.Request`),
      response: r.lookupType(`${pkg}.${MESSAGES[m]}.Response`),
      responseStream: false,
    };
    cache.set(key, def);
  }
  return def;
}

/** `plugin.GRPCController/Shutdown`: ends the provider process cleanly. */
export function shutdownMethod(): MethodDef {
  return _goPluginMethod("/plugin.GRPCController/Shutdown", "plugin.Empty", false);
}

/** `plugin.GRPCStdio/StreamStdio`: what the provider writes after the handshake. */
export function stdioMethod(): MethodDef {
  return _goPluginMethod("/plugin.GRPCStdio/StreamStdio", "plugin.StdioData", true);
}

/** A call of go-plugin's own services: each takes `plugin.Empty`. */
function _goPluginMethod(path: string, response: string, responseStream: boolean): MethodDef {
  const r = protoRoot();
  return {
    path,
    request: r.lookupType("plugin.Empty"),
    response: r.lookupType(response),
    responseStream,
  };
}

/** A type from the protocol, by its full name (`tfplugin6.Diagnostic`). */
export function messageType(fullName: string): protobuf.Type {
  return protoRoot().lookupType(fullName);
}
