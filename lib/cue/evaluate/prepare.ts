/**
 * The first passes of an evaluation, which make its program: the `-t`
 * values as declarations, the provider packages, the values known from the
 * state, which fields the declared nodes set, and the defaults pinned from
 * the start; an {@link Evaluator} holds them.
 *
 * @module
 */

import { rootCache } from "../engine.ts";
import type { Result } from "../result.ts";
import type { EvaluateOptions } from "../spec.ts";
import type { Sources } from "../sources/sources.ts";
import { Deps } from "./deps.ts";
import { Evaluator } from "./evaluator.ts";
import { KnownValues } from "./known.ts";
import { providerPackages } from "./packages.ts";
import { defaultPins } from "./pins.ts";
import { learnDeclaredSetness, type SetnessMemo } from "./setness.ts";
import { tagDeclarations } from "./tag_values.ts";

/** The setness memo of the evaluations that are given none (EvaluateOptions `setnessMemo`). */
const processMemo: SetnessMemo = new Map();

/** The program of an evaluation of the sources with these options; wrong tags are diagnostics. */
export async function prepare(sources: Sources, opts: EvaluateOptions): Promise<Result<Evaluator>> {
  const tags = tagDeclarations(sources, opts.tags ?? {});
  if (!tags.ok) return tags;
  const packages = await providerPackages(sources);
  if (!packages.ok) return packages;
  const { index } = sources;
  const cache = rootCache(sources.root, sources.workspace.pinned);
  const trace = opts.trace !== false;
  const memo = opts.setnessMemo ?? processMemo;
  const known = new KnownValues(index, opts);
  let aliasing: Deps | undefined;
  const deps = () => aliasing ??= new Deps(sources, []);
  const pending = await learnDeclaredSetness(sources, {
    known,
    packages: packages.value,
    tags: tags.value,
    deps,
    memo,
  });
  const ev = new Evaluator(sources, {
    index,
    packages: packages.value,
    known,
    tags: tags.value,
    defaultPins: defaultPins(known, { index, deps }),
    pending,
    reveal: opts.reveal === true,
    trace,
    cache,
    memo,
    deps,
  });
  return { ok: true, value: ev, diagnostics: [] };
}
