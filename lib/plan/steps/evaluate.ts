/**
 * One round's evaluation of the root, with the known values of the round
 * (lib/plan/steps/known_values.ts). Values of nodes no longer in the
 * configuration may clash with it: then the root is evaluated again with
 * only those of nodes that are still declared.
 *
 * @module
 */

import { DiagnosticsError } from "../../diag/diag.ts";
import { evaluateRoot, type Sources, type Spec } from "../../cue/loader.ts";
import type { KnownKind } from "../session.ts";
import type { KnownValues } from "./known_values.ts";

/**
 * The root evaluated with `given`'s values. `declared` is set when they
 * clashed with the configuration: the nodes the configuration alone declares,
 * whose values alone the evaluation was given. Throws a DiagnosticsError
 * (exit 3) for an invalid root.
 */
export async function evaluateRound(
  sources: Sources,
  given: KnownValues & { tags: Record<string, string>; knownKinds: Map<string, KnownKind> },
): Promise<{ spec: Spec; declared?: ReadonlySet<string> }> {
  const { tags, known, secrets, knownKinds } = given;
  let res = await evaluateRoot(sources, { tags, known, secrets, knownKinds });
  let declared: Set<string> | undefined;
  if (!res.ok && known.size) {
    const bare = await evaluateRoot(sources, { tags });
    if (!bare.ok) throw new DiagnosticsError(bare.diagnostics, "invalid");
    declared = new Set(bare.value.nodes.map((n) => n.address));
    res = await evaluateRoot(sources, {
      tags,
      known: new Map([...known].filter(([a]) => declared!.has(a))),
      secrets,
      knownKinds,
    });
  }
  if (!res.ok) throw new DiagnosticsError(res.diagnostics, "invalid");
  return declared ? { spec: res.value, declared } : { spec: res.value };
}
