/**
 * `pravo providers`: the providers that pravo ships, their versions, import
 * paths and types by mode, read from the TypeScript schemas (no CUE is
 * loaded).
 *
 * @module
 */

import { type CommandRun, emit } from "../cli/command.ts";
import type { Style } from "../cli/output.ts";
import { Exit } from "../cli/exit.ts";
import { MODES, PROVIDERS } from "../providers/registry.ts";
import { importPath, type Mode, type ProviderSchema } from "../providers/schema.ts";

/** One provider as `--json` prints it. */
export interface ProviderDoc {
  source: string;
  version: string;
  import_path: string;
  /** The type names of each mode, sorted; every mode is present, maybe empty. */
  types: Record<Mode, string[]>;
}

/** The document that `pravo providers --json` prints. */
export interface ProvidersDoc {
  format_version: "1.0";
  providers: ProviderDoc[];
}

export const run: CommandRun = (ctx) => {
  const doc = providersDoc(PROVIDERS);
  emit(ctx, doc, () => renderProviders(doc, ctx.style));
  return Promise.resolve(Exit.OK);
};

/** Builds the document for these providers, in the order given. */
export function providersDoc(providers: readonly ProviderSchema[]): ProvidersDoc {
  return {
    format_version: "1.0",
    providers: providers.map((p) => {
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
        types,
      };
    }),
  };
}

/** The human view: per provider a heading, its import path and its types by mode. */
export function renderProviders(doc: ProvidersDoc, style: Style): string {
  const width = Math.max("import".length, ...MODES.map((m) => m.length));
  return doc.providers.map((p) => {
    const lines = [`${style.bold(p.source)} ${p.version}`];
    lines.push(`  ${"import".padEnd(width)}  ${p.import_path}`);
    for (const m of MODES) {
      if (p.types[m].length > 0) lines.push(`  ${m.padEnd(width)}  ${p.types[m].join(", ")}`);
    }
    return lines.join("\n") + "\n";
  }).join("\n");
}
