/**
 * The human view of `pravo providers`, drawn from the document that `--json` prints.
 *
 * @module
 */

import type { Style } from "../diag/style.ts";
import { displayAddress, parseProviderSource } from "../providers/install/address.ts";
import { MODES } from "../providers/registry.ts";
import type { Mode } from "../providers/schema.ts";

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

/** The most type names of one mode a plugin provider's human view lists. */
const MAX_LISTED = 30;
