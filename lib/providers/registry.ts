/**
 * The providers of a root, and lookups over their types: the providers that
 * pravo ships, and the plugin providers of the root being worked on.
 *
 * This module imports only the TypeScript schemas, so that commands that
 * read them (`schema`, `providers`) load nothing heavy. The plugin providers
 * come from the root's catalog (`catalog.ts`: built from `pravo.lock.json`
 * and the schema cache), which the code that opens a root makes active with
 * {@linkcode useCatalog}; a process works on one root at a time.
 *
 * @module
 */

import type { Mode, ProviderSchema, TypeSchema } from "./schema.ts";
import { LOCAL } from "./local/schema.ts";
import { NULL } from "./null/schema.ts";
import { RANDOM } from "./random/schema.ts";
import { TIME } from "./time/schema.ts";

/** Every provider that pravo ships, sorted by source. */
export const PROVIDERS: readonly ProviderSchema[] = [LOCAL, NULL, RANDOM, TIME].sort((a, b) =>
  a.source < b.source ? -1 : a.source > b.source ? 1 : 0
);

/** The modes in the order that listings show them. */
export const MODES: readonly Mode[] = ["managed", "data", "ephemeral", "call"];

/** What the registry needs of a root's plugin providers (catalog.ts). */
export interface PluginCatalog {
  /** The root it was built for, absolute. */
  readonly root: string;
  /** The sources (`hashicorp/aws`) of the plugin providers the root's lock pins, sorted. */
  sources(): string[];
  /** The plugin provider of this source: its version and configuration; types on demand. */
  provider(source: string): ProviderSchema | undefined;
  /** One type of a plugin provider, when its schema is at hand. */
  type(source: string, mode: Mode, name: string): TypeSchema | undefined;
  /** The type names of a plugin provider by mode, when its schema is at hand. */
  typeNames(source: string): Record<Mode, string[]> | undefined;
}

let active: PluginCatalog | undefined;

/** Makes `c` the catalog of plugin providers that lookups see (undefined: none). */
export function useCatalog(c: PluginCatalog | undefined): void {
  active = c;
}

/** The active catalog, if any. */
export function activeCatalog(): PluginCatalog | undefined {
  return active;
}

/** The provider with this source (`hashicorp/random`): built in, or a plugin the root pins. */
export function findProvider(source: string): ProviderSchema | undefined {
  return PROVIDERS.find((p) => p.source === source) ?? active?.provider(source);
}

/** A type of a provider, by mode and name. */
export function findType(source: string, mode: Mode, name: string): TypeSchema | undefined {
  const builtin = PROVIDERS.find((p) => p.source === source);
  if (builtin) return builtin.types.find((t) => t.name === name && t.mode === mode);
  return active?.type(source, mode, name);
}

/** Every provider: those pravo ships, then the root's plugin providers. */
export function allProviders(): ProviderSchema[] {
  const plugins = (active?.sources() ?? []).map((s) => active!.provider(s)).filter((p) =>
    p !== undefined
  ) as ProviderSchema[];
  return [...PROVIDERS, ...plugins];
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
  for (const source of active?.sources() ?? []) {
    const names = active!.typeNames(source);
    const provider = active!.provider(source);
    if (!names || !provider) continue;
    for (const mode of MODES) {
      if (!names[mode].includes(name)) continue;
      const type = active!.type(source, mode, name);
      if (type) found.push({ provider, type });
    }
  }
  return found.sort((a, b) => MODES.indexOf(a.type.mode) - MODES.indexOf(b.type.mode));
}

/** The names of every type, each once, sorted. */
export function allTypeNames(): string[] {
  const names = new Set<string>();
  for (const p of PROVIDERS) for (const t of p.types) names.add(t.name);
  for (const source of active?.sources() ?? []) {
    const byMode = active!.typeNames(source);
    for (const m of MODES) for (const n of byMode?.[m] ?? []) names.add(n);
  }
  return [...names].sort();
}

/** Every type of a mode, of every provider (plugin types by name only when `names`). */
export function typeNamesOfMode(mode: Mode): string[] {
  const names = new Set<string>();
  for (const p of PROVIDERS) for (const t of p.types) if (t.mode === mode) names.add(t.name);
  for (const source of active?.sources() ?? []) {
    for (const n of active!.typeNames(source)?.[mode] ?? []) names.add(n);
  }
  return [...names].sort();
}
