/**
 * The providers of a root, and lookups over their types: the providers that
 * pravo ships, and the plugin providers of the root being worked on.
 *
 * This module imports only the TypeScript schemas, so that commands that
 * read them (`schema`, `providers`) load nothing heavy. The plugin providers
 * come from the root's catalog (`catalog.ts`: built from `pravo.lock.json`
 * and the schema cache); {@linkcode registryOf} makes a {@linkcode Registry}
 * of it, which the command's workspace (lib/workspace/workspace.ts) holds and
 * hands down. No lookup here reads process-wide state.
 *
 * @module
 */

import type { Diagnostic } from "../diag/diag.ts";
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

/** One plugin provider the lock pins. */
export interface PluginEntry {
  /** `registry.terraform.io/hashicorp/aws`. */
  address: string;
  /** `hashicorp/aws`: its import path is `pravo.dev/providers/hashicorp/aws`. */
  source: string;
  version: string;
  hashes: string[];
}

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
  /**
   * Has the schemas of these sources at hand: from the cache, or fetched
   * from the providers. Returns the diagnostics of those that could not be had.
   */
  ensureSchemas(sources: Iterable<string>): Promise<Diagnostic[]>;
}

/**
 * The lookups over a root's providers: those pravo ships, then the plugin
 * providers of its catalog. A value, built once per command from the
 * workspace's catalog ({@linkcode registryOf}) and handed to what looks
 * types up; nothing here is process-wide.
 */
export interface Registry {
  /** The plugin providers' catalog it was built from, if any. */
  readonly catalog: PluginCatalog | undefined;
  /** The provider with this source (`hashicorp/random`): built in, or a plugin the root pins. */
  findProvider(source: string): ProviderSchema | undefined;
  /** A type of a provider, by mode and name. */
  findType(source: string, mode: Mode, name: string): TypeSchema | undefined;
  /** Every provider: those pravo ships, then the root's plugin providers. */
  allProviders(): ProviderSchema[];
  /**
   * Every type with this name, in every mode that has it (`local_file` is both
   * managed and data), managed first, then data, ephemeral and call.
   */
  findTypes(name: string): { provider: ProviderSchema; type: TypeSchema }[];
  /** The names of every type, each once, sorted. */
  allTypeNames(): string[];
  /** Every type of a mode, of every provider (plugin types by name only). */
  typeNamesOfMode(mode: Mode): string[];
}

/** How a record's type is looked up: a registry's `findType`. */
export type TypeLookup = (source: string, mode: Mode, name: string) => TypeSchema | undefined;

/** The registry of the providers pravo ships and those of `catalog`. */
export function registryOf(catalog: PluginCatalog | undefined): Registry {
  return Object.freeze({
    catalog,
    findProvider: (source: string) => findProviderIn(catalog, source),
    findType: (source: string, mode: Mode, name: string) => findTypeIn(catalog, source, mode, name),
    allProviders: () => allProvidersIn(catalog),
    findTypes: (name: string) => findTypesIn(catalog, name),
    allTypeNames: () => allTypeNamesIn(catalog),
    typeNamesOfMode: (mode: Mode) => typeNamesOfModeIn(catalog, mode),
  });
}

/** The registry of the providers pravo ships alone (a root without plugin providers). */
export const BUILTIN_REGISTRY: Registry = registryOf(undefined);

function findProviderIn(
  active: PluginCatalog | undefined,
  source: string,
): ProviderSchema | undefined {
  return PROVIDERS.find((p) => p.source === source) ?? active?.provider(source);
}

function findTypeIn(
  active: PluginCatalog | undefined,
  source: string,
  mode: Mode,
  name: string,
): TypeSchema | undefined {
  const builtin = PROVIDERS.find((p) => p.source === source);
  if (builtin) return builtin.types.find((t) => t.name === name && t.mode === mode);
  return active?.type(source, mode, name);
}

function allProvidersIn(active: PluginCatalog | undefined): ProviderSchema[] {
  const plugins = (active?.sources() ?? []).map((s) => active!.provider(s)).filter((p) =>
    p !== undefined
  ) as ProviderSchema[];
  return [...PROVIDERS, ...plugins];
}

function findTypesIn(
  active: PluginCatalog | undefined,
  name: string,
): { provider: ProviderSchema; type: TypeSchema }[] {
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

function allTypeNamesIn(active: PluginCatalog | undefined): string[] {
  const names = new Set<string>();
  for (const p of PROVIDERS) for (const t of p.types) names.add(t.name);
  for (const source of active?.sources() ?? []) {
    const byMode = active!.typeNames(source);
    for (const m of MODES) for (const n of byMode?.[m] ?? []) names.add(n);
  }
  return [...names].sort();
}

function typeNamesOfModeIn(active: PluginCatalog | undefined, mode: Mode): string[] {
  const names = new Set<string>();
  for (const p of PROVIDERS) for (const t of p.types) if (t.mode === mode) names.add(t.name);
  for (const source of active?.sources() ?? []) {
    for (const n of active!.typeNames(source)?.[mode] ?? []) names.add(n);
  }
  return [...names].sort();
}
