/**
 * The catalog of a root's plugin providers: built from `pravo.lock.json`
 * (as `pravo mcp` pinned it, in its children) and the schema cache
 * (plugin/schema_cache.ts), so that a root's types are known without
 * starting any provider once their schema is cached.
 *
 * A provider's schema that is not cached yet is fetched once from the
 * provider itself (verified against the lock first), written to the cache
 * by the hash of its package, and the process is kept for the run's first
 * use of that provider (plugin/processes.ts).
 *
 * {@linkcode catalogFor} builds the catalog of a root; the workspace
 * (lib/workspace/workspace.ts) makes the registry's lookups of it
 * (registry.ts `registryOf`).
 *
 * @module
 */

import { resolve } from "node:path";
import { type Diagnostic, DiagnosticsError, error } from "../diag/diag.ts";
import type { ProviderSchema as PluginSchema, ServerCapabilities } from "../plugin/provider.ts";
import type { Schema } from "../plugin/schema.ts";
import { addressString, parseProviderSource } from "./install/address.ts";
import { hashScheme } from "./install/hash_scheme.ts";
import type { PluginInputs } from "./plugin/inputs.ts";
import { attributesOf, typeSchemaOf } from "./plugin/convert.ts";
// Not from plugin/launch.ts, which loads the whole installer (and node:crypto,
// node:fs) that `pravo providers` and `pravo schema` do not need (tests/startup_test.ts).
import { pravoCacheFolder } from "./install/cache_dir.ts";
import { type CachedSchema, readSchemaCache, writeSchemaCache } from "./plugin/schema_cache.ts";
import type { PluginCatalog, PluginEntry } from "./registry.ts";

export type { PluginEntry };
import type { Mode, ProviderSchema, TypeSchema } from "./schema.ts";

/** What the catalog knows of a provider's schema: cached, or fetched in this run. */
interface KnownSchema {
  version: number;
  provider: Schema;
  capabilities: ServerCapabilities;
  names: Record<Mode, string[]>;
  type(mode: Mode, name: string): Schema | undefined;
  /** The schema as the protocol layer takes it. */
  plugin(): PluginSchema;
}

function fromCache(c: CachedSchema): KnownSchema {
  return {
    version: 0,
    provider: c.index.provider,
    capabilities: c.index.capabilities,
    names: {
      managed: Object.keys(c.index.types.managed).sort(),
      data: Object.keys(c.index.types.data).sort(),
      ephemeral: Object.keys(c.index.types.ephemeral).sort(),
      call: [],
    },
    type: (mode, name) => c.type(mode, name),
    plugin: () => c.pluginSchema(),
  };
}

function fromPlugin(s: PluginSchema): KnownSchema {
  return {
    version: 0,
    provider: s.provider,
    capabilities: s.serverCapabilities,
    names: {
      managed: Object.keys(s.resources).sort(),
      data: Object.keys(s.dataSources).sort(),
      ephemeral: Object.keys(s.ephemeralResources).sort(),
      call: [],
    },
    type: (mode, name) => {
      const table = mode === "managed"
        ? s.resources
        : mode === "data"
        ? s.dataSources
        : mode === "ephemeral"
        ? s.ephemeralResources
        : {};
      return Object.hasOwn(table, name) ? table[name] : undefined;
    },
    plugin: () => s,
  };
}

/** The plugin providers of one root. */
export class RootCatalog implements PluginCatalog {
  readonly root: string;
  readonly entries: Map<string, PluginEntry>;
  readonly #schemas = new Map<string, KnownSchema | null>();
  readonly #providers = new Map<string, ProviderSchema>();
  readonly #types = new Map<string, TypeSchema | null>();
  readonly #fetching = new Map<string, Promise<Diagnostic[]>>();
  /** What the root's providers start from: the lock, the pins, the mirrors, the signal. */
  readonly inputs: PluginInputs;

  constructor(root: string, entries: PluginEntry[], inputs: PluginInputs) {
    this.root = root;
    this.inputs = inputs;
    const sorted = [...entries].sort((a, b) => a.source < b.source ? -1 : 1);
    this.entries = new Map(sorted.map((e) => [e.source, e]));
  }

  sources(): string[] {
    return [...this.entries.keys()].sort();
  }

  /** The entry of a source, or of a full address. */
  entry(sourceOrAddress: string): PluginEntry | undefined {
    return this.entries.get(sourceOrAddress) ??
      [...this.entries.values()].find((e) => e.address === sourceOrAddress);
  }

