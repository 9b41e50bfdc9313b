/**
 * `pravo apply [PLANFILE]`: applies a saved plan, or plans and asks first.
 *
 * A saved plan is refused when stale, damaged, made for another root or of a
 * newer format, with nothing applied. Without a plan file, apply plans,
 * shows the plan and asks on a terminal; `-auto-approve` skips the question;
 * with no terminal and no `-auto-approve` it refuses.
 *
 * @module
 */

import {
  type CommandRun,
  type Context,
  emit,
  emitWarnings,
  type OptionValues,
} from "../cli/command.ts";
import { Exit, exitCodeOf } from "../cli/exit.ts";
import { answerIsYes } from "../cli/prompt.ts";
import { UsageError } from "../diag/usage.ts";
import { DiagnosticsError, error } from "../diag/diag.ts";
import { checkPlanState, readPlanFile } from "../plan/planfile.ts";
import { checkPlanConsistency } from "../plan/consistency.ts";
import { loadKey } from "../keys/key.ts";
import { planDocument } from "../plan/document.ts";
import { renderPlan } from "../render/plan.ts";
import { hasChanges, type Plan, summarize } from "../plan/types.ts";
import { applyPlan, type ApplyResult } from "../apply/apply.ts";
import { recordRefreshed, recordSettings } from "../apply/bookkeeping.ts";
import { openStore, stateLocation } from "../state/open.ts";
import { diagnosticsJson, renderDiagnostics } from "../render/diagnostics.ts";
import { planFromFlags } from "./plan.ts";
import { resolve } from "node:path";
import { judge, type Judgement, loadPolicies, policyPaths } from "../../policy/mod.ts";
import { failureOf, type InterruptSignal } from "../workspace/interrupts.ts";
import { tookOverWarning } from "../state/lock/message.ts";
import { resolveOnly } from "../apply/only.ts";
import { savedPlanTags } from "./_saved_plan.ts";
import { pravoCommand } from "../diag/hint.ts";
import { ApplyProgressView } from "../render/apply_progress.ts";
import { appliedOutputs } from "./output.ts";
import { renderOutputLines } from "../render/output.ts";
import { parseSources } from "../cue/loader.ts";
import type { StateRecord } from "../state/store.ts";
import { renderApplied } from "../render/apply.ts";
import type { Workspace } from "../workspace/workspace.ts";

function parseOnly(v: unknown): string[] | undefined {
  if (v === undefined) return undefined;
  const list = (Array.isArray(v) ? v : [v]).flatMap((s) => String(s).split(",")).map((s) =>
    s.trim()
  )
    .filter(Boolean);
  if (list.length === 0) {
    throw new UsageError("--only needs at least one address: --only A,B", "apply");
  }
  return list;
}

/** Asks on the terminal; an interrupt while it waits is a no. */
async function confirm(ctx: Context, destroying = false): Promise<boolean> {
  ctx.streams.stdout(
    destroying
      ? "\nDo you really want to destroy all resources?\n  pravo will destroy all the objects " +
        "the state holds, as shown above. There is no undo.\n  Only 'yes' will be accepted to " +
        "confirm.\n\n  Enter a value: "
      : "\nDo you want to perform these actions?\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: ",
  );
  return await answerIsYes({ signal: ctx.interrupts.signal });
}

/**
 * The progress view of an apply, on standard output (as Terraform's): live
 * on a terminal with colour, lines otherwise; none with `--json`.
 */
function progressView(ctx: Context): ApplyProgressView | undefined {
  if (ctx.json) return undefined;
  const every = Number(Deno.env.get(PROGRESS_INTERVAL_ENV) ?? NaN);
  return new ApplyProgressView({
    write: (t) => ctx.streams.stdout(t),
    live: ctx.streams.isTerminal && ctx.color,
    style: ctx.style,
    ...(Number.isFinite(every) && every > 0 ? { intervalMs: every } : {}),
  });
}

/**
 * `$PRAVO_TEST_PROGRESS_INTERVAL_MS`: the interval of `Still creating...`
 * lines, for tests that must not wait 10 s.
 */
const PROGRESS_INTERVAL_ENV = "PRAVO_TEST_PROGRESS_INTERVAL_MS";

function hasOutputs(plan: Plan): boolean {
  return Object.keys(plan.outputs).length + plan.outputsUnknown.length > 0;
}

