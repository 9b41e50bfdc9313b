/**
 * `pravo plan`: loads the root, refreshes what is due, diffs against the state
 * and prints the plan document; `--out FILE` saves it for apply. Exit 2 when
 * there are changes, 0 when none.
 *
 * @module
 */

import { type CommandRun, emit, emitWarnings, type OptionValues } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { UsageError } from "../cli/args.ts";
import { DiagnosticsError } from "../diag/diag.ts";
import { readRoot } from "../cue/loader.ts";
import { openStore } from "../state/open.ts";
import type { StateStore } from "../state/store.ts";
import { makePlan, type RefreshMode } from "../plan/planner.ts";
import { planDocument } from "../plan/document.ts";
import { renderPlan } from "../plan/render.ts";
import { writePlanFile } from "../plan/planfile.ts";
import { hasChanges, type Plan } from "../plan/types.ts";
import type { Context } from "../cli/command.ts";
import { resolve } from "node:path";
import { judge, loadPolicies, policyPaths } from "../../policy/mod.ts";

const REFRESH = ["age", "expired", "false", "all"];

/** Reads the root and makes a plan with the flags of `plan` (also used by `apply`). */
export async function planFromFlags(
  ctx: Context,
  opts: OptionValues,
  openedStore?: StateStore,
): Promise<Plan> {
  const refresh = (opts.refresh as string | undefined) ?? "age";
  if (!REFRESH.includes(refresh)) {
    throw new UsageError(`--refresh "${refresh}" is not one of ${REFRESH.join(", ")}`, "plan");
  }
  const sources = readRoot(ctx.root);
  if (!sources.ok) throw new DiagnosticsError(sources.diagnostics, Exit.INVALID);
  const store = openedStore ?? await openStore(ctx);
  try {
    const { plan, diagnostics } = await makePlan(sources.value, store, {
      root: ctx.root,
      tags: ctx.tags,
      actor: ctx.actor,
      reason: ctx.reason,
      destroy: Boolean(opts.destroy),
      replace: (opts.replace as string[] | undefined) ?? [],
      refresh: refresh as RefreshMode,
    });
    emitWarnings(ctx, diagnostics);
    return plan;
  } finally {
    if (!openedStore) await store.close();
  }
}

export const run: CommandRun = async (ctx, opts) => {
  // Policies are read and checked before anything runs.
  const policies = await loadPolicies(policyPaths(opts.policy));
  const plan = await planFromFlags(ctx, opts);
  const out = opts.out as string | undefined;
  const judged = policies.length ? await judge(policies, planDocument(plan)) : undefined;
  const refused = judged?.refused ?? false;
  if (out && !refused) writePlanFile(resolve(ctx.root, out), plan);
  const doc = planDocument(plan, judged ? { policies: judged.policies } : {});
  if (judged && !refused) emitWarnings(ctx, judged.diagnostics);
  emit(ctx, doc, () => {
    let text = renderPlan(doc, ctx.style);
    if (refused) {
      text += `\nA policy refuses this plan${out ? `: it was not saved to ${out}` : ""}.\n`;
    } else if (out) {
      text += `\nSaved the plan to ${out}. Apply exactly this plan with:\n    pravo apply ${out}\n`;
    } else if (hasChanges(plan)) {
      text +=
        `\nThis plan was not saved. To apply exactly these actions, run "pravo plan --out FILE" and then "pravo apply FILE".\n`;
    }
    return text;
  });
  if (refused) throw new DiagnosticsError(judged!.diagnostics, Exit.POLICY);
  return hasChanges(plan) ? Exit.CHANGES : Exit.OK;
};
