/**
 * The plan document: the JSON that `plan --json`, `show --json` and the MCP
 * tools print, and that policies judge. Sensitive values never appear in it.
 * Described field by field in `docs/reference/plan-document.md`.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import type { Diagnostic } from "../diag/diag.ts";
import { REDACTED } from "../secrets/paths.ts";
import { type Attrs, type Plan, type PlannedNode, summarize } from "./types.ts";

/** The `format` of a plan document: `"pravo-plan"`. */
export const PLAN_DOCUMENT_FORMAT = "pravo-plan";

/** What stands in a document for a sensitive value: the one of every view (lib/secrets/paths.ts). */
export { REDACTED };

function redact(attrs: Attrs | null, sensitive: readonly string[]): Attrs | null {
  if (!attrs) return attrs;
  const out: Attrs = {};
  for (const [k, v] of Object.entries(attrs)) {
    out[k] = sensitive.includes(k) && v !== null ? REDACTED : v;
  }
  return out;
}

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
    before: redact(n.before, n.sensitive),
    after: redact(n.after, n.sensitive),
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

/** The string values of sensitive attributes of these nodes. */
export function sensitiveValues(nodes: readonly PlannedNode[]): Set<string> {
  const out = new Set<string>();
  for (const n of nodes) {
    for (const k of n.sensitive) {
      for (const v of [n.before?.[k], n.after?.[k], n.config[k]]) {
        if (typeof v === "string" && v.length > 0) out.add(v);
      }
    }
  }
  return out;
}

/**
 * Outputs that hold a sensitive value (the value itself, or a string that
 * contains it) are redacted: a value is traced, not declared.
 */
export function redactOutputs(outputs: Attrs, sensitive: Set<string>): Attrs {
  const leaks = (v: unknown): boolean => {
    if (typeof v === "string") return [...sensitive].some((s) => v.includes(s));
    if (Array.isArray(v)) return v.some(leaks);
    if (v && typeof v === "object") return Object.values(v).some(leaks);
    return false;
  };
  return Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, leaks(v) ? REDACTED : v]));
}

/**
 * Diagnostics with every occurrence of a sensitive string replaced by
 * `(sensitive)`: a provider's message may quote the configuration it was
 * given (a file name computed from a secret). Strings shorter than 4
 * characters are left, as they would garble every message.
 */
export function scrubDiagnostics(diags: Diagnostic[], values: Iterable<unknown>): Diagnostic[] {
  const secrets = new Set<string>();
  const collect = (v: unknown): void => {
    if (typeof v === "string") {
      if (v.length >= 4) secrets.add(v);
    } else if (Array.isArray(v)) v.forEach(collect);
    else if (v !== null && typeof v === "object") Object.values(v).forEach(collect);
  };
  for (const v of values) collect(v);
  if (secrets.size === 0) return diags;
  const longest = [...secrets].sort((a, b) => b.length - a.length);
  const scrub = (t: string) => longest.reduce((acc, x) => acc.split(x).join(REDACTED), t);
  return diags.map((d) => ({ ...d, summary: scrub(d.summary), detail: scrub(d.detail) }));
}
