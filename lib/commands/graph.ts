/**
 * `pravo graph`: the root's dependency graph, as `terraform graph` shows it,
 * adapted: a node for each resource, data source, ephemeral value and call
 * (its mode and type), a node for each provider instance, an edge from each
 * node to the nodes it refers to and to its provider instance. DOT by
 * default (for Graphviz: `pravo graph | dot -Tsvg > graph.svg`), or with
 * `--json` one document. `--plan FILE` colours the nodes by the action that
 * saved plan gives them.
 *
 * @module
 */

import { resolve } from "node:path";
import { type CommandRun, emit } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { DiagnosticsError } from "../diag/diag.ts";
import { loadRoot, type Spec } from "../cue/loader.ts";
import { loadKey } from "../keys/key.ts";
import { nodeHead } from "../plan/document.ts";
import { readPlanFile } from "../plan/planfile.ts";
import type { Plan } from "../plan/types.ts";
import { type GraphDoc, type GraphNode, renderDot } from "../render/graph.ts";

export const run: CommandRun = async (ctx, opts) => {
  const res = await loadRoot(ctx.root, ctx.workspace, { tags: ctx.tags, trace: false });
  if (!res.ok) throw new DiagnosticsError(res.diagnostics, "invalid");
  const plan = typeof opts.plan === "string"
    ? readPlanFile(resolve(ctx.root, opts.plan), loadKey({ root: ctx.root, create: false })).plan
    : undefined;
  const doc = graphDocument(res.value, plan);
  emit(ctx, doc, () => renderDot(doc));
  return Exit.OK;
};

const byAddress = <T extends { address: string }>(a: T, b: T) =>
  a.address < b.address ? -1 : a.address > b.address ? 1 : 0;

/** The graph of an evaluated root; with a plan, each node's action, and the nodes it deletes. */
export function graphDocument(spec: Spec, plan?: Plan): GraphDoc {
  const actions = new Map(plan?.nodes.map((n) => [n.address, n]) ?? []);
  const nodes: GraphNode[] = [];
  const edges: GraphDoc["edges"] = [];
  const seen = new Set<string>();
  for (const n of spec.nodes) {
    seen.add(n.address);
    const node: GraphNode = {
      address: n.address,
      mode: n.mode,
      type: n.type,
      name: n.name,
      provider: n.provider,
    };
    if (n.providerInstance) node.provider_instance = n.providerInstance;
    const action = actions.get(n.address)?.action;
    if (action) node.action = action;
    nodes.push(node);
    for (const d of n.dependencies) edges.push({ from: n.address, to: d, kind: "dependency" });
    if (n.providerInstance) {
      edges.push({ from: n.address, to: n.providerInstance, kind: "provider" });
    }
  }
  // A plan's nodes that are no longer configured: what it deletes.
  for (const n of plan?.nodes ?? []) {
    if (seen.has(n.address)) continue;
    nodes.push(nodeHead(n));
    for (const d of n.dependencies) edges.push({ from: n.address, to: d, kind: "dependency" });
  }
  nodes.sort(byAddress);
  edges.sort((a, b) =>
    a.from < b.from ? -1 : a.from > b.from ? 1 : a.to < b.to ? -1 : a.to > b.to ? 1 : 0
  );
  const providers = spec.providers.map((p) => ({ address: p.address, source: p.source }))
    .sort(byAddress);
  return { format_version: "1.0", nodes, providers, edges };
}
