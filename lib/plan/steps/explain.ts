/**
 * Why each node is in the plan, and which nodes the plan leaves as they
 * were without running them: configuration and inputs unchanged since they
 * were applied, and no read from the real world due (the incremental plan;
 * `--full` runs them all).
 *
 * @module
 */

import type { SentinelRef } from "../../cue/unknowns.ts";
import type { StateRecord } from "../../state/store.ts";
import { parseDuration } from "../duration.ts";
import type { PlannedNode, SkippedNode } from "../types.ts";
import { reasonsFor } from "./reasons.ts";

/**
 * Gives each planned node its reasons (lib/plan/steps/reasons.ts), and
 * returns the nodes to leave out of the plan as skipped.
 */
export function explainNodes(
  planned: readonly PlannedNode[],
  input: {
    records: ReadonlyMap<string, StateRecord>;
    /** Why each record read from the real world in this plan was due. */
    refreshed: ReadonlyMap<string, string>;
    sentinels: SentinelRef[];
    full?: boolean;
    destroy?: boolean;
  },
): SkippedNode[] {
  const { records, refreshed, sentinels } = input;
  const skipped: SkippedNode[] = [];
  const byAddr = new Map(planned.map((x) => [x.address, x]));
  for (const p of planned) {
    const rec = records.get(p.address);
    p.reasons = reasonsFor(p, { rec, due: refreshed.get(p.address), sentinels, byAddr });
    if (p.movedFrom) {
      p.reasons.unshift({
        kind: "moved",
        detail: `its object moves from ${p.movedFrom}, as a moved entry of the configuration says`,
      });
    }
    // A setting of pravo's own that changed (`refresh_age`): kept in the
    // record at apply, so the node stays in the plan, with nothing to do to
    // its object.
    if (
      p.action === "no-op" && p.mode === "managed" && rec !== undefined &&
      rec.refreshAge !== p.refreshAge && !input.destroy
    ) {
      p.reasons.push({
        kind: "config",
        detail: `its refresh_age changes from ${rec.refreshAge ?? "none"} to ${
          p.refreshAge ?? "none"
        }: apply records it, and does not touch the object`,
      });
    }
    const skippable = !input.full && !input.destroy && p.action === "no-op" && !p.movedFrom &&
      p.mode === "managed" &&
      rec !== undefined && rec.configDigest === p.configDigest && !refreshed.has(p.address) &&
      rec.refreshAge === p.refreshAge;
    if (skippable) {
      skipped.push({
        address: p.address,
        mode: p.mode,
        type: p.type,
        name: p.name,
        reason: skipReason(rec!),
        ...(p.providerInstance ? { providerInstance: p.providerInstance } : {}),
      });
    }
  }
  return skipped;
}

/** Why a node is left as it was: when it was applied, and when its next read is due. */
export function skipReason(rec: StateRecord): string {
  const ms = rec.refreshAge === null ? undefined : parseDuration(rec.refreshAge);
  const age = ms === undefined
    ? "it never needs reading again"
    : `its next read is due at ${
      new Date(Date.parse(rec.refreshedAt) + ms).toISOString()
    } (refresh age ${rec.refreshAge})`;
  return `configuration and inputs unchanged since it was applied at ${rec.updatedAt}, and ${age}`;
}
