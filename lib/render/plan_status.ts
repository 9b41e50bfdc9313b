/**
 * The status that `pravo show PLANFILE` writes under the plan, drawn from
 * the `status` of the document that `--json` prints: whether the plan is
 * stale, and whether it is approved and by whom.
 *
 * @module
 */

import type { Style } from "../diag/style.ts";

/** Whether the plan can still be applied, and whether it is approved. */
export interface PlanStatus {
  /** True when the state moved on since the plan was made; null when the state cannot be read. */
  stale: boolean | null;
  /** Why it is stale, or why staleness is not known; null when it is fresh. */
  stale_because: string | null;
  /**
   * Null when no approver's key is known (no `--approver`). Else whether an
   * approval of this file's bytes, by one of those keys, for this root, is
   * in `.pravo/approvals.jsonl`, and whose.
   */
  approval: {
    approved: boolean;
    /** The approving key's fingerprint, its file, who approved and when. */
    by?: { key: string; key_file: string; actor: string; reason: string; approved_at: string };
    /** Why it is not approved, when it is not. */
    because?: string;
  } | null;
}

/** The status under the plan, in the human view; empty when there is nothing to say. */
export function renderPlanStatus(s: PlanStatus, style: Style): string {
  const lines: string[] = [];
  if (s.stale === true) lines.push(style.yellow(`This plan is stale: ${s.stale_because}.`));
  else if (s.stale === null) {
    lines.push(`Whether this plan is stale is not known: ${s.stale_because}.`);
  }
  if (s.approval?.approved && s.approval.by) {
    const b = s.approval.by;
    lines.push(
      style.green(`Approved by ${b.actor} (key ${b.key}) at ${b.approved_at}`) +
        (b.reason ? `: ${b.reason}` : "") + ".",
    );
  } else if (s.approval) {
    lines.push(style.yellow(`Not approved: ${s.approval.because}.`));
  }
  return lines.length ? "\n" + lines.join("\n") + "\n" : "";
}
