/**
 * The runtimes of the providers that pravo ships, by source, and the lookup
 * of one type's handler. Importing this module loads the provider code; the
 * schemas alone are in `registry.ts`.
 *
 * @module
 */

import { LOCAL_RUNTIME } from "./local/runtime.ts";
import { NULL_RUNTIME } from "./null/runtime.ts";
import { RANDOM_RUNTIME } from "./random/runtime.ts";
import type { ProviderRuntime, TypeHandler } from "./runtime.ts";
import type { Mode } from "./schema.ts";
import { TIME_RUNTIME } from "./time/runtime.ts";

/** Every built-in provider's runtime, by source (`hashicorp/random`). */
export const RUNTIMES: ReadonlyMap<string, ProviderRuntime> = new Map(
  [LOCAL_RUNTIME, NULL_RUNTIME, RANDOM_RUNTIME, TIME_RUNTIME].map((r) => [r.source, r]),
);

/**
 * The handler of a type, or undefined when the provider or the type is not
 * built in.
 *
 * @example
 * ```ts
 * import { strict as assert } from "node:assert";
 * import { handlerFor } from "./runtimes.ts";
 * assert.ok(handlerFor("hashicorp/local", "data", "local_file")?.readData);
 * assert.equal(handlerFor("hashicorp/local", "ephemeral", "local_file"), undefined);
 * ```
 */
export function handlerFor(source: string, mode: Mode, type: string): TypeHandler | undefined {
  const handlers = RUNTIMES.get(source)?.handlers[mode];
  return handlers && Object.hasOwn(handlers, type) ? handlers[type] : undefined;
}
