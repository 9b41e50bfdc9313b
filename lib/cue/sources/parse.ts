/**
 * Checking a root's sources given as text, without CUE: parsed, of one
 * package, their imports and tags checked, indexed.
 *
 * @module
 */

import type { Result } from "../result.ts";
import { checkImports } from "./imports.ts";
import { packageNameOf } from "./package_name.ts";
import { parseFiles } from "./parse_files.ts";
import { sourceIndex } from "./source_index.ts";
import { type Sources, sourcesDigest, type SourcesWorkspace, type SourceText } from "./sources.ts";
import { declaredTags } from "./tags.ts";
import { wordsOf } from "./words.ts";

/**
 * Checks sources given as text: the root's files as read, or as a saved plan
 * holds them, against the root's providers (the workspace's registry, and
 * the lock's refusal when its plugin providers cannot be had).
 */
export function parseSources(
  root: string,
  all: SourceText[],
  providers: SourcesWorkspace,
): Result<Sources> {
  const parsed = parseFiles(all);
  if (parsed.diagnostics.length) return { ok: false, diagnostics: parsed.diagnostics };
  const { files, packages, modulePath } = parsed;
  const named = packageNameOf(files);
  const imports = checkImports(root, { parsed, providers });
  if (!imports.ok) return imports;
  const tags = declaredTags(files);
  const diags = [...named.diagnostics, ...imports.diagnostics, ...tags.diagnostics];
  if (diags.length) return { ok: false, diagnostics: diags };
  return {
    ok: true,
    value: {
      root,
      packageName: named.packageName!,
      files,
      packages,
      modulePath,
      given: all,
      providers: imports.value,
      tags: tags.tags,
      index: sourceIndex(parsed, providers.registry),
      // Every file read counts: an edit to a package of the module is a change.
      digest: sourcesDigest(all.length === files.length ? files : all),
      words: wordsOf(parsed),
      registry: providers.registry,
      workspace: providers,
    },
    diagnostics: [],
  };
}
