/**
 * Sensitivity that flows from one node into another: an input built from a
 * sensitive value of any node is sensitive too, so that every view and the
 * log redact it as they redact the attribute it came from.
 *
 * @module
 */

import { type SentinelRef, sentinelRefs } from "../../cue/unknowns.ts";
import type { PlannedNode } from "../types.ts";

/**
 * Marks sensitive the inputs built from sensitive values: an input whose
 * value contains the value of a sensitive attribute of any node, or whose
 * template waits for one. Their values are then redacted in every view and
 * in the log, as the attributes they came from are.
 */
export function propagateSensitivity(planned: PlannedNode[], sentinels: SentinelRef[]): void {
  const secretAttrs = new Set<string>();
  const secrets = new Set<string>();
  for (const n of planned) {
    for (const k of n.sensitive) {
      secretAttrs.add(`${n.address}\u0000${k}`);
      for (const v of [n.before?.[k], n.after?.[k]]) {
        if (typeof v === "string" && v.length >= 4) secrets.add(v);
      }
    }
  }
  const holds = (v: unknown): boolean => {
    if (typeof v === "string") return [...secrets].some((s) => v.includes(s));
    if (Array.isArray(v)) return v.some(holds);
    if (v && typeof v === "object") return Object.values(v).some(holds);
    return false;
  };
  for (const n of planned) {
    const marked = new Set(n.sensitive);
    for (const [k, v] of Object.entries(n.config)) if (holds(v)) marked.add(k);
    for (const [k, t] of Object.entries(n.templates)) {
      if (sentinelRefs(t, sentinels).some((r) => secretAttrs.has(`${r.address}\u0000${r.attr}`))) {
        marked.add(k);
      }
    }
    n.sensitive = [...marked].sort();
  }
}
