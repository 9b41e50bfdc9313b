/**
 * Loading a root: its `.cue` files, the provider packages they import, tags,
 * and the nodes the evaluated package declares, with their dependencies.
 *
 * `readRoot` reads and checks the sources without CUE (sources/);
 * `evaluateRoot` runs cue-wasm on them, with tags and with values known
 * from the state unified in, and returns the nodes: a pipeline of passes,
 * one a file in evaluate/. Every problem comes back as a diagnostic with a
 * file, line and column.
 *
 * @module
 */

import { MOVED, readMoved } from "./moved.ts";
import type { Result } from "./result.ts";
import type { EvaluateOptions, Spec } from "./spec.ts";
import { readRoot } from "./sources/read.ts";
import type { Sources } from "./sources/sources.ts";
import { decidedByUnknown } from "./evaluate/decided.ts";
import { cycleDiagnostics, linkDependencies } from "./evaluate/dependencies.ts";
import { explainFailure } from "./evaluate/explain.ts";
import { findNodes } from "./evaluate/find.ts";
import { learnFoundSetness } from "./evaluate/found_setness.ts";
import { buildNodes } from "./evaluate/nodes.ts";
import { outputsOf } from "./evaluate/outputs.ts";
import { prepare } from "./evaluate/prepare.ts";
import { compareStandIns } from "./evaluate/secret_dependence.ts";
import { secretForms } from "./evaluate/secret_forms.ts";
import { taintBySecrets } from "./evaluate/secret_taint.ts";
import { settle } from "./evaluate/settle.ts";
import { specOf } from "./evaluate/spec_of.ts";
import { traceUnknowns } from "./evaluate/trace.ts";
import { packageOf } from "./evaluate/values.ts";
import type { SourcesWorkspace } from "./sources/sources.ts";

export { readRoot } from "./sources/read.ts";
export { parseSources } from "./sources/parse.ts";
export { MAX_SOURCE_BYTES } from "./sources/files.ts";
export { BUILTIN_PACKAGES } from "./sources/imports.ts";
export {
  type Sources,
  sourcesDigest,
  type SourcesWorkspace,
  specDigest,
  type TagDecl,
} from "./sources/sources.ts";
export type { EvaluateOptions, LifecycleSettings, Node, ProviderInstance, Spec } from "./spec.ts";
export type { Result } from "./result.ts";

/** Evaluates the sources with cue-wasm and returns the nodes. */
export async function evaluateRoot(
  sources: Sources,
  opts: EvaluateOptions = {},
): Promise<Result<Spec>> {
  const prepared = await prepare(sources, opts);
  if (!prepared.ok) return prepared;
  const ev = prepared.value;
  const { index, known, trace } = ev;
  // The first evaluation; then what it holds, traced and compared.
  const first = await settle(ev);
  if (!first.ok) return { ok: false, diagnostics: await explainFailure(ev, first.message) };
  const tree = packageOf(first.json) ?? {};
  const { found, diagnostics: diags } = findNodes(tree, index);
  await learnFoundSetness(ev, found);
  const traced = await traceUnknowns(ev, { found, tree });
  const stoodIn = await compareStandIns(ev, { tree, traced });
  if (!stoodIn.ok) return stoodIn;
  const { stood, dependence } = stoodIn.value;
  // The nodes, their dependencies, and what depends on a secret or an unknown.
  const built = buildNodes(sources, { found, known, traced, dependence });
  const { nodes, sentinels } = { nodes: built.nodes, sentinels: traced.sentinels };
  diags.push(...built.diagnostics, ...linkDependencies(sources, { nodes, sentinels }));
  const secret = taintBySecrets(sources, { nodes, secrets: known.secrets, dependence });
  diags.push(...secret.diagnostics);
  if (diags.length) return { ok: false, diagnostics: diags };
  if (trace) {
    const decided = decidedByUnknown(sources, { nodes, sentinels, found, traced: traced.traced });
    if (decided.length) return { ok: false, diagnostics: decided };
  }
  await secretForms(ev, { nodes, tainted: secret.tainted, tree, stood });
  diags.push(...cycleDiagnostics(nodes));
  // Renamed nodes (moved.ts): checked against the nodes declared.
  const moved = readMoved(tree[MOVED], nodes, index);
  const outputs = outputsOf({ tree, traced: traced.traced }, index);
  diags.push(...moved.diagnostics, ...outputs.diagnostics);
  if (diags.length) return { ok: false, diagnostics: diags };
  const spec = specOf(sources, {
    nodes,
    found,
    outputs: outputs.outputs,
    sentinels,
    moved: moved.moved,
    tainted: secret.tainted,
    dependence,
    tags: opts.tags ?? {},
  });
  return { ok: true, value: spec, diagnostics: [] };
}

/** Reads and evaluates a root in one go, against its providers (the workspace's). */
export async function loadRoot(
  root: string,
  providers: SourcesWorkspace,
  opts: EvaluateOptions = {},
): Promise<Result<Spec>> {
  const sources = readRoot(root, providers);
  if (!sources.ok) return sources;
  return await evaluateRoot(sources.value, opts);
}
