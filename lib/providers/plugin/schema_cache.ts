/**
 * The schema cache: a plugin provider's schema, kept by the hash of the
 * package it came from, so that commands read it without starting the
 * provider (the whole AWS schema takes a provider start and ~0.9 s to
 * fetch, and 25 MB as JSON).
 *
 * Where: pravo's cache folder, outside every root
 * (`$XDG_CACHE_HOME/pravo/schemas`, else `~/.cache/pravo/schemas`), one
 * folder per package named by its `h1:` hash: `index.json` (the provider's
 * configuration schema, its capabilities, and the names and versions of
 * its types) and one file per type (`managed/aws_s3_bucket.json`), read
 * only when a root uses that type.
 *
 * Trust: only pravo writes there, and only the schema a verified
 * executable answered (`writeSchemaCache` is called with the `h1:` of the
 * package that was checked against the lock before it started). An agent
 * that can edit files in a root cannot reach this folder, so it cannot
 * forge a schema that would, say, unmark a sensitive attribute. A folder is
 * written under a temporary name and renamed when complete.
 *
 * @module
 */

import { join } from "node:path";
import type { ProviderSchema as PluginSchema, ServerCapabilities } from "../../plugin/provider.ts";
import type { Schema } from "../../plugin/schema.ts";
import type { Mode } from "../schema.ts";

/** The format of `index.json`. */
const FORMAT = 1;

/** What `index.json` holds. */
export interface SchemaIndex {
  format: number;
  /** `registry.terraform.io/hashicorp/aws`. */
  address: string;
  version: string;
  provider: Schema;
  providerMeta?: Schema;
  capabilities: ServerCapabilities;
  /** Type names by mode, each with its schema version. */
  types: Record<Exclude<Mode, "call">, Record<string, number>>;
}

/** The folder of the cache of schemas in pravo's cache folder. */
export function schemaCacheDir(pravoCache: string): string {
  return join(pravoCache, "schemas");
}

/** The folder of one package's schema: its `h1:` hash made a file name. */
export function packageSchemaDir(pravoCache: string, h1: string): string {
  return join(
    schemaCacheDir(pravoCache),
    h1.replace(/^h1:/, "h1-").replace(/[/+=]/g, (c) => c === "/" ? "_" : c === "+" ? "-" : ""),
  );
}

const MODE_FILE: Record<Exclude<Mode, "call">, string> = {
  managed: "managed",
  data: "data",
  ephemeral: "ephemeral",
};

/** A cached schema: its index, and each type read from its file when first asked for. */
export class CachedSchema {
  readonly dir: string;
  readonly index: SchemaIndex;
  readonly #types = new Map<string, Schema | null>();

  constructor(dir: string, index: SchemaIndex) {
    this.dir = dir;
    this.index = index;
  }

  /** True when the provider has this type. */
  has(mode: Mode, name: string): boolean {
    return mode !== "call" && Object.hasOwn(this.index.types[mode], name);
  }

  /** The schema of one type, or undefined when the provider has none of that name. */
  type(mode: Mode, name: string): Schema | undefined {
    if (!this.has(mode, name)) return undefined;
    const key = `${mode}/${name}`;
    if (!this.#types.has(key)) {
      const file = join(this.dir, MODE_FILE[mode as Exclude<Mode, "call">], `${name}.json`);
      try {
        this.#types.set(key, JSON.parse(Deno.readTextFileSync(file)) as Schema);
      } catch {
        this.#types.set(key, null);
      }
    }
    return this.#types.get(key) ?? undefined;
  }

  /**
   * The whole schema as the protocol layer takes it (`startProvider({schema})`):
   * each type's file is read when the provider call first needs it.
   */
  pluginSchema(): PluginSchema {
    const table = (mode: Exclude<Mode, "call">) => {
      const out: Record<string, Schema> = {};
      for (const name of Object.keys(this.index.types[mode])) {
        Object.defineProperty(out, name, {
          enumerable: true,
          configurable: true,
          get: () => {
            const s = this.type(mode, name);
            if (!s) throw new Error(`the schema cache ${this.dir} lacks ${mode} ${name}`);
            return s;
          },
        });
      }
      return out;
    };
    return {
      provider: this.index.provider,
      ...(this.index.providerMeta ? { providerMeta: this.index.providerMeta } : {}),
      resources: table("managed"),
      dataSources: table("data"),
      ephemeralResources: table("ephemeral"),
      serverCapabilities: this.index.capabilities,
    };
  }
}

/** Reads the cached schema of a package; undefined when there is none (or it cannot be read). */
export function readSchemaCache(pravoCache: string, h1: string): CachedSchema | undefined {
  const dir = packageSchemaDir(pravoCache, h1);
  try {
    const index = JSON.parse(Deno.readTextFileSync(join(dir, "index.json"))) as SchemaIndex;
    if (index.format !== FORMAT || !index.types || !index.provider) return undefined;
    return new CachedSchema(dir, index);
  } catch {
    return undefined;
  }
}

/**
 * Writes the schema a verified provider answered, for the package with this
 * `h1:` hash; returns it as read back. A cache that cannot be written (no
 * permission, a full disk) is not an error: the schema is returned as it is.
 */
export function writeSchemaCache(
  pravoCache: string,
  h1: string,
  meta: { address: string; version: string },
  schema: PluginSchema,
): CachedSchema | undefined {
  const dir = packageSchemaDir(pravoCache, h1);
  const tmp = `${dir}.tmp-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
  const index: SchemaIndex = {
    format: FORMAT,
    address: meta.address,
    version: meta.version,
    provider: schema.provider,
    ...(schema.providerMeta ? { providerMeta: schema.providerMeta } : {}),
    capabilities: schema.serverCapabilities,
    types: { managed: {}, data: {}, ephemeral: {} },
  };
  try {
    Deno.mkdirSync(tmp, { recursive: true, mode: 0o700 });
    const tables: [Exclude<Mode, "call">, Record<string, Schema>][] = [
      ["managed", schema.resources],
      ["data", schema.dataSources],
      ["ephemeral", schema.ephemeralResources],
    ];
    for (const [mode, table] of tables) {
      Deno.mkdirSync(join(tmp, MODE_FILE[mode]));
      for (const name of Object.keys(table)) {
        const s = table[name];
        index.types[mode][name] = s.version;
        Deno.writeTextFileSync(join(tmp, MODE_FILE[mode], `${name}.json`), JSON.stringify(s));
      }
    }
    Deno.writeTextFileSync(join(tmp, "index.json"), JSON.stringify(index));
    try {
      Deno.renameSync(tmp, dir);
    } catch {
      // Another process wrote it meanwhile: theirs is the same schema.
      Deno.removeSync(tmp, { recursive: true });
    }
    return readSchemaCache(pravoCache, h1);
  } catch {
    try {
      Deno.removeSync(tmp, { recursive: true });
    } catch {
      // nothing was made
    }
    return undefined;
  }
}