/** Whether the human view ends with the outputs: after a whole apply that succeeded, not a destroy. */
function showsOutputs(
  ctx: Context,
  result: { ok: boolean },
  destroying: boolean,
  plan: Plan,
): boolean {
  return !ctx.json && result.ok && !destroying && !plan.destroy && hasOutputs(plan);
}

/**
 * The outputs after the apply. Known when the plan was made, they are the
 * plan's; else the plan's own sources are evaluated again with the state.
 */
async function outputsAfter(
  plan: Plan,
  records: StateRecord[],
  workspace: Workspace,
): Promise<Record<string, unknown> | undefined> {
  if (plan.outputsUnknown.length === 0) return plan.outputs;
  const sources = parseSources(plan.root, plan.sources, workspace);
  if (!sources.ok) return undefined;
  try {
    return await appliedOutputs(sources.value, plan.tags, records);
  } catch (e) {
    if (e instanceof DiagnosticsError) return undefined; // the apply's result stands without them
    throw e;
  }
}

/** Judges the plan when there are policies: a refusal ends the command (exit 5). */
async function judgeOrRefuse(
  ctx: Context,
  policies: Awaited<ReturnType<typeof loadPolicies>>,
  plan: Plan,
): Promise<Judgement | undefined> {
  if (policies.length === 0) return undefined;
  const judged = await judge(policies, planDocument(plan));
  if (judged.refused) throw new DiagnosticsError(judged.diagnostics, "policy");
  emitWarnings(ctx, judged.diagnostics);
  return judged;
}

/** The flags of `pravo apply`, checked: what contradicts itself is a usage error. */
function applyFlags(opts: OptionValues, args: string[]) {
  const only = parseOnly(opts.only);
  const withDependencies = Boolean(opts["with-dependencies"]);
  if (withDependencies && !only) {
    throw new UsageError(
      "--with-dependencies goes with --only: pravo apply PLANFILE --only A,B --with-dependencies",
      "apply",
    );
  }
  const parallelism = opts.parallelism === undefined ? 10 : Number(opts.parallelism);
  if (!Number.isInteger(parallelism) || parallelism < 1) {
    throw new UsageError(
      `--parallelism "${opts.parallelism}" is not a whole number above zero`,
      "apply",
    );
  }
  const planPath = args[0];
  /** `pravo destroy`, or `apply --destroy`: Terraform's words for a destroy. */
  const destroying = !planPath && Boolean(opts.destroy);
  if (planPath) {
    // A saved plan is applied as it was reviewed: flags that would make another plan are refused.
    const planning = ["destroy", "replace", "refresh"].filter((f) => opts[f] !== undefined);
    if (planning.length) {
      throw new UsageError(
        `--${
          planning[0]
        } makes a new plan and cannot change the saved plan "${planPath}": apply it as it is, or make a new plan with \`pravo plan --${
          planning[0]
        } --out FILE\``,
        "apply",
      );
    }
    // The plan holds the tags it was made with; others would be silently ignored.
    if (opts.t !== undefined) throw savedPlanTags(planPath, "apply");
  }
  const expected = opts["expect-digest"] as string | undefined;
  if (expected !== undefined && !planPath) {
    throw new UsageError("--expect-digest needs a plan file: pravo apply PLANFILE", "apply");
  }
  return { only, withDependencies, parallelism, planPath, destroying, expected };
}

/**
 * A saved plan, checked before the state is opened: a damaged or foreign
 * file is refused without touching anything. The file is read once, and all
 * that follows uses what was read: the plan and the digest of its bytes.
 */
function readSaved(ctx: Context, planPath: string, expected: string | undefined): Plan {
  const file = readPlanFile(
    resolve(ctx.root, planPath),
    loadKey({ root: ctx.root, create: false }),
  );
  if (expected !== undefined && file.digest !== expected) {
    // pravo mcp --require-approval checked the approval of this digest:
    // the bytes apply read must be those that were approved.
    throw new DiagnosticsError([
      error(
        `Plan file "${planPath}" changed since it was approved`,
        "Its content is no longer the one whose approval was checked. Nothing was applied. Have the new plan reviewed and approved, then apply it.",
      ),
    ], "plan_damaged");
  }
  // The root's plugin providers' types, for the check.
  const disagree = checkPlanConsistency(file.plan, ctx.workspace.registry);
  if (disagree.length) throw new DiagnosticsError(disagree, "plan_damaged");
  return file.plan;
}

