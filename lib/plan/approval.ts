/**
 * Approvals of saved plans: `pravo approve PLANFILE` records that an
 * operator reviewed a plan, bound to the digest of its content, so that an
 * edited plan is no longer approved. `pravo mcp --require-approval` applies
 * only approved plans. The record is appended to `.pravo/approvals.jsonl`
 * with the actor, the reason and the time.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface Approval {
  plan_id: string;
  digest: string;
  actor: string;
  reason: string;
  at: string;
}

function approvalsFile(root: string): string {
  return join(root, ".pravo", "approvals.jsonl");
}

/** The digest of a plan file's content, or undefined when it is not a plan file. */
export function planFileDigest(path: string): { digest: string; planId: string } | undefined {
  try {
    const outer = JSON.parse(readFileSync(path, "utf8"));
    if (!outer?.body) return undefined;
    const digest = createHash("sha256").update(JSON.stringify(outer.body)).digest("hex");
    return { digest, planId: String(outer.body.id ?? "") };
  } catch {
    return undefined;
  }
}

/** Records an approval. */
export function recordApproval(root: string, a: Approval): void {
  appendFileSync(approvalsFile(root), JSON.stringify(a) + "\n", { mode: 0o600 });
}

/** The approval of the plan file's current content, if an operator gave one. */
export function findApproval(root: string, planPath: string): Approval | undefined {
  const d = planFileDigest(planPath);
  if (!d) return undefined;
  let text: string;
  try {
    text = readFileSync(approvalsFile(root), "utf8");
  } catch {
    return undefined;
  }
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const a = JSON.parse(line) as Approval;
      if (a.digest === d.digest) return a;
    } catch {
      // a damaged line approves nothing
    }
  }
  return undefined;
}
