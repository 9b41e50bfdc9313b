/**
 * The provider packages a root's program holds: the built-in providers'
 * as they ship, the plugin providers' generated for the types the files
 * may use, each in the variants the evaluations need.
 *
 * @module
 */

import { DiagnosticsError, error } from "../../diag/diag.ts";
import { pluginPackage, usedTypes } from "../plugin_cue.ts";
import type { ProgramInput } from "../program.ts";
import { providerPackage, tracksSetness } from "../provider_cue.ts";
import type { Result } from "../result.ts";
import type { Sources } from "../sources/sources.ts";

/** The provider packages of a root's program. */
export interface Packages {
  main: Map<string, string>;
  /** The `setness` variant of the plugin providers' bodies (plugin_cue.ts). */
  setness: Map<string, string>;
  /** The bodies without `null` on optional attributes: for precise messages. */
  strict: Map<string, string>;
  /** The bodies for the traced evaluation (provider_cue.ts `computedHolder`). */
  traced: Map<string, string>;
  /** Builtin packages the bodies use. */
  imports: string[];
  /** The plugin sources. */
  plugins: Set<string>;
  /** Whether the sources may use a type whose nodes' setness is asked (provider_cue.ts `tracksSetness`). */
  tracked: boolean;
}

/**
 * The packages of the providers the sources import: the built-in ones as
 * they ship, the plugin ones generated with the types the files may use
 * (their schemas fetched and cached first when they are not).
 */
export async function providerPackages(sources: Sources): Promise<Result<Packages>> {
  const main = new Map<string, string>();
  const setness = new Map<string, string>();
  const strict = new Map<string, string>();
  const traced = new Map<string, string>();
  const plugins = new Set<string>();
  let usesList = false;
  let tracked = false;
  const { registry } = sources;
  const catalog = registry.catalog;
  const pluginSources = sources.providers.filter((s) =>
    registry.findProvider(s)?.plugin || !registry.findProvider(s)
  );
  if (catalog && pluginSources.length) {
    const diags = await catalog.ensureSchemas(pluginSources);
    // Not the specification's fault: a provider that cannot give its schema.
    if (diags.some((d) => d.severity === "error")) throw new DiagnosticsError(diags, "error");
  }
  for (const s of sources.providers) {
    const p = registry.findProvider(s);
    if (!p) {
      return {
        ok: false,
        diagnostics: [
          error(
            `The schema of ${s} is not at hand`,
            "pravo could not read it from its cache nor from the provider. Run `pravo init`, then try again.",
          ),
        ],
      };
    }
    if (!p.plugin) {
      main.set(s, providerPackage(p));
      setness.set(s, providerPackage(p, { setness: true }));
      tracked ||= p.types.some((t) => tracksSetness(t) && sources.words.has(t.name));
      strict.set(s, providerPackage(p, { strict: true }));
      traced.set(s, providerPackage(p, { traced: true }));
      continue;
    }
    plugins.add(s);
    tracked = true;
    const names = catalog?.typeNames(s) ?? { managed: [], data: [], ephemeral: [], call: [] };
    const types = usedTypes(sources.words, names).flatMap(({ mode, name }) => {
      const t = registry.findType(s, mode, name);
      return t?.plugin ? [{ mode, name, block: t.plugin.block }] : [];
    });
    for (const variant of ["main", "setness"] as const) {
      const g = pluginPackage({ source: s, config: p.plugin.config, types, variant });
      usesList ||= g.usesList;
      (variant === "main" ? main : setness).set(s, g.body);
    }
    strict.set(
      s,
      pluginPackage({ source: s, config: p.plugin.config, types, variant: "main", strict: true })
        .body,
    );
    traced.set(
      s,
      pluginPackage({ source: s, config: p.plugin.config, types, variant: "main", traced: true })
        .body,
    );
  }
  return {
    ok: true,
    value: { main, setness, strict, traced, imports: usesList ? ["list"] : [], plugins, tracked },
    diagnostics: [],
  };
}

/** The module's packages and path, as buildProgram takes them. */
export function modulePackages(sources: Sources): Pick<ProgramInput, "packages" | "modulePath"> {
  if (!sources.modulePath) return {};
  return {
    modulePath: sources.modulePath,
    packages: sources.packages.map((p) => ({
      path: p.path,
      files: p.files.map((f) => ({ parsed: f.parsed, src: f.src })),
    })),
  };
}