/** How many nodes the apply added, changed, replaced, destroyed, and did not apply, by why. */
function countOutcomes(plan: Plan, result: ApplyResult) {
  const counts = {
    added: 0,
    changed: 0,
    replaced: 0,
    destroyed: 0,
    failed: 0,
    skipped: 0,
    cancelled: 0,
    not_started: 0,
  };
  // A data source read and dropped is not a resource destroyed (the plan does not count it).
  const modes = new Map(plan.nodes.map((n) => [n.address, n.mode]));
  for (const o of result.outcomes) {
    if (o.status === "failed") counts.failed++;
    else if (o.status === "skipped") counts.skipped++;
    else if (o.status === "cancelled") counts.cancelled++;
    else if (o.status === "not_started") counts.not_started++;
    else if (o.action === "create") counts.added++;
    else if (o.action === "update") counts.changed++;
    else if (o.action === "replace") counts.replaced++;
    else if (o.action === "delete" && modes.get(o.address) === "managed") counts.destroyed++;
  }
  return counts;
}

/** The document of an apply: what `--json` prints, and what its summary is drawn from. */
function appliedDocument(
  plan: Plan,
  result: ApplyResult,
  counts: ReturnType<typeof countOutcomes>,
  judged: Judgement | undefined,
) {
  const diags = result.outcomes.flatMap((o) => o.diagnostics);
  return {
    format_version: "1.0",
    plan_id: plan.id,
    ...(judged ? { policies: judged.policies } : {}),
    summary: { ...counts, planned: summarize(plan.nodes) },
    nodes: result.outcomes.map((o) => ({ address: o.address, action: o.action, status: o.status })),
    ...(result.moved?.length ? { moved: result.moved } : {}),
    serial: result.serial,
    ok: result.ok,
    ...(result.interrupted ? { interrupted: result.interrupted } : {}),
    diagnostics: diagnosticsJson(diags),
  };
}

/**
 * Shows the plan about to be applied and, without -auto-approve, asks on
 * the terminal (refused without one). False when the answer is no.
 */
async function approved(
  ctx: Context,
  doc: ReturnType<typeof planDocument>,
  destroying: boolean,
  autoApprove: boolean,
): Promise<boolean> {
  if (!autoApprove) {
    if (!ctx.streams.isTerminal || !Deno.stdin.isTerminal()) {
      throw new DiagnosticsError([
        error(
          destroying ? "Destroy needs approval" : "Apply needs approval",
          "There is no terminal to ask on, and -auto-approve was not given. Save a plan " +
            `with \`${
              pravoCommand(
                ctx.place ?? [],
                "plan",
                ...(destroying ? ["--destroy"] : []),
                "--out",
                "FILE",
              )
            }\`, review it, and run \`${
              pravoCommand(ctx.place ?? [], "apply", "FILE")
            }\`; or pass -auto-approve.`,
        ),
      ], "usage");
    }
    ctx.streams.stdout(renderPlan(doc, ctx.style));
    if (!(await confirm(ctx, destroying))) {
      ctx.interrupts.throwIfInterrupted("Nothing was applied: the run stopped at the question.");
      ctx.streams.stderr("Apply cancelled: nothing was applied.\n");
      return false;
    }
  } else if (!ctx.json) {
    // What is about to be done is shown, also without a question: in
    // CI, the log shows the plan that was applied (as Terraform's).
    ctx.streams.stdout(renderPlan(doc, ctx.style) + "\n");
  }
  return true;
}

