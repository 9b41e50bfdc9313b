/**
 * Which nodes exist must be known at plan time, as with Terraform's
 * for_each and count: structure decided by a value known only after apply
 * (a computed attribute of a node not applied yet) is refused.
 *
 * @module
 */

import { type Diagnostic, error } from "../../diag/diag.ts";
import { formatPath, locate, pathKey } from "../errors.ts";
import type { Node } from "../spec.ts";
import { allFiles, type Sources } from "../sources/sources.ts";
import { taint } from "../taint.ts";
import { isUnknownLabel, type SentinelRef } from "../unknowns.ts";
import { type Found, structsOf } from "./find.ts";
import type { Tree } from "./values.ts";

/** What the check reads: the nodes, the sentinels, and what the two evaluations found. */
export interface DecidedInput {
  nodes: Node[];
  sentinels: readonly SentinelRef[];
  found: Found;
  /** The traced evaluation's package, when it evaluated. */
  traced?: Tree;
}

/**
 * A diagnostic (one at most) when a value known only after apply decides
 * which nodes or fields exist: as the references say it, else as the
 * nodes of the two evaluations differ. Only for an evaluation that traces
 * (validate reads no state, so it cannot tell: only plans refuse).
 */
export function decidedByUnknown(sources: Sources, input: DecidedInput): Diagnostic[] {
  return _decidedByReferences(sources, input) ?? _decidedByEvaluations(sources, input);
}

/**
 * Structure decided by a value known only after apply, as the references
 * say it: a comprehension or a dynamic label that refers to one, outside
 * the value of an attribute or an output (`if base.result > 5 {extra:
 * ...}`), whatever the values that stand for it give.
 */
function _decidedByReferences(sources: Sources, input: DecidedInput): Diagnostic[] | undefined {
  const { sentinels } = input;
  if (!sentinels.length) return undefined;
  const unknownAttrs = new Map<string, Set<string>>();
  for (const s of sentinels) {
    if (!unknownAttrs.has(s.address)) unknownAttrs.set(s.address, new Set());
    unknownAttrs.get(s.address)!.add(s.attr);
  }
  const decided = taint({
    files: allFiles(sources).map((f) => f.parsed),
    nodes: input.nodes,
    secretAttrs: unknownAttrs,
    schemaSensitive: false,
  }).diagnostics;
  if (!decided.length) return undefined;
  return [
    error(
      "Nodes decided by a value known only after apply",
      `A comprehension or a dynamic field name here decides which nodes or fields exist from a value that is known only after apply (a computed attribute of a node not applied yet), so pravo cannot tell at plan time what it creates. As with Terraform's for_each and count, the keys and conditions must be known at plan time: decide them from a tag or a value the configuration gives, and use the computed values inside the nodes; or create the node they come from first (apply the configuration without the comprehension, then add it).`,
      { range: decided[0].range },
    ),
  ];
}

/**
 * A node whose label holds what stands for an unknown value, or that
 * exists in one of the two evaluations and not in the other, was made by a
 * comprehension over a value known only after apply.
 */
function _decidedByEvaluations(sources: Sources, input: DecidedInput): Diagnostic[] {
  const { found, traced } = input;
  const tracedNodes = traced ? structsOf(traced) : { nodes: [] };
  const plain = new Set(found.nodes.map((n) => pathKey(n.path)));
  const other = new Set(tracedNodes.nodes.map((n) => pathKey(n.path)));
  const odd = [
    ...found.nodes.filter((n) =>
      n.path.some(isUnknownLabel) || (traced && !other.has(pathKey(n.path)))
    ),
    ...tracedNodes.nodes.filter((n) => !plain.has(pathKey(n.path))),
  ];
  if (!odd.length) return [];
  const path = odd[0].path;
  // The struct that holds the comprehension: the longest prefix the sources declare.
  let at = path.slice(0, -1);
  while (at.length > 1 && !locate(sources.index, at)?.exact) at = at.slice(0, -1);
  return [
    error(
      "Nodes decided by a value known only after apply",
      `Which nodes ${
        formatPath(at)
      } holds depends on a value that is known only after apply (a computed attribute of a node not applied yet), so pravo cannot tell at plan time which nodes it creates. As with Terraform's for_each and count, the keys and conditions must be known at plan time: iterate over a list or struct of values the configuration gives (or a tag), and use the computed values inside the nodes.`,
      { address: formatPath(at), range: locate(sources.index, at)?.pos },
    ),
  ];
}
