/**
 * The providers that pravo ships, and lookups over their types.
 *
 * This module imports only the TypeScript schemas, so that commands that read
 * them (`schema`, `providers`) load nothing heavy.
 *
 * @module
 */

import type { Mode, ProviderSchema, TypeSchema } from "./schema.ts";
import { LOCAL } from "./local/schema.ts";
import { NULL } from "./null/schema.ts";
import { RANDOM } from "./random/schema.ts";
import { TIME } from "./time/schema.ts";

/** Every provider, sorted by source. */
export const PROVIDERS: readonly ProviderSchema[] = [LOCAL, NULL, RANDOM, TIME].sort((a, b) =>
  a.source < b.source ? -1 : a.source > b.source ? 1 : 0
);

/** The modes in the order that listings show them. */
export const MODES: readonly Mode[] = ["managed", "data", "ephemeral", "call"];

/** The provider with this source (`hashicorp/random`), if pravo ships it. */
export function findProvider(source: string): ProviderSchema | undefined {
  return PROVIDERS.find((p) => p.source === source);
}

/**
 * Every type with this name, in every mode that has it (`local_file` is both
 * managed and data), managed first, then data, ephemeral and call.
 */
export function findTypes(name: string): { provider: ProviderSchema; type: TypeSchema }[] {
  const found: { provider: ProviderSchema; type: TypeSchema }[] = [];
  for (const provider of PROVIDERS) {
    for (const type of provider.types) {
      if (type.name === name) found.push({ provider, type });
    }
  }
  return found.sort((a, b) => MODES.indexOf(a.type.mode) - MODES.indexOf(b.type.mode));
}

/** The names of every type, each once, sorted. */
export function allTypeNames(): string[] {
  const names = new Set<string>();
  for (const p of PROVIDERS) for (const t of p.types) names.add(t.name);
  return [...names].sort();
}
