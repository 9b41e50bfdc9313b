/**
 * `pravo providers`: the providers that pravo ships, their versions, import
 * paths and types by mode, read from the TypeScript schemas (no CUE is
 * loaded); then the plugin providers that the root's `pravo.lock.json` pins,
 * with their version, constraints, hashes and types (from the schema cache;
 * a provider whose schema is not cached yet starts once to give it).
 *
 * @module
 */

import { type CommandRun, emit, emitWarnings } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import type { LockedPlugin } from "../providers/install/lock.ts";
import { parseProviderSource } from "../providers/install/address.ts";
import { MODES, PROVIDERS } from "../providers/registry.ts";
import { importPath, type Mode, type ProviderSchema } from "../providers/schema.ts";
import { type ProviderDoc, type ProvidersDoc, renderProviders } from "../render/providers.ts";

export const run: CommandRun = async (ctx) => {
  const { lock, catalog } = ctx.workspace;
  if (catalog) {
    const missing = catalog.sources().filter((s) => !catalog.hasSchema(s));
    if (missing.length) {
      // A provider that cannot give its schema is listed without its types.
      const diags = await catalog.ensureSchemas(missing);
      emitWarnings(
        ctx,
        diags.map((d) => ({
          ...d,
          severity: "warning" as const,
          detail: `${d.detail} Its types are not listed until its schema can be had.`,
        })),
      );
    }
  }
  const doc = providersDoc(PROVIDERS, lock?.plugins, (address) => {
    const e = catalog?.entry(address);
    return e ? catalog?.typeNames(e.source) : undefined;
  });
  emit(ctx, doc, () => renderProviders(doc, ctx.style));
  return Exit.OK;
};

const noTypes = () =>
  Object.fromEntries(MODES.map((m) => [m, [] as string[]])) as Record<Mode, string[]>;

/**
 * Builds the document for these providers, in the order given, then the
 * locked plugin providers by address.
 */
export function providersDoc(
  providers: readonly ProviderSchema[],
  plugins: Readonly<Record<string, LockedPlugin>> = {},
  pluginTypes: (address: string) => Record<Mode, string[]> | undefined = () => undefined,
): ProvidersDoc {
  const pluginDocs: ProviderDoc[] = Object.entries(plugins).sort(([a], [b]) => a < b ? -1 : 1)
    .map(([address, lock]) => {
      const a = parseProviderSource(address);
      return {
        source: address,
        version: lock.version,
        import_path: importPath(`${a.namespace}/${a.type}`),
        kind: "plugin",
        constraints: lock.constraints,
        hashes: lock.hashes,
        types: pluginTypes(address) ?? noTypes(),
      };
    });
  return {
    format_version: "1.0",
    providers: [
      ...providers.map((p): ProviderDoc => {
        const types = Object.fromEntries(MODES.map((m) => [m, [] as string[]])) as Record<
          Mode,
          string[]
        >;
        for (const t of p.types) types[t.mode].push(t.name);
        for (const m of MODES) types[m].sort();
        return {
          source: p.source,
          version: p.version,
          import_path: importPath(p.source),
          kind: "builtin",
          types,
        };
      }),
      ...pluginDocs,
    ],
  };
}