export const run: CommandRun = async (ctx, opts, args) => {
  const { only, withDependencies, parallelism, planPath, destroying, expected } = applyFlags(
    opts,
    args,
  );
  // Policies are read and checked before anything runs.
  const policies = await loadPolicies(policyPaths(opts.policy), { pinned: ctx.workspace.pinned });
  const saved = planPath ? readSaved(ctx, planPath, expected) : undefined;
  // A saved plan is judged whole before the state is opened.
  let judged = saved ? await judgeOrRefuse(ctx, policies, saved) : undefined;
  const store = await openStore(ctx);
  let result: ApplyResult;
  let plan: Plan;
  let records: StateRecord[] | undefined;
  try {
    if (saved) {
      const where = await stateLocation(ctx);
      checkPlanState(saved, {
        lineage: (await store.identity()).lineage,
        rootKey: where.backend === "postgres" ? where.rootKey : undefined,
      }, planPath!);
    }
    // Without a plan file, the lock is held from planning to the end of
    // apply, so that no one changes the state in between.
    const lock = saved ? undefined : await store.acquireLock({
      actor: ctx.actor,
      reason: ctx.reason,
      command: "apply",
      timeoutMs: 10_000,
    });
    if (lock?.tookOver) emitWarnings(ctx, [tookOverWarning(lock.tookOver)]);
    try {
      if (saved) {
        // The plan applies here, wherever it was made: its state tells the root.
        plan = { ...saved, root: ctx.root };
      } else {
        plan = await planFromFlags(ctx, opts, store);
        ctx.interrupts.throwIfInterrupted("Nothing was applied: the run stopped while planning.");
        judged = await judgeOrRefuse(ctx, policies, plan);
        const doc = planDocument(plan, judged ? { policies: judged.policies } : {});
        if (!hasChanges(plan)) {
          // Nothing to apply; what a refresh read and a changed setting of
          // a node are still kept, as Terraform's apply -refresh-only does.
          await recordRefreshed(plan, store, { actor: ctx.actor, reason: ctx.reason });
          await recordSettings(plan, store, {
            actor: ctx.actor,
            reason: ctx.reason,
            workspace: ctx.workspace,
          });
          emit(ctx, { ...doc, applied: [] }, () => renderPlan(doc, ctx.style));
          return Exit.OK;
        }
        if (!(await approved(ctx, doc, destroying, opts["auto-approve"] === true))) {
          return Exit.ERROR;
        }
      }
      const chosen = only && resolveOnly(plan, only, withDependencies);
      const added = (chosen ?? []).filter((a) => !only!.includes(a));
      if (added.length && !ctx.json) {
        ctx.streams.stderr(
          `--with-dependencies adds the changes they depend on: ${added.sort().join(", ")}\n`,
        );
      }
      const view = progressView(ctx);
      try {
        result = await applyPlan(plan, store, {
          workspace: ctx.workspace,
          actor: ctx.actor,
          reason: ctx.reason,
          only: chosen,
          parallelism,
          heldLock: lock,
          planPath,
          progress: view && ((e) => view.event(e)),
          signal: ctx.interrupts.signal,
          outputsAfter: (records) => outputsAfter(plan, records, ctx.workspace),
          onLocked: (l) => {
            if (l.tookOver) emitWarnings(ctx, [tookOverWarning(l.tookOver)]);
          },
        });
      } finally {
        view?.close();
      }
      // The outputs are shown after a whole apply, from the state now (not with a
      // destroy): those the apply recorded, else (`--only`) computed here.
      if (showsOutputs(ctx, result, destroying, plan) && result.outputs === undefined) {
        records = await store.listRecords();
      }
    } finally {
      if (lock) await store.releaseLock(lock);
    }
  } finally {
    await store.close();
  }
  const counts = countOutcomes(plan, result);
  const outputs = showsOutputs(ctx, result, destroying, plan)
    ? result.outputs ?? (records && await outputsAfter(plan, records, ctx.workspace))
    : undefined;
  const doc = appliedDocument(plan, result, counts, judged);

  emit(ctx, doc, () =>
    renderApplied(doc, ctx.style, {
      destroying,
      nothingStarted: result.nothingStarted === true,
      planPath,
      place: ctx.place ?? [],
      outputs: outputs && Object.keys(outputs).length
        ? renderOutputLines(outputs, ctx.style)
        : undefined,
    }));
  // Nodes not started are listed above; their diagnostics only say so.
  const shown = result.outcomes.filter((o) => o.status !== "not_started").flatMap((o) =>
    o.diagnostics
  );
  if (!ctx.json && shown.length) ctx.streams.stderr(renderDiagnostics(shown, ctx.style));
  if (result.interrupted) return exitCodeOf(failureOf(result.interrupted as InterruptSignal));
  return result.ok ? Exit.OK : Exit.ERROR;
};
