/**
 * The root's outputs in Terraform's JSON plan: `output_changes` (every
 * output, `no-op` when its value is what the last apply recorded),
 * `planned_values.outputs` and `prior_state`'s outputs (with a type read
 * from the value). A sensitive output's value is never written: its
 * `*_sensitive` is `true` and the value is left out.
 *
 * @module
 */

import { outputActions, REDACTED } from "../plan/document.ts";
import type { Plan } from "../plan/types.ts";
import type { Json } from "./plan_json_values.ts";

/** One output's change, as Terraform writes it. */
export interface OutputChange {
  actions: string[];
  before?: Json;
  after?: Json;
  after_unknown: boolean;
  before_sensitive: boolean;
  after_sensitive: boolean;
}

/** True when pravo shows the value as sensitive: it is the mark, or holds it. */
function sensitive(v: unknown): boolean {
  if (v === REDACTED) return true;
  if (Array.isArray(v)) return v.some(sensitive);
  if (v && typeof v === "object") return Object.values(v).some(sensitive);
  return false;
}

/** `output_changes`: every output of the plan and of the last apply, sorted by name. */
export function outputChanges(plan: Plan): Record<string, OutputChange> {
  const before = plan.outputsBefore ?? {};
  const out: Record<string, OutputChange> = {};
  for (const { name: k, action, unknown } of outputActions(plan)) {
    const was = action !== "create";
    const is = action !== "delete";
    const s = (was && sensitive(before[k])) || (!unknown && is && sensitive(plan.outputs[k]));
    const c: OutputChange = {
      actions: [action],
      after_unknown: unknown,
      before_sensitive: s,
      after_sensitive: s,
    };
    if (!s) {
      c.before = was ? before[k] as Json : null;
      if (!unknown) c.after = is ? plan.outputs[k] as Json : null;
    } else if (!was) c.before = null;
    out[k] = c;
  }
  return out;
}

/** `planned_values.outputs`: the outputs after apply, with their values when known and not sensitive. */
export function plannedOutputs(plan: Plan): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  const names = [...new Set([...Object.keys(plan.outputs), ...plan.outputsUnknown])].sort();
  for (const k of names) {
    const known = !plan.outputsUnknown.includes(k);
    const s = known && sensitive(plan.outputs[k]);
    const shown = known && !s;
    out[k] = {
      sensitive: s,
      value: shown ? plan.outputs[k] : undefined,
      type: shown ? typeOfValue(plan.outputs[k]) : undefined,
    };
  }
  return names.length ? out : undefined;
}

/** A value's type as Terraform writes types in JSON: `"string"`, `["object", {...}]`, `["tuple", [...]]`. */
export function typeOfValue(v: unknown): Json {
  if (typeof v === "string") return "string";
  if (typeof v === "number") return "number";
  if (typeof v === "boolean") return "bool";
  if (Array.isArray(v)) return ["tuple", v.map(typeOfValue)];
  if (v && typeof v === "object") {
    const attrs: Record<string, Json> = {};
    for (const k of Object.keys(v).sort()) {
      attrs[k] = typeOfValue((v as Record<string, unknown>)[k]);
    }
    return ["object", attrs];
  }
  return "dynamic";
}

/**
 * `prior_state`'s outputs. Terraform 1.11.4 (measured) writes there each
 * output its plan knows the value of, as it evaluated it while planning,
 * also for outputs no apply recorded yet; pravo does the same with the
 * plan's known outputs, and keeps a recorded value that is unknown now.
 */
export function priorOutputs(plan: Plan): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const values: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(plan.outputsBefore ?? {})) {
    if (plan.outputsUnknown.includes(k)) values[k] = v;
  }
  Object.assign(values, plan.outputs);
  for (const [k, v] of Object.entries(values).sort(([a], [b]) => a < b ? -1 : 1)) {
    const s = sensitive(v);
    out[k] = { sensitive: s, value: s ? undefined : v, type: s ? undefined : typeOfValue(v) };
  }
  return out;
}