  /** The schema of a provider when it is at hand (cached, or fetched in this run). */
  #schema(source: string): KnownSchema | undefined {
    if (!this.#schemas.has(source)) {
      const e = this.entries.get(source);
      const cache = pravoCacheFolder();
      let found: KnownSchema | null = null;
      if (e && cache) {
        for (const h of e.hashes.filter((h) => hashScheme(h) === "h1")) {
          const c = readSchemaCache(cache, h);
          if (c && c.index.address === e.address && c.index.version === e.version) {
            found = fromCache(c);
            break;
          }
        }
      }
      // Only a cached schema is remembered as missing-or-found here: a
      // fetch in this run fills it in.
      if (found) this.#schemas.set(source, found);
      else return undefined;
    }
    return this.#schemas.get(source) ?? undefined;
  }

  /** True when the schema of this source is at hand without starting its provider. */
  hasSchema(source: string): boolean {
    return this.#schema(source) !== undefined;
  }

  /** The schema in the form the protocol layer takes, to hand to a starting provider. */
  pluginSchema(source: string): PluginSchema | undefined {
    return this.#schema(source)?.plugin();
  }

  /**
   * Makes sure the schemas of these sources are at hand: fetched from their
   * providers (and cached) where they are not. Returns the diagnostics of
   * those that could not be had.
   */
  async ensureSchemas(sources: Iterable<string>): Promise<Diagnostic[]> {
    const out: Diagnostic[] = [];
    const work: Promise<Diagnostic[]>[] = [];
    for (const s of sources) {
      if (!this.entries.has(s) || this.#schema(s)) continue;
      let p = this.#fetching.get(s);
      if (!p) {
        p = this.#fetch(s);
        this.#fetching.set(s, p);
      }
      work.push(p);
    }
    for (const d of await Promise.all(work)) out.push(...d);
    return out;
  }

  async #fetch(source: string): Promise<Diagnostic[]> {
    const t0 = performance.now();
    try {
      return await this.#fetchNow(source);
    } finally {
      catalogTimings.fetchMs += performance.now() - t0;
      catalogTimings.fetched++;
    }
  }

  async #fetchNow(source: string): Promise<Diagnostic[]> {
    const e = this.entries.get(source)!;
    const { startPlugin, keepIdle } = await import("./plugin/processes.ts");
    const started = await startPlugin(this.root, e.address, this.inputs);
    if (!started.value) return started.diagnostics;
    const r = await started.value.provider.getProviderSchema();
    if (!r.schema) {
      await started.value.provider.close();
      return r.diagnostics.length ? r.diagnostics : [
        error(
          `The provider ${e.address} ${e.version} sent no schema`,
          "pravo cannot use a provider without its schema. Report this to the provider's authors.",
        ),
      ];
    }
    const cache = pravoCacheFolder();
    const written = cache
      ? writeSchemaCache(cache, started.value.verified.h1, e, r.schema)
      : undefined;
    this.#schemas.set(source, written ? fromCache(written) : fromPlugin(r.schema));
    keepIdle(e.address, started.value);
    return r.diagnostics.filter((d) => d.severity !== "error");
  }

  provider(source: string): ProviderSchema | undefined {
    const e = this.entries.get(source);
    if (!e) return undefined;
    const known = this.#providers.get(source);
    if (known) return known;
    const schema = this.#schema(source);
    // deno-lint-ignore no-this-alias
    const catalog = this;
    const p: ProviderSchema = {
      source,
      version: e.version,
      description: `The Terraform provider ${e.address}, run as a plugin.`,
      config: schema ? attributesOf(schema.provider.block) : {},
      get types(): TypeSchema[] {
        const names = catalog.typeNames(source);
        if (!names) return [];
        const out: TypeSchema[] = [];
        for (const mode of ["managed", "data", "ephemeral"] as Mode[]) {
          for (const n of names[mode]) {
            const t = catalog.type(source, mode, n);
            if (t) out.push(t);
          }
        }
        return out;
      },
      plugin: {
        address: e.address,
        config: schema?.provider.block ?? {
          attributes: {},
          blockTypes: {},
          description: "",
          descriptionKind: "plain",
          deprecated: false,
        },
      },
    };
    if (schema) this.#providers.set(source, p);
    return p;
  }

  type(source: string, mode: Mode, name: string): TypeSchema | undefined {
    const key = `${source}\u0000${mode}\u0000${name}`;
    if (!this.#types.has(key)) {
      const schema = this.#schema(source);
      if (!schema) return undefined;
      const s = schema.type(mode, name);
      this.#types.set(key, s ? typeSchemaOf(name, mode, s) : null);
    }
    return this.#types.get(key) ?? undefined;
  }

  typeNames(source: string): Record<Mode, string[]> | undefined {
    return this.#schema(source)?.names;
  }

  /** The provider's capabilities, when its schema is at hand. */
  capabilities(source: string): ServerCapabilities | undefined {
    return this.#schema(source)?.capabilities;
  }
}

/** Time spent getting providers' schemas in this process, for benchmarks. */
export const catalogTimings = { fetchMs: 0, fetched: 0 };

/**
 * The catalog made for each inputs (a workspace's: lib/workspace/), so that
 * the workspace and the provider sessions of one command share one catalog
 * and what it read of the schemas. Keyed by the inputs themselves: nothing
 * here outlives them or passes from one command to another.
 */
const made = new WeakMap<PluginInputs, RootCatalog>();

/**
 * The catalog of a root's plugin providers, built from its inputs' lock file;
 * the same inputs with the same pins get the same catalog. Refused (an
 * `error`) when the lock file is malformed.
 */
export function catalogFor(root: string, inputs: PluginInputs): RootCatalog {
  const abs = resolve(root);
  const lock = inputs.lock();
  const entries: PluginEntry[] = [];
  for (const [address, pin] of Object.entries(lock?.plugins ?? {})) {
    const a = parseProviderSource(address);
    entries.push({
      address: addressString(a),
      source: `${a.namespace}/${a.type}`,
      version: pin.version,
      hashes: pin.hashes,
    });
  }
  // The same inputs for the same root with the same pins keep their catalog (and what it read).
  const known = made.get(inputs);
  if (
    known?.root === abs &&
    JSON.stringify([...known.entries.values()]) ===
      JSON.stringify(entries.sort((a, b) => a.source < b.source ? -1 : 1))
  ) {
    return known;
  }
  const catalog = new RootCatalog(abs, entries, inputs);
  made.set(inputs, catalog);
  return catalog;
}

/** {@linkcode catalogFor}, with a malformed lock file as diagnostics. */
export function tryCatalogFor(
  root: string,
  inputs: PluginInputs,
): { catalog?: RootCatalog; diagnostics: Diagnostic[] } {
  try {
    return { catalog: catalogFor(root, inputs), diagnostics: [] };
  } catch (e) {
    if (e instanceof DiagnosticsError) return { diagnostics: e.diagnostics };
    throw e;
  }
}
