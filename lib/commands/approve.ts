/**
 * `pravo approve PLANFILE`: an operator records that a saved plan was
 * reviewed. The approval is bound to the plan's content: an edited plan is no
 * longer approved. `pravo mcp --require-approval` applies only approved
 * plans, and no MCP tool approves.
 *
 * @module
 */

import { resolve } from "node:path";
import { type CommandRun, emit } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { readPlanFile } from "../plan/planfile.ts";
import { planFileDigest, recordApproval } from "../plan/approval.ts";
import { planDocument } from "../plan/document.ts";

export const run: CommandRun = (ctx, _opts, args) => {
  const path = resolve(ctx.root, args[0]);
  // Only a whole, untouched plan of this root can be approved.
  const plan = readPlanFile(path, ctx.root);
  const d = planFileDigest(path)!;
  const approval = {
    plan_id: plan.id,
    digest: d.digest,
    actor: ctx.actor,
    reason: ctx.reason,
    at: new Date().toISOString(),
  };
  recordApproval(ctx.root, approval);
  const s = planDocument(plan).summary;
  emit(
    ctx,
    { format_version: "1.0", approval },
    () =>
      `Approved plan ${plan.id} (${s.add} to add, ${s.change} to change, ${s.replace} to replace, ${s.destroy} to destroy) as ${ctx.actor}. An edited plan is no longer approved.`,
  );
  return Promise.resolve(Exit.OK);
};
