/**
 * `pravo show PLANFILE`: the saved plan, as the human diff or `--json`. The
 * file is opened with pravo's key: a file that pravo did not write with it,
 * or that was edited, is refused.
 *
 * With `--format terraform`, the plan in Terraform's JSON plan format
 * instead (`_show_terraform.ts`), for the tools that read Terraform's plans.
 *
 * Beside the plan, its status, so that whoever waits on it (an agent under
 * `pravo mcp --require-approval`) need not try to apply it to find out:
 * whether it is stale (the state moved on since it was made), and, when
 * approvers' keys are known (`--approver`, or the ones the MCP server
 * trusts), whether an approval of exactly these bytes is present, and by
 * whom.
 *
 * @module
 */

import { resolve } from "node:path";
import { type CommandRun, emit } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import type { Workspace } from "../workspace/workspace.ts";
import { UsageError } from "../diag/usage.ts";
import { DiagnosticsError } from "../diag/diag.ts";
import { loadKey } from "../keys/key.ts";
import {
  ApproverKeyError,
  type ApproverPublicKey,
  approverPublicKeyFromPem,
  loadApproverPublicKey,
} from "../keys/approver.ts";
import { ApprovalsUnreadable, findApproval } from "../plan/approval.ts";
import { readPlanFile } from "../plan/planfile.ts";
import { planDocument } from "../plan/document.ts";
import { renderPlan } from "../render/plan.ts";
import { type PlanStatus, renderPlanStatus } from "../render/plan_status.ts";
import type { Plan } from "../plan/types.ts";
import { openStore } from "../state/open.ts";
import { savedPlanTags } from "./_saved_plan.ts";
import { realOrResolved as realOrSelf } from "../files/real.ts";

/** The approvers' keys to judge by: `--approver` on the command line, else the server's. */
async function approversOf(
  ctx: { root: string; workspace: Pick<Workspace, "pinned"> },
  given: unknown,
): Promise<ApproverPublicKey[]> {
  const paths = (given as string[] | undefined) ?? [];
  const out: ApproverPublicKey[] = [];
  for (const p of paths) {
    try {
      out.push(await loadApproverPublicKey(resolve(p), { root: ctx.root }));
    } catch (e) {
      if (e instanceof ApproverKeyError) throw new UsageError(e.message, "show");
      throw e;
    }
  }
  if (paths.length === 0) {
    for (const a of ctx.workspace.pinned?.approvers ?? []) {
      out.push(await approverPublicKeyFromPem(a.pem, a.path));
    }
  }
  return out;
}

/** The status of a saved plan: stale or not, approved or not. */
async function statusOf(
  ctx: Parameters<CommandRun>[0],
  plan: Plan,
  digest: string,
  approvers: ApproverPublicKey[],
  path: string,
): Promise<PlanStatus> {
  let stale: boolean | null = null;
  let staleBecause: string | null = null;
  try {
    const store = await openStore(ctx, { readOnly: true });
    try {
      // As apply judges it (checkFresh): the same lineage and serial.
      const id = await store.identity();
      stale = id.lineage !== plan.lineage || id.serial !== plan.serial;
      staleBecause = id.lineage !== plan.lineage
        ? `it was made against state lineage ${plan.lineage}, and the state now has lineage ${id.lineage}`
        : stale
        ? `it was made at state serial ${plan.serial}, and the state is now at serial ${id.serial}`
        : null;
    } finally {
      await store.close();
    }
  } catch (e) {
    if (!(e instanceof DiagnosticsError)) throw e;
    staleBecause = `the state cannot be read (${e.diagnostics[0]?.summary ?? "unknown"})`;
  }
  let approval: PlanStatus["approval"] = null;
  if (approvers.length) {
    try {
      const found = await findApproval(ctx.root, digest, approvers);
      if (!found) {
        approval = {
          approved: false,
          because: `no approval of this file's bytes by ${
            approvers.map((a) => a.fingerprint).join(", ")
          } is recorded: an operator runs \`pravo approve ${path}\``,
        };
      } else if (realOrSelf(plan.root) !== realOrSelf(ctx.root)) {
        approval = {
          approved: false,
          because:
            `it was made in ${plan.root}, and an approval holds for the root its plan was made in`,
        };
      } else {
        const s = found.record.statement;
        approval = {
          approved: true,
          by: {
            key: found.by.fingerprint,
            key_file: found.by.path,
            actor: s.actor,
            reason: s.reason,
            approved_at: s.approved_at,
          },
        };
      }
    } catch (e) {
      if (!(e instanceof ApprovalsUnreadable)) throw e;
      approval = { approved: false, because: e.message };
    }
  }
  return { stale, stale_because: staleBecause, approval };
}

export const run: CommandRun = async (ctx, opts, args) => {
  // The plan holds the tags it was made with; -t would be silently ignored.
  if (opts.t !== undefined) throw savedPlanTags(args[0], "show");
  if (opts.format !== undefined && opts.format !== "pravo" && opts.format !== "terraform") {
    throw new UsageError(`--format "${opts.format}" is not one of pravo, terraform`, "show");
  }
  if (opts.format === "terraform") {
    // Terraform's format has no place for an approval: say so rather than drop it.
    if (opts.approver !== undefined) {
      throw new UsageError(
        "--approver says whether a plan is approved, and Terraform's format has no place for it: use show --approver without --format terraform",
        "show",
      );
    }
    const { plan } = readPlanFile(
      resolve(ctx.root, args[0]),
      loadKey({ root: ctx.root, create: false }),
    );
    const { terraformDocument } = await import("./_show_terraform.ts");
    emit({ ...ctx, json: true }, await terraformDocument(ctx, plan, args[0]), () => "");
    return Exit.OK;
  }
  const key = loadKey({ root: ctx.root, create: false });
  const approvers = await approversOf(ctx, opts.approver);
  const { plan, digest } = readPlanFile(resolve(ctx.root, args[0]), key);
  const status = await statusOf(ctx, plan, digest, approvers, args[0]);
  const doc = { ...planDocument(plan), status };
  emit(ctx, doc, () => renderPlan(doc, ctx.style) + renderPlanStatus(status, ctx.style));
  return Exit.OK;
};
