/**
 * The closing lines of `pravo apply` and `pravo destroy`, drawn from the
 * document that `--json` prints: what was done, what was not and why, and
 * what to run next.
 *
 * @module
 */

import { pravoCommand } from "../diag/hint.ts";
import type { Style } from "../diag/style.ts";

/** What of apply's document the summary reads. */
export interface AppliedDoc {
  summary: {
    added: number;
    changed: number;
    replaced: number;
    destroyed: number;
    failed: number;
    skipped: number;
    cancelled: number;
    not_started: number;
  };
  nodes: { address: string; status: string }[];
  moved?: { from: string; to: string }[];
  ok: boolean;
  interrupted?: string;
}

/** What the summary says beyond the document. */
export interface AppliedView {
  /** `pravo destroy`, or `apply --destroy`. */
  destroying: boolean;
  /** An interrupt came before any node started. */
  nothingStarted: boolean;
  /** The saved plan that was applied, if one was. */
  planPath?: string;
  /** The global flags that reach the same root and state, for the commands it names. */
  place: readonly string[];
  /** The outputs, rendered, when there are any to show. */
  outputs?: string;
}

/** The summary of an apply, as Terraform's closing lines. */
export function renderApplied(doc: AppliedDoc, style: Style, view: AppliedView): string {
  const counts = doc.summary;
  const head = doc.interrupted
    ? style.bold(style.yellow(`Apply interrupted (${doc.interrupted}).`))
    : doc.ok
    ? style.bold(style.green(view.destroying ? "Destroy complete!" : "Apply complete!"))
    : style.bold(style.red("Apply failed."));
  let text = view.destroying && doc.ok
    ? `${head} Resources: ${counts.destroyed} destroyed.`
    : `${head} Resources: ${counts.added} added, ${counts.changed} changed, ${counts.replaced} replaced, ${counts.destroyed} destroyed.`;
  if (doc.moved?.length) {
    text = doc.moved.map((m) => `${m.from}: moved to ${m.to}\n`).join("") + text;
  }
  if (doc.interrupted) {
    text += ` ${counts.failed} failed, ${counts.cancelled} cancelled, ` +
      `${counts.not_started} not started.`;
    const list = (status: string) =>
      doc.nodes.filter((o) => o.status === status).map((o) => o.address).join(", ");
    if (counts.cancelled) text += `\nCancelled: ${list("cancelled")}.`;
    if (counts.not_started) text += `\nNot started: ${list("not_started")}.`;
    text += view.nothingStarted
      ? `\nNothing was applied, and the state lock was released.${
        view.planPath
          ? ` The plan is unchanged: apply it again with \`${
            pravoCommand(view.place, "apply", view.planPath)
          }\`.`
          : ""
      }`
      : "\nWhat was applied is recorded in the state and the log, with what was not; the " +
        `state lock was released. Run \`${
          pravoCommand(view.place, "plan")
        }\` to see what is left, then apply again.`;
  } else if (!doc.ok) {
    text += ` ${counts.failed} failed, ${counts.skipped} not applied.`;
  }
  return text + (view.outputs ? `\n\nOutputs:\n\n${view.outputs}` : "");
}
