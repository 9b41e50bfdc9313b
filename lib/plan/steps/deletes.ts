/**
 * The deletes of a plan: a record whose node is no longer in the
 * configuration is deleted; a plan that destroys deletes every record, and
 * plans nothing else.
 *
 * @module
 */

import type { Spec } from "../../cue/loader.ts";
import type { StateRecord } from "../../state/store.ts";
import type { Attrs, PlannedNode } from "../types.ts";
import type { Refreshed } from "./refresh.ts";

/**
 * `planned` with a delete for each record that has no node in `spec`; or,
 * with `destroy`, a delete for every record instead (a node still declared
 * keeps its lifecycle and provider instance). A record whose node is gone
 * is deleted with the provider configuration that made its object, as its
 * record says.
 */
export function withDeletes(
  planned: PlannedNode[],
  input: {
    spec: Pick<Spec, "nodes">;
    records: ReadonlyMap<string, StateRecord>;
    refreshed: Pick<Refreshed, "prior" | "stored">;
    destroy?: boolean;
  },
): PlannedNode[] {
  const { spec, records, refreshed: { prior, stored } } = input;
  if (input.destroy) {
    // A node still in the configuration keeps its lifecycle: prevent_destroy
    // refuses --destroy, as Terraform's does. A record whose node was removed
    // from the configuration has no lifecycle left (Terraform destroys it).
    const declaredNodes = new Map(spec.nodes.map((n) => [n.address, n]));
    return [...records.values()].map((rec) => {
      const n = deleteNode(
        rec,
        prior.get(rec.address) ?? rec.attributes,
        "destroy",
        declaredNodes.get(rec.address)?.lifecycle ?? {},
      );
      const instance = declaredNodes.get(rec.address)?.providerInstance;
      if (instance) n.providerInstance = instance;
      const meta = stored.get(rec.address);
      if (meta) n.stored = meta;
      return n;
    });
  }
  // Records with no node in the configuration are deleted.
  const declared = new Set(spec.nodes.map((n) => n.address));
  const out = [...planned];
  for (const rec of records.values()) {
    if (declared.has(rec.address)) continue;
    out.push({
      ...deleteNode(rec, prior.get(rec.address) ?? rec.attributes, "not in the configuration"),
      ...(stored.get(rec.address) ? { stored: stored.get(rec.address) } : {}),
    });
  }
  return out;
}

/** The delete of a record's object, `because` (`not in the configuration`, `destroy`). */
export function deleteNode(
  rec: StateRecord,
  before: Attrs,
  because: string,
  lifecycle: PlannedNode["lifecycle"] = {},
): PlannedNode {
  return {
    address: rec.address,
    mode: rec.mode,
    type: rec.type,
    name: rec.address.split(".").pop()!,
    provider: rec.provider,
    action: "delete",
    before,
    after: null,
    afterUnknown: [],
    changed: [],
    replaceBecause: [],
    deleteBecause: because,
    dependencies: rec.dependencies,
    sensitive: rec.sensitivePaths.map((p) => String(p[0])).sort(),
    config: {},
    templates: {},
    needsEvaluation: [],
    configDigest: rec.configDigest,
    refreshAge: rec.refreshAge,
    lifecycle,
    providerConfig: {},
    ...(rec.providerInstance ? { providerInstance: rec.providerInstance } : {}),
  };
}
