/**
 * The plan document: the JSON that `plan --json`, `show --json` and the MCP
 * tools print, and that policies judge. Sensitive values never appear in it.
 * Described field by field in `docs/reference/plan-document.md`.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import { REDACTED, redactNames } from "../secrets/paths.ts";
import { type Plan, type PlannedNode, summarize } from "./types.ts";

/** The `format` of a plan document: `"pravo-plan"`. */
export const PLAN_DOCUMENT_FORMAT = "pravo-plan";

/** What stands in a document for a sensitive value: the one of every view (lib/secrets/paths.ts). */
export { REDACTED };

/** What names a planned node, and its action: the head of its document (and of its node in `pravo graph --plan`). */
export function nodeHead(
  n: PlannedNode,
): Pick<PlannedNode, "address" | "mode" | "type" | "name" | "provider" | "action"> {
  return {
    address: n.address,
    mode: n.mode,
    type: n.type,
    name: n.name,
    provider: n.provider,
    action: n.action,
  };
}

export function nodeDocument(n: PlannedNode) {
  return {
    ...nodeHead(n),
    before: redactNames(n.before, n.sensitive),
    after: redactNames(n.after, n.sensitive),
    after_unknown: n.afterUnknown,
    changed: n.changed,
    replace_because: n.replaceBecause.length ? n.replaceBecause : undefined,
    delete_because: n.deleteBecause,
    moved_from: n.movedFrom,
    dependencies: n.dependencies,
    sensitive: n.sensitive,
    // What apply uses besides the values: shown when set, so that what is
    // judged and reviewed is what is applied.
    lifecycle: n.lifecycle && Object.keys(n.lifecycle).length ? n.lifecycle : undefined,
    provider_config: n.providerConfig && Object.keys(n.providerConfig).length
      ? n.providerConfig
      : undefined,
    origin: n.origin,
  };
}

/** The plan as a document. */
export function planDocument(
  plan: Plan,
  extra: Record<string, unknown> = {},
  opts: { includeSkipped?: boolean } = {},
) {
  return {
    // What this document is: not Terraform's JSON plan, whose format_version
    // "1.0" it shares. A tool for Terraform's plans can tell them apart.
    format: PLAN_DOCUMENT_FORMAT,
    format_version: plan.formatVersion,
    id: plan.id,
    created_at: plan.createdAt,
    root: plan.root,
    tags: plan.tags,
    actor: plan.actor,
    reason: plan.reason,
    state: { lineage: plan.lineage, serial: plan.serial, root_key: plan.stateRootKey },
    config_digest: plan.configDigest,
    destroy: plan.destroy,
    summary: summarize(plan.nodes, plan.skipped.length),
    nodes: plan.nodes.map(nodeDocument),
    skipped: opts.includeSkipped
      ? plan.skipped.map(({ address, mode, type, name }) => ({ address, mode, type, name }))
      : undefined,
    full: plan.full,
    reservation: plan.reservation,
    outputs: plan.outputs,
    outputs_unknown: plan.outputsUnknown,
    output_changes: plan.outputsBefore === undefined ? undefined : outputChanges(plan),
    ...extra,
  };
}

/** How an output changes: its value before (the state's) and after (unknown: `after_unknown`). */
export interface OutputChange {
  action: "create" | "update" | "delete";
  before: unknown;
  after: unknown;
  after_unknown: boolean;
}

/** What a plan does to an output. */
export type OutputAction = "create" | "update" | "delete" | "no-op";

/**
 * Every output of the plan and of the last whole apply, sorted by name, with
 * what the plan does to it: `create` when the last apply did not record it,
 * `delete` when the plan no longer has it, `update` when its value differs
 * or is known only after apply, `no-op` otherwise.
 */
export function outputActions(
  plan: Plan,
): { name: string; action: OutputAction; unknown: boolean }[] {
  const before = plan.outputsBefore ?? {};
  const names = new Set([
    ...Object.keys(before),
    ...Object.keys(plan.outputs),
    ...plan.outputsUnknown,
  ]);
  return [...names].sort().map((name) => {
    const unknown = plan.outputsUnknown.includes(name);
    const action: OutputAction = !unknown && !Object.hasOwn(plan.outputs, name)
      ? "delete"
      : !Object.hasOwn(before, name)
      ? "create"
      : unknown || !isDeepStrictEqual(before[name], plan.outputs[name])
      ? "update"
      : "no-op";
    return { name, action, unknown };
  });
}

/**
 * The outputs whose value differs from the one the last whole apply
 * recorded, by name, sorted: added, changed (or known only after apply) and
 * removed. A sensitive output is `"(sensitive)"` on both sides, so it shows
 * only when it appears or goes: whether its value changed is not said.
 */
export function outputChanges(plan: Plan): Record<string, OutputChange> {
  const before = plan.outputsBefore ?? {};
  const out: Record<string, OutputChange> = {};
  for (const { name: k, action, unknown } of outputActions(plan)) {
    if (action === "no-op") continue;
    out[k] = {
      action,
      before: action === "create" ? null : before[k],
      after: action === "delete" ? null : plan.outputs[k] ?? null,
      after_unknown: action !== "delete" && unknown,
    };
  }
  return out;
}
