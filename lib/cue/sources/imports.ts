/**
 * The imports of a root's files: a provider that pravo ships or that the
 * root's lock pins (`pravo.dev/providers/hashicorp/random`), one of CUE's
 * builtin packages, or a package of the root's module; each one used.
 *
 * @module
 */

import { type Diagnostic, didYouMean, error } from "../../diag/diag.ts";
import type { Registry } from "../../providers/registry.ts";
import { importPath } from "../../providers/schema.ts";
import {
  dependencyOf,
  dependencyVersions,
  packageDirectory,
  packagePathOf,
  VENDOR_DIR,
} from "../modules.ts";
import { type ParsedFile, type Ref, resolve } from "../syntax/mod.ts";
import type { Result } from "../result.ts";
import type { ParsedSources } from "./parse_files.ts";
import { allFiles, pos, type SourcesWorkspace } from "./sources.ts";

/** The builtin packages of CUE v0.4.3 that a specification may import. */
export const BUILTIN_PACKAGES = [
  "crypto/ed25519",
  "crypto/hmac",
  "crypto/md5",
  "crypto/sha1",
  "crypto/sha256",
  "crypto/sha512",
  "encoding/base64",
  "encoding/csv",
  "encoding/hex",
  "encoding/json",
  "encoding/yaml",
  "html",
  "list",
  "math",
  "math/bits",
  "net",
  "path",
  "regexp",
  "strconv",
  "strings",
  "struct",
  "text/tabwriter",
  "text/template",
  "time",
  "uuid",
];

const PROVIDER_PREFIX = "pravo.dev/providers/";

type File = { name: string; parsed: ParsedFile };
type Import = ParsedFile["imports"][number];
type Where = { range: ReturnType<typeof pos> };

/** What an import is checked against: the root, its module and the modules its deps list. */
interface ImportContext {
  root: string;
  registry: Registry;
  workspace: SourcesWorkspace;
  modulePath?: string;
  packagePaths: Set<string>;
  listedDeps: Map<string, string>;
}

/**
 * Checks the imports of the parsed sources. Ok: the provider sources they
 * import, sorted, and in `diagnostics` what is wrong with the imports. Not
 * ok when the root's providers cannot be had at all (its lock or its
 * configuration refused): those diagnostics alone.
 */
export function checkImports(
  root: string,
  { parsed, providers: given }: { parsed: ParsedSources; providers: SourcesWorkspace },
): Result<string[]> {
  if (given.catalogDiagnostics.length) {
    return { ok: false, diagnostics: [...given.catalogDiagnostics] };
  }
  const providers = new Set<string>();
  const diags: Diagnostic[] = [];
  const ctx: ImportContext = {
    root,
    registry: given.registry,
    workspace: given,
    modulePath: parsed.modulePath,
    packagePaths: new Set(parsed.packages.map((p) => p.path)),
    listedDeps: dependencyVersions(parsed.moduleSrc ?? ""),
  };
  for (const f of allFiles(parsed)) {
    for (const imp of f.parsed.imports) {
      const d = _checkImport(ctx, f, imp, providers);
      if (d) diags.push(d);
    }
  }
  return { ok: true, value: [...providers].sort(), diagnostics: diags };
}

/** What is wrong with one import, if anything; a provider it imports goes into `providers`. */
function _checkImport(
  ctx: ImportContext,
  f: File,
  imp: Import,
  providers: Set<string>,
): Diagnostic | undefined {
  const where = { range: pos(f.name, imp.line, imp.column) };
  const dir = ctx.modulePath ? packageDirectory(ctx.modulePath, imp.path) : undefined;
  if (dir !== undefined) {
    // A package of the root's own module, or of a dependency module
    // vendored in cue.mod/pkg (modules.ts).
    const bare = packagePathOf(ctx.modulePath!, dir);
    if (!ctx.packagePaths.has(bare)) return _unknownPackage(ctx, imp, dir, bare, where);
    return _unused(f, imp, where, false);
  }
  if (imp.path.startsWith(PROVIDER_PREFIX)) {
    const source = imp.path.slice(PROVIDER_PREFIX.length);
    if (!ctx.registry.findProvider(source)) return _unknownProvider(ctx, imp, source, where);
    providers.add(source);
  } else if (!BUILTIN_PACKAGES.includes(imp.path)) {
    const hint = didYouMean(imp.path, BUILTIN_PACKAGES);
    return error(
      "Unknown import",
      `"${imp.path}" is neither one of CUE's builtin packages nor a pravo provider${
        hint ? ` (${hint})` : ""
      }${
        ctx.modulePath
          ? ` nor a package of this module (${ctx.modulePath})`
          : ", and the root is no CUE module (cue.mod/module.cue)"
      }. Import a builtin package (such as "strings"), a provider as "${PROVIDER_PREFIX}<namespace>/<name>", or a package of the root's module by its path.`,
      where,
    );
  }
  return _unused(f, imp, where, true);
}

