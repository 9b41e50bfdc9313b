/**
 * Nodes of a root's evaluation (spec.ts's `Node`) made in memory, for the
 * tests of what reads them: no CUE, no provider. Not used by pravo itself.
 *
 * @module
 */

import type { Node } from "./spec.ts";

/**
 * A managed node at `address` of the random provider, type `t` (with an
 * empty schema of that name), nothing configured, unless `over` says
 * otherwise; its path is the address's labels, its name the last.
 */
export function specNode(address: string, over: Partial<Node> = {}): Node {
  const path = address.split(".");
  const mode = over.mode ?? "managed";
  const type = over.type ?? "t";
  return {
    address,
    path,
    mode,
    type,
    name: path[path.length - 1],
    provider: "hashicorp/random",
    config: {},
    lifecycle: {},
    templates: {},
    needsEvaluation: [],
    sensitiveInputs: [],
    secretForms: {},
    dependencies: [],
    attributeRanges: {},
    schema: { name: type, mode, description: "", attributes: {} },
    ...over,
  };
}
