/**
 * The `moved` declaration: Terraform's `moved` block, in CUE.
 *
 * ```cue
 * moved: [{from: "readme", to: "docs.readme_file"}]
 * ```
 *
 * A top-level list of `{from, to}` addresses. A plan finds the object of
 * `from` in the state and plans it as the node at `to`, so that a renamed
 * node keeps its object instead of being destroyed and created again; apply
 * records the move. `from` may also name a struct that held nodes (`net`),
 * whose records all move under `to`. Entries may chain (`a` to `b`, `b` to
 * `c`). An entry whose `from` has nothing in the state does nothing: it may
 * stay in the root for the roots that have not moved yet.
 *
 * Checked here, from the configuration alone: the shape, the addresses,
 * that `to` is declared (a node, or a struct of nodes) or is the `from` of
 * another entry, that `from` is not declared any more, and that no address
 * moves twice or in a cycle.
 *
 * @module
 */

import { type Diagnostic, didYouMean, error } from "../diag/diag.ts";
import type { Value } from "./program.ts";
import { locate, pathKey, type SourceIndex } from "./errors.ts";
import { addressLabels as labels } from "../addr/address.ts";

/** The top-level field that holds the moves. */
export const MOVED = "moved";

/** One entry of `moved`. */
export interface MovedEntry {
  from: string;
  to: string;
}

function under(inner: string[], outer: string[]): boolean {
  return outer.length <= inner.length && outer.every((l, i) => inner[i] === l);
}

/**
 * Reads and checks the `moved` list of an evaluated root; `nodes` are the
 * addresses of its nodes (by label path).
 */
export function readMoved(
  value: Value | undefined,
  nodes: { address: string; path: string[]; mode: string }[],
  index: SourceIndex,
): { moved: MovedEntry[]; diagnostics: Diagnostic[] } {
  if (value === undefined) return { moved: [], diagnostics: [] };
  const diags: Diagnostic[] = [];
  const range = (i?: number) =>
    (i === undefined ? undefined : locate(index, [MOVED, String(i)])?.pos) ??
      locate(index, [MOVED])?.pos;
  const shape = () =>
    error(
      "moved is not a list of moves",
      'The top-level field "moved" declares renamed nodes: a list of {from: "OLD", to: "NEW"}, ' +
        'addresses as strings, such as moved: [{from: "readme", to: "docs.readme_file"}]. ' +
        "Write it in that form, or rename the field if it means something else.",
      { range: range() },
    );
  if (!Array.isArray(value)) return { moved: [], diagnostics: [shape()] };
  const moved: MovedEntry[] = [];
  const managed = nodes.filter((n) => n.mode === "managed");
  const declared = (path: string[]) =>
    nodes.find((n) => pathKey(n.path) === pathKey(path)) ??
      nodes.find((n) => under(n.path, path));
  value.forEach((e, i) => {
    const o = e as Record<string, Value> | null;
    if (
      !o || typeof o !== "object" || Array.isArray(o) || typeof o.from !== "string" ||
      typeof o.to !== "string" || Object.keys(o).some((k) => k !== "from" && k !== "to")
    ) {
      diags.push({ ...shape(), range: range(i) });
      return;
    }
    const from = labels(o.from);
    const to = labels(o.to);
    for (const [what, text, l] of [["from", o.from, from], ["to", o.to, to]] as const) {
      if (!l) {
        diags.push(error(
          `moved: ${what} "${text}" is not an address`,
          "An address is a node's CUE path, labels joined with dots (`docs.readme_file`), a " +
            'label quoted when it is not an identifier (`sites."my site"`). Write it so.',
          { range: range(i) },
        ));
      }
    }
    if (!from || !to) return;
    moved.push({ from: o.from, to: o.to });
    if (under(to, from) || under(from, to)) {
      diags.push(error(
        `moved: ${o.from} and ${o.to} nest`,
        "A node cannot move inside itself, nor into the struct that holds it. Give a `to` " +
          "outside `from`.",
        { range: range(i) },
      ));
    }
  });
  // Each from once, no cycle, and each to declared or moved on.
  const froms = new Map<string, number>();
  moved.forEach((m, i) => {
    if (froms.has(m.from)) {
      diags.push(error(
        `moved: ${m.from} moves twice`,
        `Two entries of moved have from "${m.from}", so pravo cannot tell where its object ` +
          "goes. Keep one of them.",
        { range: range(i) },
      ));
    }
    froms.set(m.from, i);
  });
  const cycles = new Set<string>();
  moved.forEach((m, i) => {
    const path = labels(m.from)!;
    const still = declared(path);
    if (still) {
      diags.push(error(
        `moved: ${m.from} is still declared`,
        `moved says that ${m.from} became ${m.to}, but the root still declares ${still.address}. ` +
          `Remove or rename ${m.from} in the configuration, or remove the moved entry.`,
        { address: still.address, range: range(i) },
      ));
    }
    // Follow the chain to where it ends.
    const seen = new Set([m.from]);
    let to = m.to;
    while (froms.has(to) && !seen.has(to)) {
      seen.add(to);
      to = moved[froms.get(to)!].to;
    }
    if (seen.has(to)) {
      const cycle = [...seen].sort().join("\u0000");
      if (cycles.has(cycle)) return;
      cycles.add(cycle);
      diags.push(error(
        `moved: ${m.from} moves in a cycle`,
        `Following moved from ${m.from} comes back to ${to}. Remove one of the entries of the ` +
          "cycle.",
        { range: range(i) },
      ));
      return;
    }
    const target = labels(to)!;
    // A chain's end is checked once, at the entry that ends it.
    if (froms.has(m.to)) return;
    if (!declared(target)) {
      const hint = didYouMean(to, managed.map((n) => n.address));
      diags.push(error(
        `moved: ${to} is not declared`,
        `moved gives ${m.from} the address ${to}, where the root declares no node${
          hint ? ` (${hint})` : ""
        }. Terraform would move the object there and then destroy it; pravo refuses instead. ` +
          "Declare the node at that address, or correct `to`.",
        { range: range(i) },
      ));
    }
  });
  return { moved, diagnostics: diags };
}

/**
 * Where each address of the state goes by the moves: the final address of
 * `address` (chains followed), or undefined when no entry moves it. An entry
 * for a struct moves every address under it.
 */
export function movedTarget(moved: readonly MovedEntry[], address: string): string | undefined {
  let path = labels(address);
  if (!path) return undefined;
  let changed = false;
  for (let hops = 0; hops <= moved.length; hops++) {
    // The most specific entry that covers the address.
    let best: { from: string[]; to: string[] } | undefined;
    for (const m of moved) {
      const from = labels(m.from);
      const to = labels(m.to);
      if (!from || !to || !under(path, from)) continue;
      if (!best || from.length > best.from.length) best = { from, to };
    }
    if (!best) break;
    path = [...best.to, ...path.slice(best.from.length)];
    changed = true;
  }
  if (!changed) return undefined;
  return path.map((l) => (/^[A-Za-z_$#][A-Za-z0-9_$#]*$/.test(l) ? l : JSON.stringify(l)))
    .join(".");
}