/** The diagnostic for an import of a package of the module that the sources do not hold. */
function _unknownPackage(
  ctx: ImportContext,
  imp: Import,
  dir: string,
  bare: string,
  where: Where,
): Diagnostic {
  return error(
    "Unknown package",
    dir.startsWith(VENDOR_DIR + "/")
      ? dependencyOf(bare, ctx.listedDeps)
        ? `"${imp.path}" is a package of the module ${
          dependencyOf(bare, ctx.listedDeps)!.module
        }, which cue.mod/module.cue's deps list but pravo.lock.json does not pin, and which is not vendored in ${VENDOR_DIR}. Run \`pravo init\` to fetch it from its registry ($CUE_REGISTRY) and pin it; or copy the module's files under ${VENDOR_DIR}/<module path>.`
        : `"${imp.path}" is a package of another module, so it lives in the directory ${dir} of the root (CUE's vendored layout), which holds no .cue file. List its module in cue.mod/module.cue's deps and run \`pravo init\`, which fetches it from a registry ($CUE_REGISTRY) and pins it in pravo.lock.json; or copy the module's files there (its packages under ${VENDOR_DIR}/<module path>); or correct the import.`
      : `"${imp.path}" is a package of this module (${ctx.modulePath}), so it lives in the directory ${dir} of the root, which holds no .cue file. Write the package there, or correct the import.`,
    where,
  );
}

/** The diagnostic for an import of a provider that is neither built in nor pinned. */
function _unknownProvider(
  { registry, workspace }: ImportContext,
  imp: Import,
  source: string,
  where: Where,
): Diagnostic {
  const known = registry.allProviders().map((p) => importPath(p.source));
  const hint = didYouMean(imp.path, known);
  return error(
    "Unknown provider",
    `No provider is imported as "${imp.path}"${hint ? ` (${hint})` : ""}. ${
      requiredNotLocked(workspace, source)
        ? `pravo.jsonc requires ${source}, but pravo.lock.json does not pin it: run \`pravo init\` to install and pin it.`
        : `The providers are: ${
          known.join(", ")
        }. Import one of them (run \`pravo providers\` for their types), or require a Terraform provider in pravo.jsonc ("providers") and run \`pravo init\`.`
    }`,
    where,
  );
}

/**
 * The diagnostic for an import that nothing refers to, which CUE refuses.
 * `unresolved`: only a reference that resolves to no declaration of the
 * file counts (a field may have the import's name).
 */
function _unused(f: File, imp: Import, where: Where, unresolved: boolean): Diagnostic | undefined {
  const names = (r: Ref) => r.name === imp.name && (!unresolved || !resolve(r));
  const used = [...f.parsed.sites, ...f.parsed.lets].some((s) => s.refs.some(names)) ||
    f.parsed.topRefs.some(names);
  if (used) return undefined;
  return error(
    `Import "${imp.path}" is not used`,
    `CUE refuses an import that nothing refers to. Use "${imp.name}" in ${f.name}, or remove the import.`,
    where,
  );
}

/** True when pravo.jsonc requires this plugin source (`hashicorp/aws`) for the root. */
function requiredNotLocked(workspace: SourcesWorkspace, source: string): boolean {
  try {
    return (workspace.config.config.providers ?? []).some((p) =>
      `${p.address.namespace}/${p.address.type}` === source
    );
  } catch {
    return false;
  }
}
