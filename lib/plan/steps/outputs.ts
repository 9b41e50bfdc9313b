/**
 * The plan's outputs: those known now, and the names of those known only
 * after apply. An output computed from a sensitive value, or that holds one
 * of any node, skipped or not, is redacted, so that neither the plan file
 * nor any view holds it. A plan that destroys has none.
 *
 * @module
 */

import type { Spec } from "../../cue/loader.ts";
import { REDACTED, redactOutputs, sensitiveValues } from "../../secrets/paths.ts";
import { hasUnknown } from "../node_values.ts";
import type { Attrs, Plan, PlannedNode } from "../types.ts";

/** The outputs of `spec` as the plan holds them (`planned`: every node, with its sensitivity). */
export function planOutputs(
  spec: Pick<Spec, "outputs" | "outputsSensitive">,
  input: { planned: readonly PlannedNode[]; destroy?: boolean },
): Pick<Plan, "outputs" | "outputsUnknown"> {
  if (input.destroy) return { outputs: {}, outputsUnknown: [] };
  const outputsUnknown: string[] = [];
  const knownOutputs: Attrs = {};
  for (const [k, v] of Object.entries(spec.outputs)) {
    if (hasUnknown(v)) outputsUnknown.push(k);
    else knownOutputs[k] = v;
  }
  const outputs = redactOutputs(knownOutputs, sensitiveValues(input.planned));
  for (const k of spec.outputsSensitive) if (k in outputs) outputs[k] = REDACTED;
  return { outputs, outputsUnknown: outputsUnknown.sort() };
}
