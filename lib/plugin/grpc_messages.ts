/**
 * Small readers and writers of the plugin protocol's messages that the
 * gRPC provider uses: bytes, capabilities, deferral reasons, timestamps,
 * and the schemas of a provider's types, converted when first read.
 *
 * @module
 */

import type { Message } from "./proto/load.ts";
import type { ClientCapabilities, DeferredReason, ServerCapabilities } from "./provider.ts";
import { type Schema, schemaFrom, toNumber } from "./schema.ts";

/** No bytes: a private state not sent. */
export const EMPTY = new Uint8Array(0);

export function bytes(b: unknown): Uint8Array {
  return b instanceof Uint8Array ? new Uint8Array(b) : EMPTY;
}

export function capabilities(m: Message): ServerCapabilities {
  return {
    planDestroy: !!m?.plan_destroy,
    getProviderSchemaOptional: !!m?.get_provider_schema_optional,
    moveResourceState: !!m?.move_resource_state,
  };
}

export function clientCaps(c?: ClientCapabilities): Message {
  return {
    deferral_allowed: c?.deferralAllowed ?? false,
    write_only_attributes_allowed: c?.writeOnlyAttributesAllowed ?? true,
  };
}

const DEFERRED: Record<number, DeferredReason> = {
  0: "unknown",
  1: "resource_config_unknown",
  2: "provider_config_unknown",
  3: "absent_prereq",
};

export function deferred(m: Message): DeferredReason | undefined {
  return m ? DEFERRED[Number(m.reason)] ?? "unknown" : undefined;
}

export function timestamp(m: Message): Date | undefined {
  if (!m) return undefined;
  return new Date(toNumber(m.seconds) * 1000 + Math.floor(Number(m.nanos ?? 0) / 1e6));
}

/**
 * The schemas of a provider's types, each converted from its message the
 * first time it is read: the whole AWS schema (2,100 types) takes ~200 ms to
 * convert, one type well under a millisecond. Enumerating or serializing the
 * record converts them all. A malformed schema throws a ValueError when read.
 */
export function lazySchemas(messages: Record<string, Message> | undefined): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const [name, msg] of Object.entries(messages ?? {})) {
    let done: Schema | undefined;
    Object.defineProperty(out, name, {
      enumerable: true,
      configurable: true,
      get: () => {
        done ??= schemaFrom(msg);
        Object.defineProperty(out, name, { value: done, enumerable: true, writable: false });
        return done;
      },
    });
  }
  return out;
}
