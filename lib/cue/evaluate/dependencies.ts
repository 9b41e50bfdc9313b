/**
 * The dependencies of nodes, read from where values flow in the sources
 * (deps.ts): each node's list, the templates that wait for them, a
 * reference from a stored node to an ephemeral one, and cycles.
 *
 * @module
 */

import { type Diagnostic, error } from "../../diag/diag.ts";
import { findCycle } from "../../graph/cycle.ts";
import type { Node } from "../spec.ts";
import type { Sources } from "../sources/sources.ts";
import { type SentinelRef, sentinelRefs } from "../unknowns.ts";
import { Deps } from "./deps.ts";

/**
 * Sets each node's dependencies (the nodes it refers to, sorted). A
 * template waits only for the nodes it depends on: one whose sentinel came
 * through another node's input (`pw.length - 10`, where pw's length is
 * size.result) is evaluated again at apply instead, once the node it
 * depends on is applied. A node that is stored (not ephemeral) and refers
 * to an ephemeral one is a diagnostic.
 */
export function linkDependencies(
  sources: Sources,
  input: { nodes: Node[]; sentinels: readonly SentinelRef[] },
): Diagnostic[] {
  const { nodes, sentinels } = input;
  const byAddress = new Map(nodes.map((n) => [n.address, n]));
  const deps = dependencies(sources, nodes);
  for (const n of nodes) {
    n.dependencies = [...(deps.get(n.address) ?? [])].filter((d) => byAddress.has(d)).sort();
    const own = new Set(n.dependencies);
    for (const [k, t] of Object.entries(n.templates)) {
      if (sentinelRefs(t, sentinels).every((r) => own.has(r.address))) continue;
      delete n.templates[k];
      n.needsEvaluation.push(k);
    }
  }
  const diags: Diagnostic[] = [];
  for (const n of nodes) {
    if (n.mode === "ephemeral") continue;
    for (const d of n.dependencies) {
      const dep = byAddress.get(d)!;
      if (dep.mode !== "ephemeral") continue;
      diags.push(
        error(
          "Ephemeral value would be stored",
          `${n.address} refers to ${d}, an ephemeral ${dep.type} whose values are opened for one run and never stored; ${
            n.mode === "managed" ? "a resource's attributes are" : "a data source's attributes are"
          } kept in the state. Remove the reference, or use a managed ${dep.type} if the value must persist.`,
          { address: n.address, range: n.range },
        ),
      );
    }
  }
  return diags;
}

/** A cycle of the nodes' dependencies, as a diagnostic at its first node. */
export function cycleDiagnostics(nodes: readonly Node[]): Diagnostic[] {
  const cycle = findCycle(nodes);
  if (!cycle) return [];
  const first = nodes.find((n) => n.address === cycle[0])!;
  return [
    error(
      "Dependency cycle",
      `These nodes refer to each other in a cycle: ${
        [...cycle, cycle[0]].join(" -> ")
      }. pravo cannot tell which to create first; remove one of the references.`,
      { address: first.address, range: first.range },
    ),
  ];
}

/**
 * The nodes each node refers to, read from where values flow in the sources.
 *
 * A reference counts when it names a node, a field inside a node, or a
 * struct holding nodes; a reference to any other declaration (a definition,
 * a let, a hidden field, a plain field) counts for what that declaration's
 * value refers to, followed transitively.
 *
 * A field that embeds or unifies another value (`q: #Queue & {...}`, `m: #M
 * & {#in: n: base.result}`) is, for this reading, also every field of that
 * value: `m.first` is declared at `m.first` and at `#M.first` (its aliases,
 * {@link Deps.aliases}). A reference written inside `#M` to one of `#M`'s
 * own fields (`#in.n`, `first.id`) is read, for the instance `m`, as a
 * reference to `m`'s field (`m.#in.n`, `m.first.id`): so the input given
 * at `m.#in.n` and the sibling node `m.first` are found, as values flow, and
 * not the definition's own declarations. The structs around a node count
 * with the clauses of their comprehensions (which decide whether the node
 * exists) and with what their comprehensions' bodies declare.
 */
export function dependencies(sources: Sources, nodes: readonly Node[]): Map<string, Set<string>> {
  const deps = new Deps(sources, nodes);
  const result = new Map<string, Set<string>>();
  for (const n of nodes) {
    const out = deps.ofNode(n.path);
    out.delete(n.address);
    result.set(n.address, out);
  }
  return result;
}
