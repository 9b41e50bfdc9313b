/**
 * The plan's last step: the plan itself, as a plan file holds it and the
 * plan document (lib/plan/document.ts) shows it. Its nodes are those that
 * ran, sorted by address; the skipped ones are listed apart.
 *
 * @module
 */

import { randomUUID } from "node:crypto";
import type { Sources, Spec } from "../../cue/loader.ts";
import type { StateIdentity } from "../../state/store.ts";
import type { PlanOptions } from "../options.ts";
import { type Plan, PLAN_FORMAT_VERSION, type PlannedNode, type SkippedNode } from "../types.ts";

/** What the plan is made of. */
export interface PlanParts {
  opts: Pick<PlanOptions, "root" | "tags" | "actor" | "reason" | "destroy" | "full">;
  createdAt: Date;
  identity: Pick<StateIdentity, "lineage" | "serial">;
  spec: Pick<Spec, "configDigest" | "sentinels" | "providers">;
  /** Every planned node, the skipped ones too. */
  planned: readonly PlannedNode[];
  skipped: SkippedNode[];
  outputs: Pick<Plan, "outputs" | "outputsUnknown" | "outputsBefore">;
}

/** The plan, with a new id. */
export function assemblePlan(sources: Pick<Sources, "given">, parts: PlanParts): Plan {
  const { opts, identity, spec, planned, skipped, outputs } = parts;
  const skippedSet = new Set(skipped.map((s) => s.address));
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    id: randomUUID(),
    createdAt: parts.createdAt.toISOString(),
    root: opts.root,
    tags: opts.tags,
    actor: opts.actor,
    reason: opts.reason,
    lineage: identity.lineage,
    serial: identity.serial,
    configDigest: spec.configDigest,
    destroy: Boolean(opts.destroy),
    nodes: planned.filter((p) => !skippedSet.has(p.address)).sort((a, b) =>
      a.address < b.address ? -1 : a.address > b.address ? 1 : 0
    ),
    skipped,
    full: Boolean(opts.full),
    outputs: outputs.outputs,
    outputsUnknown: outputs.outputsUnknown,
    outputsBefore: outputs.outputsBefore,
    sentinels: spec.sentinels,
    sources: sources.given.map((f) => ({ name: f.name, src: f.src })),
    providers: spec.providers,
  };
}
