/**
 * The setness of the nodes found that the sources do not declare where the
 * first setness evaluation looked.
 *
 * @module
 */

import { formatPath } from "../errors.ts";
import { tracksSetness } from "../provider_cue.ts";
import type { Evaluator } from "./evaluator.ts";
import { type Found, kindOf } from "./find.ts";

/**
 * Nodes whose setness is asked (plugin ones, time_rotating) that the
 * setness evaluation did not tell (declared through a let, which
 * node_patterns.ts does not follow, or whose lists it could not tell yet),
 * on their first plan: which attributes their configuration sets, now that
 * their addresses are known. Without it a value equal to the "unknown" default
 * (`false`) passed in through a definition would be taken for unset.
 */
export async function learnFoundSetness(ev: Evaluator, found: Found): Promise<void> {
  if (!ev.packages.tracked) return;
  const more = found.nodes
    .filter((n) => tracksSetness(kindOf(n.value, ev.sources.registry).type))
    .map((n) => formatPath(n.path))
    .filter((a) => !ev.known.setness.has(a));
  if (more.length) await ev.learnSetness(more);
}
