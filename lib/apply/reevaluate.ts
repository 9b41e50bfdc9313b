/**
 * Evaluating a plan's sources again during apply, with the values known
 * now: what each node's inputs are once the nodes it depends on exist.
 *
 * @module
 */

import { DiagnosticsError } from "../diag/diag.ts";
import type { TypeSchema } from "../providers/schema.ts";
import { evaluateRoot, parseSources } from "../cue/loader.ts";
import type { AttrPath } from "../cue/secrets.ts";
import { sensitivePathsOf } from "../secrets/paths.ts";
import { knownValuesOf } from "../plan/known.ts";
import type { Attrs, Plan } from "../plan/types.ts";
import type { SourcesWorkspace } from "../cue/loader.ts";
import type { Kind } from "./before.ts";

/** The inputs of a node evaluated again, those computed from a secret, and what they are made of. */
export interface Evaluated {
  config: Record<string, unknown>;
  sensitive: string[];
  forms: Record<string, [unknown, unknown]>;
}

/**
 * Evaluates the plan's sources again with the values known now; every
 * node's inputs, by address. The secrets among the known values are traced as at plan (see
 * lib/cue/secrets.ts), so that an input computed from one is recorded
 * sensitive and a message never quotes one.
 */
export async function reevaluate(
  plan: Plan,
  { values, kinds, workspace }: {
    values: Map<string, Attrs>;
    kinds: Map<string, Kind>;
    workspace: SourcesWorkspace;
  },
): Promise<Map<string, Evaluated>> {
  const sources = parseSources(plan.root, plan.sources, workspace);
  if (!sources.ok) throw new DiagnosticsError(sources.diagnostics, "invalid");
  const known = new Map<string, Record<string, unknown>>();
  const secrets = new Map<string, AttrPath[]>();
  const knownKinds = new Map<
    string,
    { provider: string; mode: TypeSchema["mode"]; type: string }
  >();
  for (const [addr, attrs] of values) {
    const pn = kinds.get(addr);
    if (!pn || pn.mode === "ephemeral") continue;
    const computed = knownValuesOf({ ...pn, attributes: attrs }, workspace.registry);
    known.set(addr, computed);
    knownKinds.set(addr, pn);
    const paths = "sensitive" in pn
      ? sensitivePathsOf(
        { ...pn, sensitivePaths: pn.sensitive.map((k) => [k]) },
        workspace.registry.findType,
      )
      : sensitivePathsOf(pn, workspace.registry.findType);
    secrets.set(addr, paths.filter((p) => String(p[0]) in computed));
  }
  // Apply alone evaluates with the secrets: here they enter the provider calls.
  const res = await evaluateRoot(sources.value, {
    tags: plan.tags,
    known,
    secrets,
    knownKinds,
    reveal: true,
  });
  if (!res.ok) throw new DiagnosticsError(res.diagnostics, "invalid");
  return new Map(
    res.value.nodes.map((x) => [
      x.address,
      {
        config: x.config as Record<string, unknown>,
        sensitive: x.sensitiveInputs,
        forms: x.secretForms,
      },
    ]),
  );
}
