/**
 * The human view of `pravo graph`: DOT for Graphviz, drawn from the document that `--json` prints.
 *
 * @module
 */

import type { Action } from "../plan/types.ts";

/** A DOT string: quotes and backslashes escaped, line breaks as `\n`. */
const quote = (s: string) =>
  '"' + s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n") + '"';

/** One node of the graph document. */
export interface GraphNode {
  address: string;
  mode: string;
  type: string;
  name: string;
  /** The provider's source: `hashicorp/random`. */
  provider: string;
  /** The field of the provider instance: `$random`, when known. */
  provider_instance?: string;
  /** With `--plan`: the action the plan gives the node. */
  action?: Action;
}

/** The document that `pravo graph --json` prints. */
export interface GraphDoc {
  format_version: "1.0";
  nodes: GraphNode[];
  providers: { address: string; source: string }[];
  /** `from` depends on `to`: a reference (`dependency`) or its provider instance (`provider`). */
  edges: { from: string; to: string; kind: "dependency" | "provider" }[];
}

/** Colours of the actions, as the plan's diff shows them. */
const COLOUR: Partial<Record<Action, string>> = {
  create: "green",
  update: "orange",
  replace: "orange",
  delete: "red",
  read: "cyan",
};

/** The graph in Graphviz's DOT language. */
export function renderDot(doc: GraphDoc): string {
  const lines = [
    "digraph pravo {",
    '  compound = "true"',
    '  newrank = "true"',
    '  rankdir = "RL"',
    '  node [shape = "box", fontname = "sans-serif"]',
  ];
  for (const p of doc.providers) {
    lines.push(
      `  ${quote(p.address)} [label = ${
        quote(`provider ${p.source}\n${p.address}`)
      }, shape = "diamond"]`,
    );
  }
  for (const n of doc.nodes) {
    const kind = n.mode === "managed" ? n.type : `${n.mode} ${n.type}`;
    const attrs = [`label = ${quote(`${n.address}\n${kind}`)}`];
    if (n.action) {
      attrs.push(`tooltip = ${quote(n.action)}`);
      const colour = COLOUR[n.action];
      if (colour) attrs.push(`color = ${quote(colour)}`, 'penwidth = "2"');
      if (n.action === "delete") attrs.push('style = "dashed"');
    }
    lines.push(`  ${quote(n.address)} [${attrs.join(", ")}]`);
  }
  for (const e of doc.edges) {
    lines.push(
      `  ${quote(e.from)} -> ${quote(e.to)}${e.kind === "provider" ? ' [style = "dashed"]' : ""}`,
    );
  }
  lines.push("}");
  return lines.join("\n");
}
