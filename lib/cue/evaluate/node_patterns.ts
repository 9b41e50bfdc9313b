/**
 * Where the sources declare nodes, also those that comprehensions and
 * definitions make: a field whose value is a provider's type (`b:
 * $time.#Resource.time_static & {...}`) declares a node at its path; one in
 * a comprehension's body at the path of the field that holds it, with a
 * computed label (`b: {for i in list.Range(0, n, 1) {"\(i)": ...}}` declares
 * `b.*`); and a field that embeds a value holding nodes (`mods: {for k in ks
 * {(k): #M & {...}}}`, `p: #M`) declares them again under it (`mods.*.t`,
 * `p.t` of `#M.t`). The setness evaluation asks the nodes at these
 * patterns, so that the attributes they leave to the provider are pinned
 * before the first evaluation, however a reference reaches them.
 *
 * @module
 */

import { allFiles, type Sources } from "../sources/sources.ts";
import { tracksSetness } from "../provider_cue.ts";
import { declaredType, type Deps } from "./deps.ts";

/** Paths where nodes may be: a label, or null where a comprehension or a dynamic label computes it. */
export type NodePattern = readonly (string | null)[];

/** The most patterns followed: a bound on definitions that embed each other. */
const MAX_PATTERNS = 10_000;
/** The longest pattern followed. */
const MAX_LENGTH = 64;

/**
 * The patterns of the paths where the sources declare nodes whose setness
 * is asked (provider_cue.ts `tracksSetness`), and where their instances
 * are, through what embeds them, sorted. Left out: those that pass through
 * a definition or a hidden field (no nodes there), and those under another
 * node (a reference in a node's attribute is no instance: `prefix: b[k].id`
 * reads `b`).
 */
export function nodePatterns(sources: Sources, deps: Deps): NodePattern[] {
  const found = new Map<string, { p: NodePattern; tracked: boolean }>();
  const todo: { p: NodePattern; tracked: boolean }[] = [];
  const add = (p: NodePattern, tracked: boolean) => {
    const k = JSON.stringify(p);
    if (found.has(k) || found.size >= MAX_PATTERNS || p.length > MAX_LENGTH) return;
    found.set(k, { p, tracked });
    todo.push({ p, tracked });
  };
  for (const f of allFiles(sources)) {
    for (const s of f.parsed.sites) {
      if (s.kind === "let" || s.kind === "alias" || s.kind === "for") continue;
      const t = declaredType(s, sources.registry);
      const p = t ? deps.patternOf(s) : undefined;
      if (p) add(p, tracksSetness(t!));
    }
  }
  // By the first label of the value embedded: most patterns start with a label.
  const all = deps.embeddings().filter((e) => e.value.length > 0);
  const byFirst = Map.groupBy(all, (e) => e.value[0]);
  while (todo.length) {
    const { p, tracked } = todo.pop()!;
    for (const { at, value } of p[0] === null ? all : byFirst.get(p[0]) ?? []) {
      if (_within(p, value)) add([...at, ...p.slice(value.length)], tracked);
    }
  }
  const underNode = (p: NodePattern) =>
    p.some((_, k) => k > 0 && found.has(JSON.stringify(p.slice(0, k))));
  return [...found.values()]
    .filter(({ p, tracked }) =>
      tracked && p.every((l) => l === null || !/^[#_]/.test(l)) && !underNode(p)
    )
    .map(({ p }) => p)
    .sort((a, b) => JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);
}

/** Whether the paths of `p` lie under `value` (a computed label of `p` may be any of its labels). */
function _within(p: NodePattern, value: readonly string[]): boolean {
  return value.length <= p.length && value.every((l, i) => p[i] === null || p[i] === l);
}
