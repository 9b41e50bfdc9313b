/**
 * One round's plan of every node of the evaluation, each by
 * lib/plan/plan_node.ts (`planNode`), all at once: a node's plan needs only
 * its own values and what the evaluation already resolved of the others.
 *
 * @module
 */

import type { Diagnostic } from "../../diag/diag.ts";
import type { Spec } from "../../cue/loader.ts";
import type { AttrPath } from "../../cue/secrets.ts";
import type { StateRecord } from "../../state/store.ts";
import type { ProviderSession } from "../../providers/session.ts";
import { sensitivePathsOf } from "../../secrets/paths.ts";
import { secretSources } from "../digest.ts";
import type { Locatable } from "../located.ts";
import type { PlanOptions } from "../options.ts";
import { planNode } from "../plan_node.ts";
import type { Attrs, PlannedNode } from "../types.ts";
import type { Refreshed } from "./refresh.ts";
import type { Registry } from "../../providers/registry.ts";

/** What the nodes are planned against. */
export interface NodesInput {
  opts: PlanOptions;
  session: ProviderSession;
  records: ReadonlyMap<string, StateRecord>;
  refreshed: Pick<Refreshed, "prior" | "stored" | "refreshed">;
  /** What the data sources read, and their sensitive attributes as paths. */
  dataRead: Map<string, Attrs>;
  dataSecrets: ReadonlyMap<string, AttrPath[]>;
  located: (n: Locatable) => (d: Diagnostic) => Diagnostic;
  /** The registry every type is looked up in (the sources'). */
  registry: Registry;
}

/** Plans every node of `spec`; the planned nodes in its order, and what their providers said. */
export async function planNodes(
  spec: Spec,
  input: NodesInput,
): Promise<{ planned: PlannedNode[]; diagnostics: Diagnostic[] }> {
  const { opts, records, dataRead } = input;
  const { prior, stored, refreshed } = input.refreshed;
  const diagnostics: Diagnostic[] = [];
  const secretsOf = (a: string) => _secretsOf(a, input);
  const planned = await Promise.all(
    spec.nodes.map((n) =>
      planNode(
        n,
        spec,
        records.get(n.address),
        prior.get(n.address) ?? null,
        dataRead,
        opts,
        diagnostics,
        {
          session: input.session,
          refreshed: refreshed.has(n.address),
          stored: stored.get(n.address),
          located: input.located(n),
          secretSources: (deps) => secretSources(deps, secretsOf),
        },
      )
    ),
  );
  return { planned, diagnostics };
}

/**
 * The values and sensitive attributes of the node at `a` that another node's
 * inputs may be computed from: what a data source read, else the record's
 * attributes as refreshed.
 */
function _secretsOf(
  a: string,
  input: Pick<NodesInput, "dataRead" | "dataSecrets" | "records" | "refreshed" | "registry">,
): { attributes: Attrs; sensitive: readonly string[] } | undefined {
  const read = input.dataRead.get(a);
  if (read) {
    return {
      attributes: read,
      sensitive: (input.dataSecrets.get(a) ?? []).map((x) => String(x[0])),
    };
  }
  const r = input.records.get(a);
  const attrs = input.refreshed.prior.get(a) ?? r?.attributes;
  if (!r || !attrs) return undefined;
  return {
    attributes: attrs,
    sensitive: sensitivePathsOf(r, input.registry.findType).map((x) => String(x[0])),
  };
}
