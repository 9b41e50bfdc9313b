/**
 * `pravo plan`: loads the root, refreshes what is due, diffs against the state
 * and prints the plan document; `--out FILE` saves it for apply. Exit 2 when
 * there are changes, 0 when none.
 *
 * @module
 */

import { type CommandRun, emit, emitWarnings, type OptionValues } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { UsageError } from "../diag/usage.ts";
import { DiagnosticsError } from "../diag/diag.ts";
import { readRoot } from "../cue/loader.ts";
import { openStore, stateLocation } from "../state/open.ts";
import type { StateStore } from "../state/store.ts";
import { makePlan, type RefreshMode } from "../plan/planner.ts";
import { planDocument } from "../plan/document.ts";
import { renderPlan } from "../render/plan.ts";
import { renderPlanOutcome } from "../render/plan_outcome.ts";
import { checkPlanOut, writePlanFile } from "../plan/planfile.ts";
import { loadKey } from "../keys/key.ts";
import { hasChanges, type Plan } from "../plan/types.ts";
import type { Context } from "../cli/command.ts";
import { parseDuration } from "../plan/duration.ts";
import { judge, loadPolicies, policyPaths } from "../../policy/mod.ts";
import { interrupted } from "../workspace/interrupts.ts";

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
  const sources = readRoot(ctx.root, ctx.workspace);
  if (!sources.ok) throw new DiagnosticsError(sources.diagnostics, "invalid");
  // Planning only reads the state: a read-only root can be planned.
  const store = openedStore ?? await openStore(ctx, { readOnly: true });
  try {
    const { plan, diagnostics } = await makePlan(sources.value, store, {
      root: ctx.root,
      tags: ctx.tags,
      actor: ctx.actor,
      reason: ctx.reason,
      destroy: Boolean(opts.destroy),
      replace: (opts.replace as string[] | undefined) ?? [],
      refresh: refresh as RefreshMode,
      full: Boolean(opts.full),
      explainReservations: Boolean(opts["explain-reservations"]),
    });
    emitWarnings(ctx, diagnostics);
    // The plan is for this state, wherever the root sits: its lineage, and
    // on PostgreSQL its root key.
    const where = await stateLocation(ctx);
    if (where.backend === "postgres") plan.stateRootKey = where.rootKey;
    return plan;
  } catch (e) {
    // A provider asked to stop (Ctrl-C) fails what it was doing: that is the interrupt.
    if (ctx.interrupts.received && e instanceof DiagnosticsError) {
      throw interrupted(
        ctx.interrupts.received,
        "The run stopped while planning: nothing was applied.",
      );
    }
    throw e;
  } finally {
    if (!openedStore) await store.close();
  }
}

/** Reserves the nodes the plan changes, for its actor, until it is applied or expires. */
async function reserve(ctx: Context, plan: Plan, opts: OptionValues): Promise<void> {
  const text = (opts["reserve-for"] as string | undefined) ?? "1h";
  const ttlMs = parseDuration(text);
  if (ttlMs === undefined || ttlMs <= 0) {
    throw new UsageError(`--reserve-for "${text}" is not a duration such as 30m or 2h`, "plan");
  }
  const addresses = plan.nodes.filter((n) =>
    ["create", "update", "replace", "delete"].includes(n.action)
  )
    .map((n) => n.address);
  if (addresses.length === 0) return;
  const store = await openStore(ctx);
  try {
    const r = await store.createReservation({
      addresses,
      actor: ctx.actor,
      reason: ctx.reason,
      planId: plan.id,
      ttlMs,
    });
    plan.reservation = { id: r.id, expires: r.expires, addresses: r.addresses };
  } finally {
    await store.close();
  }
}

/** Releases a reservation this run made, when the plan it was for is not saved. */
async function release(ctx: Context, id: string): Promise<void> {
  const store = await openStore(ctx);
  try {
    await store.releaseReservation(id);
  } finally {
    await store.close();
  }
}

export const run: CommandRun = async (ctx, opts) => {
  // Policies are read and checked before anything runs.
  const policies = await loadPolicies(policyPaths(opts.policy), { pinned: ctx.workspace.pinned });
  const out = opts.out as string | undefined;
  // A reservation keeps nodes for a saved plan until it is applied: a plan
  // that is not saved can never be applied, and its reservation would only
  // keep everyone else out until it expired (an agent could renew it forever).
  if (opts.reserve && out === undefined) {
    throw new UsageError(
      "--reserve needs --out FILE: a reservation keeps the nodes for the saved plan until it is applied, and a plan that is not saved is never applied",
      "plan",
    );
  }
  // Where the plan file goes, and the key that seals it, are checked before
  // anything runs: a refused --out plans and reserves nothing.
  if (out !== undefined) checkPlanOut(ctx.root, out);
  const key = out !== undefined ? loadKey({ root: ctx.root }) : undefined;
  const plan = await planFromFlags(ctx, opts);
  const judged = policies.length ? await judge(policies, planDocument(plan)) : undefined;
  const refused = judged?.refused ?? false;
  // A reservation is held for the plan file: an interrupt, or a file that
  // cannot be written, between the two releases it.
  const unhold = opts.reserve && !refused
    ? ctx.interrupts.hold("a reservation being made")
    : () => {};
  try {
    if (opts.reserve && !refused) await reserve(ctx, plan, opts);
    try {
      ctx.interrupts.throwIfInterrupted(
        `The plan was not saved${plan.reservation ? ", and its reservation was released" : ""}.`,
      );
      if (out !== undefined && !refused) writePlanFile(ctx.root, out, plan, key!);
    } catch (e) {
      if (plan.reservation) await release(ctx, plan.reservation.id);
      throw e;
    }
  } finally {
    unhold();
  }
  const doc = planDocument(plan, judged ? { policies: judged.policies } : {}, {
    includeSkipped: Boolean(opts["include-skipped"]),
  });
  if (judged && !refused) emitWarnings(ctx, judged.diagnostics);
  emit(ctx, doc, () =>
    renderPlan(doc, ctx.style) +
    renderPlanOutcome(doc, { out, changes: hasChanges(plan), place: ctx.place ?? [] }));
  if (refused) throw new DiagnosticsError(judged!.diagnostics, "policy");
  return hasChanges(plan) ? Exit.CHANGES : Exit.OK;
};
