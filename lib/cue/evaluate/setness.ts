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
import { evaluate, rootCache } from "../engine.ts";
import { formatPath } from "../errors.ts";
import { buildProgram, HIDDEN_WRAP } from "../program.ts";
import { SET_MARKER } from "../provider_cue.ts";
import type { Sources } from "../sources/sources.ts";
import type { KnownValues } from "./known.ts";
import { modulePackages, type Packages } from "./packages.ts";

/** The fields set in each node, by address. */
export type Setness = Map<string, Set<string>>;

/**
 * What {@link setnessOf} found, by sources, declarations and addresses: one
 * evaluation saved each, for the evaluations of a root that ask the same.
 */
export type SetnessMemo = Map<string, Setness>;

/** What {@link setnessOf} asks. */
export interface SetnessQuestion {
  /** The declarations the program is given: tags, known values, pins. */
  decls: string[];
  packages: Packages;
  /** The nodes asked about (sorted in place). */
  addresses: string[];
  memo: SetnessMemo;
}

/**
 * The paths where the sources declare nodes: fields whose value refers to a
 * provider's `#Resource`, `#Data` or `#Ephemeral` type. Nodes made by
 * comprehensions are not among them.
 */
export function staticNodePaths(sources: Sources): string[] {
  const out = new Set<string>();
  for (const f of sources.files) {
    for (const s of f.parsed.sites) {
      if (!s.path || s.nonRegular) continue;
      if (
        s.refs.some((r) => {
          const i = r.selectors.findIndex((x) =>
            x === "#Resource" || x === "#Data" || x === "#Ephemeral"
          );
          return i >= 0 && i + 1 < r.selectors.length;
        })
      ) out.add(formatPath(s.path));
    }
  }
  return [...out];
}

/**
 * Which fields the configuration sets in each of these nodes (addresses):
 * one evaluation of the `setness` variant of the plugin packages, which
 * lists each node's regular fields. Remembered in the memo per sources,
 * declarations and addresses. A node that is none is left out. When the
 * evaluation fails at one node's list (its value reads an optional and
 * computed attribute of another node that is not pinned yet, say), that
 * node is left out and the others are evaluated again, so that one node
 * that cannot be told yet does not hide the rest (the loader asks again for
 * it, with the values it has pinned by then).
 */
export async function setnessOf(sources: Sources, q: SetnessQuestion): Promise<Setness> {
  const { decls, packages, addresses } = q;
  const key = JSON.stringify([sources.digest, decls, addresses.sort()]);
  const memo = q.memo.get(key);
  if (memo) return memo;
  const out: Setness = new Map();
  const bodies = new Map(packages.main);
  for (const [s, b] of packages.setness) bodies.set(s, b);
  const cache = rootCache(sources.root);
  let asked = [...addresses];
  while (asked.length) {
    const projection = `"@setness": {\n${
      asked.map((a, i) =>
        `\t"${i}": *${formatPath([HIDDEN_WRAP, ...addressPath(a)])}.${
          JSON.stringify(SET_MARKER)
        } | null`
      ).join("\n")
    }\n}`;
    const res = await evaluate(
      buildProgram({
        files: sources.files.map((f) => ({ parsed: f.parsed, src: f.src })),
        ...modulePackages(sources),
        providers: bodies,
        imports: packages.imports,
        extra: decls,
        projection,
      }).source,
      { cacheDir: cache?.dir, cacheKey: cache?.key },
    );
    if (res.ok) {
      const got = (JSON.parse(res.json) as { "@setness"?: Record<string, unknown> })["@setness"] ??
        {};
      asked.forEach((a, i) => {
        const v = got[String(i)];
        if (Array.isArray(v)) out.set(a, new Set(v.map(String)));
      });
      break;
    }
    const failed = /"@setness"\."(\d+)"/.exec(res.message)?.[1];
    if (failed === undefined || Number(failed) >= asked.length) break;
    asked = asked.filter((_, i) => i !== Number(failed));
  }
  q.memo.set(key, out);
  return out;
}

/** What {@link learnDeclaredSetness} asks with. */
export interface DeclaredSetnessInput {
  known: KnownValues;
  packages: Packages;
  /** The `-t` values as declarations. */
  tags: string[];
  /** Whether the evaluation traces values known only after apply. */
  trace: boolean;
  memo: SetnessMemo;
}

/**
 * Learns which fields the configuration sets in the nodes the sources
 * declare, and in the known nodes whose setness is asked: when the sources
 * may use such a type, and the evaluation traces or is given such nodes.
 */
export async function learnDeclaredSetness(
  sources: Sources,
  input: DeclaredSetnessInput,
): Promise<void> {
  const { known, packages, memo } = input;
  if (!packages.tracked || !(input.trace || known.pluginKinds.size)) return;
  const candidates = new Set([...staticNodePaths(sources), ...known.pluginKinds.keys()]);
  const addresses = [...candidates];
  for (
    const [a, set] of await setnessOf(sources, { decls: input.tags, packages, addresses, memo })
  ) {
    known.setness.set(a, set);
  }
}
