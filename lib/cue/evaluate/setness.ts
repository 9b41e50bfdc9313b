/**
 * Which fields the configuration sets in a node: for an optional and
 * computed attribute of a plugin node (or of a built-in type whose setness
 * is asked, provider_cue.ts `tracksSetness`), unset means the provider
 * computes it, which CUE cannot tell from a value. One evaluation of the
 * `setness` variant of the packages (plugin_cue.ts) lists each node's
 * regular fields.
 *
 * @module
 */

import { addressPath } from "../../addr/address.ts";
import { type EvalResult, evaluate, rootCache } from "../engine.ts";
import { formatPath, splitPath } from "../errors.ts";
import { buildProgram, HIDDEN_WRAP } from "../program.ts";
import { SET_MARKER } from "../provider_cue.ts";
import type { Sources } from "../sources/sources.ts";
import type { Deps } from "./deps.ts";
import type { KnownValues } from "./known.ts";
import { type NodePattern, nodePatterns } from "./node_patterns.ts";
import { modulePackages, type Packages } from "./packages.ts";

/** The fields set in each node, by address. */
export type Setness = Map<string, Set<string>>;

/**
 * What {@link setnessOf} found, by sources, declarations and what it was
 * asked: one evaluation saved each, for the evaluations of a root that ask
 * the same.
 */
export type SetnessMemo = Map<string, SetnessAnswer>;

/** What {@link setnessOf} asks. */
export interface SetnessQuestion {
  /** The declarations the program is given: tags, known values, pins. */
  decls: string[];
  packages: Packages;
  /** The nodes asked about (sorted in place). */
  addresses: string[];
  /** And the nodes at these patterns, where a comprehension computes labels (node_patterns.ts). */
  patterns?: readonly NodePattern[];
  memo: SetnessMemo;
}

/** What {@link setnessOf} tells. */
export interface SetnessAnswer {
  setness: Setness;
  /** The patterns asked whose nodes could not be told yet: to ask again with more values pinned. */
  left: NodePattern[];
}

/** One thing asked: a node's address, or a pattern. */
type Asked = { p: NodePattern; address?: string };

/**
 * Which fields the configuration sets in each of these nodes (addresses)
 * and in the nodes at these patterns: one evaluation of the `setness`
 * variant of the plugin packages, which lists each node's regular fields.
 * Remembered in the memo per sources, declarations and what is asked. A
 * node that is none is left out. When the evaluation fails at one node's
 * list (its value reads an optional and computed attribute of another node
 * that is not pinned yet, say), that node (or pattern) is left out and the
 * others are evaluated again, so that one node that cannot be told yet
 * does not hide the rest (the loader asks again for it, with the values it
 * has pinned by then).
 */
export async function setnessOf(sources: Sources, q: SetnessQuestion): Promise<SetnessAnswer> {
  const { decls, packages, addresses } = q;
  const patterns = q.patterns ?? [];
  const key = JSON.stringify([sources.digest, decls, addresses.sort(), ...patterns]);
  const memo = q.memo.get(key);
  if (memo) return memo;
  const out: SetnessAnswer = { setness: new Map(), left: [] };
  let asked: Asked[] = [
    ...addresses.map((address) => ({ p: addressPath(address), address })),
    ...patterns.map((p) => ({ p })),
  ];
  while (asked.length) {
    const res = await _evaluate(sources, { decls, packages, asked });
    if (res.ok) {
      const got = (JSON.parse(res.json) as { "@setness"?: Record<string, unknown> })["@setness"] ??
        {};
      asked.forEach(({ p, address }, i) => {
        const v = got[String(i)];
        if (address === undefined) _collect(p, v, out.setness);
        else if (Array.isArray(v)) out.setness.set(address, new Set(v.map(String)));
      });
      asked = [];
      break;
    }
    const failed = _failed(res.message, asked);
    if (!failed.size) break;
    out.left.push(...asked.filter((_, i) => failed.has(i)).map((a) => a.p));
    asked = asked.filter((_, i) => !failed.has(i));
  }
  // What no evaluation told, when one failed where nothing asked is.
  out.left.push(...asked.map((a) => a.p));
  q.memo.set(key, out);
  return out;
}

