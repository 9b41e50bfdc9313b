/**
 * `pravo mcp`: serves pravo to an agent over the Model Context Protocol on
 * stdio. Policies are read and checked before the server starts; a relative,
 * missing or unusable one stops it with exit 5.
 *
 * @module
 */

import type { CommandRun } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { UsageError } from "../cli/args.ts";
import { DiagnosticsError } from "../diag/diag.ts";
import { parseDuration } from "../plan/duration.ts";
import { stateLocation, stateServers } from "../state/open.ts";
import { checkAbsolutePolicyPath, loadPolicies, policyPaths } from "../../policy/mod.ts";
import { loadKey } from "../keys/key.ts";
import {
  ApproverKeyError,
  type ApproverPublicKey,
  loadApproverPublicKey,
} from "../keys/approver.ts";

export const DEFAULT_MAX_RESULT_BYTES = 40 * 1024;

export const run: CommandRun = async (ctx, opts) => {
  const paths = policyPaths(opts.policy);
  const relative = paths.map(checkAbsolutePolicyPath).filter((d) => d !== undefined);
  if (relative.length) throw new DiagnosticsError(relative, Exit.POLICY);
  // Read and compiled now, so that a bad policy fails the start and not every call.
  await loadPolicies(paths);
  const max = opts["max-result-bytes"] === undefined
    ? DEFAULT_MAX_RESULT_BYTES
    : Number(opts["max-result-bytes"]);
  if (!Number.isInteger(max) || max < 1024) {
    throw new UsageError(
      `--max-result-bytes "${opts["max-result-bytes"]}" is not a whole number of at least 1024`,
      "mcp",
    );
  }
  const timeoutText = (opts.timeout as string | undefined) ?? "10m";
  const timeoutMs = parseDuration(timeoutText);
  if (timeoutMs === undefined || timeoutMs <= 0) {
    throw new UsageError(`--timeout "${timeoutText}" is not a duration such as 90s or 10m`, "mcp");
  }
  // The approvers the server trusts: only keys named on its own command
  // line, read now, never a file in the root.
  const approverPaths = (opts.approver as string[] | undefined) ?? [];
  const requireApproval = Boolean(opts["require-approval"]) || approverPaths.length > 0;
  if (requireApproval && approverPaths.length === 0) {
    throw new UsageError(
      "--require-approval needs the public key of each operator who may approve: add " +
        "--approver /abs/path/FILE.pub (made with `pravo approver-key FILE`, kept outside the root)",
      "mcp",
    );
  }
  const approvers: ApproverPublicKey[] = [];
  for (const p of approverPaths) {
    try {
      approvers.push(await loadApproverPublicKey(p, { root: ctx.root }));
    } catch (e) {
      if (e instanceof ApproverKeyError) throw new UsageError(e.message, "mcp");
      throw e;
    }
  }
  // The key is read now and handed to each child, which gets no access to
  // the key file: nothing a tool runs can read it from disk.
  const key = loadKey({ root: ctx.root });
  const { serve } = await import("../../mcp/server.ts");
  await serve({
    root: ctx.root,
    policies: paths,
    actor: ctx.actor,
    reason: ctx.reason || undefined,
    readOnly: Boolean(opts["read-only"]),
    requireApproval,
    approvers,
    maxResultBytes: max,
    timeoutMs,
    stateServers: stateServers(stateLocation(ctx)),
    key: key.encoded(),
  });
  return Exit.OK;
};
