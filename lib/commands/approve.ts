/**
 * `pravo approve PLANFILE --key FILE`: an operator signs that a saved plan
 * was reviewed. The signature (Ed25519, with the operator's private key kept
 * outside the root) covers the SHA-256 of the plan file's exact bytes, the
 * plan's id, its state lineage, the actor, the reason and the time; the
 * record is appended to `.pravo/approvals.jsonl`. `pravo mcp
 * --require-approval --approver FILE.pub` applies only plans whose approval
 * verifies under a key named on its command line, and no MCP tool approves.
 * On a terminal, the plan as read is shown and must be confirmed first.
 *
 * @module
 */

import { savedPlanTags } from "./_saved_plan.ts";
import { resolve } from "node:path";
import { type CommandRun, emit } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { answerIsYes } from "../cli/prompt.ts";
import { UsageError } from "../diag/usage.ts";
import { DiagnosticsError, error } from "../diag/diag.ts";
import { loadKey } from "../keys/key.ts";
import { loadApproverPrivateKey } from "../keys/approver.ts";
import { checkPlanState, readPlanFile } from "../plan/planfile.ts";
import { checkPlanConsistency } from "../plan/consistency.ts";
import { APPROVAL_DOMAIN, recordApproval, signApproval } from "../plan/approval.ts";
import { planDocument } from "../plan/document.ts";
import { renderPlan } from "../render/plan.ts";
import { openStore, stateLocation } from "../state/open.ts";

function stdinIsTerminal(): boolean {
  try {
    return Deno.stdin.isTerminal();
  } catch {
    return false;
  }
}

function env(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined; // no permission to read it: as if unset
  }
}

export const run: CommandRun = async (ctx, opts, args) => {
  // The plan holds the tags it was made with; -t would be silently ignored.
  if (opts.t !== undefined) throw savedPlanTags(args[0], "approve");
  const given = (opts.key as string | undefined) ?? env("PRAVO_APPROVER_KEY");
  if (given === undefined || given === "") {
    throw new UsageError(
      "approve needs the approver's private key: give --key FILE or set $PRAVO_APPROVER_KEY. " +
        "Make a key pair outside the root with `pravo approver-key FILE`, and start the server " +
        "with `pravo mcp --approver FILE.pub`",
      "approve",
    );
  }
  const signer = await loadApproverPrivateKey(given, { root: ctx.root });
  const path = resolve(ctx.root, args[0]);
  // Only a whole plan that pravo sealed, read once: the digest is of the bytes parsed.
  const { plan, digest } = readPlanFile(path, loadKey({ root: ctx.root, create: false }));
  // The root's plugin providers' types, for the check.
  const disagree = checkPlanConsistency(plan, ctx.workspace.registry);
  if (disagree.length) throw new DiagnosticsError(disagree, "plan_damaged");
  // A plan of this root's state, and not stale: else the approval could never be used.
  const store = await openStore(ctx);
  try {
    const id = await store.identity();
    const where = await stateLocation(ctx);
    checkPlanState(plan, {
      lineage: id.lineage,
      rootKey: where.backend === "postgres" ? where.rootKey : undefined,
    }, args[0]);
    if (id.serial !== plan.serial) {
      throw new DiagnosticsError([
        error(
          `Saved plan "${args[0]}" is stale`,
          `It was made at state serial ${plan.serial}, and the state is now at serial ${id.serial}: it can no longer be applied. Nothing was approved. Make a new plan, review it, and approve that.`,
        ),
      ], "stale");
    }
  } finally {
    await store.close();
  }
  // On a terminal, what is signed is shown first and must be confirmed: the
  // file is read once, so what the operator sees here is what is approved,
  // even if the file changed since they last looked at it.
  if (ctx.streams.isTerminal && !ctx.json && stdinIsTerminal()) {
    const doc = planDocument(plan);
    ctx.streams.stdout(
      renderPlan(doc, ctx.style) +
        "\nDo you approve exactly this plan?\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: ",
    );
    if (!(await answerIsYes())) {
      ctx.streams.stderr("Approval cancelled: nothing was approved.\n");
      return Exit.ERROR;
    }
  }
  const approval = await signApproval({
    domain: APPROVAL_DOMAIN,
    plan_sha256: digest,
    plan_id: plan.id,
    state_lineage: plan.lineage,
    actor: ctx.actor,
    reason: ctx.reason,
    approved_at: new Date().toISOString(),
  }, signer);
  recordApproval(ctx.root, approval);
  const s = planDocument(plan).summary;
  emit(
    ctx,
    { format_version: "1.0", approval },
    () =>
      `Approved plan ${plan.id} (${s.add} to add, ${s.change} to change, ${s.replace} to replace, ${s.destroy} to destroy) as ${ctx.actor}, signed with the approver key ${signer.fingerprint}. The approval holds for this file as it is: an edited or replaced file is not approved.`,
  );
  return Exit.OK;
};