/** The evaluation of the `setness` variant that lists the fields set at what is asked. */
function _evaluate(
  sources: Sources,
  q: { decls: string[]; packages: Packages; asked: Asked[] },
): Promise<EvalResult> {
  const bodies = new Map(q.packages.main);
  for (const [s, b] of q.packages.setness) bodies.set(s, b);
  const cache = rootCache(sources.root, sources.workspace.pinned);
  const projection = `"@setness": {\n${
    q.asked.map(({ p }, i) => `\t"${i}": ${_fieldsAt(p)}`).join("\n")
  }\n}`;
  return evaluate(
    buildProgram({
      files: sources.files.map((f) => ({ parsed: f.parsed, src: f.src })),
      ...modulePackages(sources),
      providers: bodies,
      imports: q.packages.imports,
      extra: q.decls,
      projection,
    }).source,
    { cacheDir: cache?.dir, cacheKey: cache?.key },
  );
}

/**
 * Which of the things asked a failed evaluation failed at: the one whose
 * list it names, else those at or around the field it names (`b: cannot
 * reference optional field` where `b.*` is asked: its comprehension), else
 * the patterns (a comprehension of one reads what failed); none when only
 * addresses are left.
 */
function _failed(message: string, asked: Asked[]): Set<number> {
  const named = /"@setness"\."(\d+)"/.exec(message)?.[1];
  if (named !== undefined) return new Set(Number(named) < asked.length ? [Number(named)] : []);
  const m = /^(?:cue: marshal error: )?(\S+?): /.exec(message);
  const at = m ? splitPath(m[1]) : [];
  const path = at[0] === HIDDEN_WRAP ? at.slice(1) : undefined;
  const out = new Set<number>();
  asked.forEach(({ p }, i) => {
    const n = Math.min(p.length, path?.length ?? 0);
    if (n && p.slice(0, n).every((l, j) => l === null || l === path![j])) out.add(i);
  });
  // Elsewhere: the patterns, whose comprehensions may read it.
  if (!out.size) asked.forEach(({ address }, i) => address === undefined && out.add(i));
  return out;
}

/**
 * The CUE of the fields set in the nodes at a pattern: a node's list, or
 * null where there is none; where a label is computed, a struct of them by
 * that label (`{for k0, v0 in b {(k0): *v0."@set" | null}}`).
 */
function _fieldsAt(p: NodePattern, from: string[] = [HIDDEN_WRAP], depth = 0): string {
  const i = p.indexOf(null);
  const at = formatPath([...from, ...(i < 0 ? p : p.slice(0, i)) as string[]]);
  if (i < 0) return `*${at}.${JSON.stringify(SET_MARKER)} | null`;
  const [k, v] = [`pravo_k${depth}`, `pravo_v${depth}`];
  return `{for ${k}, ${v} in ${at} {(${k}): ${_fieldsAt(p.slice(i + 1), [v], depth + 1)}}}`;
}

/** Records the lists that {@link _fieldsAt} of `p` gave (`got`) at the nodes' addresses. */
function _collect(p: NodePattern, got: unknown, out: Setness, labels: string[] = []): void {
  const i = p.indexOf(null);
  const at = [...labels, ...(i < 0 ? p : p.slice(0, i)) as string[]];
  if (i < 0) {
    if (Array.isArray(got)) out.set(formatPath(at), new Set(got.map(String)));
    return;
  }
  if (typeof got !== "object" || got === null || Array.isArray(got)) return;
  for (const [k, v] of Object.entries(got)) _collect(p.slice(i + 1), v, out, [...at, k]);
}

/** What {@link learnDeclaredSetness} asks with. */
export interface DeclaredSetnessInput {
  known: KnownValues;
  packages: Packages;
  /** The `-t` values as declarations. */
  tags: string[];
  /** The dependency reading of the sources, made when first needed. */
  deps: () => Deps;
  memo: SetnessMemo;
}

/**
 * Learns which fields the configuration sets in the nodes the sources
 * declare (node_patterns.ts: also those that comprehensions and
 * definitions make), and in the known nodes whose setness is asked: when
 * the sources may use such a type. One evaluation, before the first: the
 * attributes they leave to the provider are then pinned from the start,
 * wherever a reference reaches them from (a computed key, an iteration).
 */
export async function learnDeclaredSetness(
  sources: Sources,
  input: DeclaredSetnessInput,
): Promise<NodePattern[]> {
  const { known, packages, memo } = input;
  if (!packages.tracked) return [];
  const addresses = new Set(known.pluginKinds.keys());
  const patterns: NodePattern[] = [];
  for (const p of nodePatterns(sources, input.deps())) {
    if (p.includes(null)) patterns.push(p);
    else addresses.add(formatPath(p as string[]));
  }
  const q = { decls: input.tags, packages, addresses: [...addresses], patterns, memo };
  const { setness, left } = await setnessOf(sources, q);
  for (const [a, set] of setness) known.setness.set(a, set);
  return left;
}
