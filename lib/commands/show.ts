/**
 * `pravo show PLANFILE`: the saved plan, as the human diff or `--json`. The
 * file is opened with pravo's key: a file that pravo did not write with it,
 * or that was edited, is refused.
 *
 * @module
 */

import { type CommandRun, emit } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { loadKey } from "../keys/key.ts";
import { readPlanFile } from "../plan/planfile.ts";
import { planDocument } from "../plan/document.ts";
import { renderPlan } from "../plan/render.ts";
import { resolve } from "node:path";
import { savedPlanTags } from "./_saved_plan.ts";

export const run: CommandRun = (ctx, opts, args) => {
  // The plan holds the tags it was made with; -t would be silently ignored.
  if (opts.t !== undefined) throw savedPlanTags(args[0], "show");
  const key = loadKey({ root: ctx.root, create: false });
  const { plan } = readPlanFile(resolve(ctx.root, args[0]), key);
  const doc = planDocument(plan);
  emit(ctx, doc, () => renderPlan(doc, ctx.style));
  return Promise.resolve(Exit.OK);
};
