/**
 * What apply knows before it starts: the values, kinds, stored data and
 * secret names of every node, and what each node waits for.
 *
 * @module
 */

import type { Attrs, Plan, PlannedNode } from "../plan/types.ts";
import type { StoredObject } from "../providers/resource_provider.ts";
import { type AttrPath, sensitivePathsOf } from "../secrets/paths.ts";
import type { StateStore } from "../state/store.ts";
import type { TypeLookup } from "../providers/registry.ts";

/** A record of the state, or a node of the plan: what it is and which attributes are secrets. */
export type Kind =
  & Pick<PlannedNode, "provider" | "mode" | "type">
  & ({ sensitive: string[] } | { sensitivePaths: AttrPath[] });

/** What apply knows of every node before it starts: values, kinds, stored data, secret names. */
export interface Known {
  /** Values known now: nodes left as they are, and data read during plan. */
  values: Map<string, Attrs>;
  kinds: Map<string, Kind>;
  storedMeta: Map<string, Pick<StoredObject, "schemaVersion" | "private">>;
  /** The names of each node's sensitive attributes, as the planner reads them. */
  secretNames: Map<string, string[]>;
}

export async function knownBefore(
  plan: Plan,
  { store, types }: { store: StateStore; types: TypeLookup },
): Promise<Known> {
  const values = new Map<string, Attrs>();
  // Nodes the plan skipped keep their values in the state.
  const kinds = new Map<string, Kind>();
  const storedMeta = new Map<string, Pick<StoredObject, "schemaVersion" | "private">>();
  const secretNames = new Map<string, string[]>();
  for (const r of await store.listRecords()) {
    values.set(r.address, r.attributes);
    secretNames.set(r.address, sensitivePathsOf(r, types).map((p) => String(p[0])));
    kinds.set(r.address, r);
    storedMeta.set(r.address, { schemaVersion: r.schemaVersion, private: r.private });
  }
  for (const n of plan.nodes) {
    kinds.set(n.address, n);
    if (n.mode === "data") secretNames.set(n.address, n.sensitive);
  }
  for (const n of plan.nodes) {
    if (n.action === "no-op" && n.after) values.set(n.address, n.after);
    // A node the plan changes has no value until it is applied in this run,
    // also when --only leaves it out: its old value must not be used.
    if (n.action !== "no-op" && n.action !== "delete") values.delete(n.address);
  }
  return { values, kinds, storedMeta, secretNames };
}

/**
 * What each node waits for: its dependencies that this run applies; a node
 * destroyed waits for the destruction of the nodes that depend on it.
 */
export function waitsOf(plan: Plan, todo: readonly PlannedNode[]): Map<string, Set<string>> {
  const todoSet = new Set(todo.map((n) => n.address));
  const byAddr = new Map(plan.nodes.map((n) => [n.address, n]));
  const waits = new Map<string, Set<string>>(todo.map((n) => [n.address, new Set()]));
  for (const n of todo) {
    for (const d of n.dependencies) {
      if (!todoSet.has(d)) continue;
      const dAction = byAddr.get(d)!.action;
      if (n.action === "delete" && dAction === "delete") waits.get(d)!.add(n.address);
      else if (n.action !== "delete" && dAction !== "delete") waits.get(n.address)!.add(d);
    }
  }
  return waits;
}
