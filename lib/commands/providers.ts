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
import type { Style } from "../diag/style.ts";
import { Exit } from "../cli/exit.ts";
import { displayAddress, parseProviderSource } from "../providers/install/address.ts";
import type { LockedPlugin } from "../providers/install/lock.ts";
import { MODES, PROVIDERS } from "../providers/registry.ts";
import { tryCatalogFor } from "../providers/catalog.ts";
import { importPath, type Mode, type ProviderSchema } from "../providers/schema.ts";
import { rootLockFile } from "../workspace/lock.ts";
import { pluginInputs } from "../workspace/lock.ts";

/** One provider as `--json` prints it. */
export interface ProviderDoc {
  /** `hashicorp/random` for a built-in one; the full address of a plugin one. */
  source: string;
  version: string;
  import_path: string;
  /** `builtin`: pravo ships it; `plugin`: a Terraform/OpenTofu provider the lock pins. */
  kind: "builtin" | "plugin";
  /** A plugin provider's constraints, as locked. */
  constraints?: string;
  /** A plugin provider's hashes, as locked. */
  hashes?: string[];
  /** The type names of each mode, sorted; every mode is present, maybe empty. */
  types: Record<Mode, string[]>;
}

/** The document that `pravo providers --json` prints. */
export interface ProvidersDoc {
  format_version: "1.0";
  providers: ProviderDoc[];
}

export const run: CommandRun = async (ctx) => {
  const lock = rootLockFile(ctx.root);
  const { catalog } = tryCatalogFor(ctx.root, pluginInputs(ctx.root));
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

/** The most type names of one mode a plugin provider's human view lists. */
const MAX_LISTED = 30;

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

/**
 * The human view: per provider a heading, its import path and its types by
 * mode; for a plugin provider, its address, constraints and hashes.
 */
export function renderProviders(doc: ProvidersDoc, style: Style): string {
  const width = Math.max("import".length, ...MODES.map((m) => m.length));
  return doc.providers.map((p) => {
    if (p.kind === "plugin") {
      const w = "constraints".length;
      const a = parseProviderSource(p.source);
      const lines = [`${style.bold(displayAddress(a))} ${p.version} (plugin)`];
      lines.push(`  ${"import".padEnd(w)}  ${p.import_path}`);
      lines.push(`  ${"source".padEnd(w)}  ${p.source}`);
      if (p.constraints) lines.push(`  ${"constraints".padEnd(w)}  ${p.constraints}`);
      (p.hashes ?? []).forEach((h, i) =>
        lines.push(`  ${(i === 0 ? "hashes" : "").padEnd(w)}  ${h}`)
      );
      for (const m of MODES) {
        const names = p.types[m];
        if (names.length === 0) continue;
        // A large provider's types are counted, not listed (--json lists them).
        lines.push(
          `  ${m.padEnd(w)}  ${
            names.length > MAX_LISTED
              ? `${names.length} types (\`pravo providers --json\` lists them, \`pravo schema TYPE\` shows one)`
              : names.join(", ")
          }`,
        );
      }
      return lines.join("\n") + "\n";
    }
    const lines = [`${style.bold(p.source)} ${p.version}`];
    lines.push(`  ${"import".padEnd(width)}  ${p.import_path}`);
    for (const m of MODES) {
      if (p.types[m].length > 0) lines.push(`  ${m.padEnd(width)}  ${p.types[m].join(", ")}`);
    }
    return lines.join("\n") + "\n";
  }).join("\n");
}
