/**
 * The closing lines of `pravo plan`, under the plan, drawn from the document
 * that `--json` prints: the nodes it reserved, whether a policy refused it
 * (a mandatory rule failed in the policies' report), and whether it was
 * saved, with the command that applies it.
 *
 * @module
 */

import { pravoCommand } from "../diag/hint.ts";

/** What of the plan document the closing lines read. */
export interface PlanOutcomeDoc {
  /** Who made the plan, and for whom its nodes are reserved. */
  actor: string;
  reservation?: { id: string; expires: string; addresses: string[] };
  /** What each policy said: a failed mandatory rule refuses the plan. */
  policies?: { results: { level: string; passed: boolean }[] }[];
}

/** What the closing lines say beyond the document. */
export interface PlanOutcomeView {
  /** The file the plan was to be saved to (`--out`). */
  out?: string;
  /** True when applying the plan would change the state. */
  changes: boolean;
  /** The global flags that reach the same root and state, for the commands it names. */
  place: readonly string[];
}

/** True when a mandatory rule of a policy failed. */
function _refused(doc: PlanOutcomeDoc): boolean {
  return (doc.policies ?? []).some((p) =>
    p.results.some((r) => !r.passed && r.level === "mandatory")
  );
}

/** The lines under the plan; empty when there is nothing to say. */
export function renderPlanOutcome(doc: PlanOutcomeDoc, view: PlanOutcomeView): string {
  let text = "";
  const { out, place } = view;
  if (doc.reservation) {
    text += `\nReserved ${
      doc.reservation.addresses.join(", ")
    } for ${doc.actor} until ${doc.reservation.expires} (reservation ${doc.reservation.id}): no one else may change them until this plan is applied.\n`;
  }
  if (_refused(doc)) {
    text += `\nA policy refuses this plan${out ? `: it was not saved to ${out}` : ""}.\n`;
  } else if (out) {
    text += `\nSaved the plan to ${out}. Apply exactly this plan with:\n    ${
      pravoCommand(place, "apply", out)
    }\n`;
  } else if (view.changes) {
    text += `\nThis plan was not saved. To apply exactly these actions, run "${
      pravoCommand(place, "plan", "--out", "FILE")
    }" and then "${pravoCommand(place, "apply", "FILE")}".\n`;
  }
  return text;
}
