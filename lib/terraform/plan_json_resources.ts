/**
 * The resources of Terraform's JSON plan, from a pravo plan and the state's
 * records: each node's entry in `resource_changes` (its actions, values,
 * unknowns, sensitive marks, why it is replaced or deleted), in
 * `planned_values` and in `prior_state`, at its Terraform address.
 *
 * Every node is there, also those an incremental plan skipped (a `no-op`
 * whose values are its record's). A data source read during the plan is in
 * `prior_state` only, as Terraform's refresh puts it there; one read during
 * apply is a `read` change. Ephemeral values and calls have no place in
 * Terraform's plan and are left out.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import type { Action, Attrs, Plan, PlannedNode } from "../plan/types.ts";
import type { StateRecord } from "../state/store.ts";
import type { Mode, TypeSchema } from "../providers/schema.ts";
import { addressString, parseProviderSource } from "../providers/install/address.ts";
import { type TfIdentity, tfIdentity } from "./plan_json_address.ts";
import { type Path, schemaSensitivePaths, type TfType, typeOfSchema } from "./plan_json_types.ts";
import {
  type Json,
  parsePath,
  secretPaths,
  sensitiveAsBool,
  stringsAt,
  unknownAsBool,
  without,
  withUnset,
} from "./plan_json_values.ts";

export type { TfIdentity };
export { tfIdentity };

/** A type's schema, looked up by provider source, mode and name. */
export type TypeLookup = (provider: string, mode: Mode, type: string) => TypeSchema | undefined;

/** One node of the plan or the state, as the JSON plan describes it. */
export interface Instance {
  id: TfIdentity;
  /** The pravo address. */
  address: string;
  provider: string;
  /** `registry.terraform.io/hashicorp/aws`. */
  providerName: string;
  schemaVersion: number;
  type?: TfType;
  /** Terraform's actions, or undefined when the node is no change (a data source read now). */
  actions?: string[];
  actionReason?: string;
  replacePaths?: Path[];
  previousAddress?: string;
  before: Attrs | null;
  after: Attrs | null;
  unknown: Path[];
  /** Sensitive paths in before, and in after. */
  beforeSensitive: Path[];
  afterSensitive: Path[];
  /** What the refreshed state holds for it (prior_state), or null. */
  prior: Attrs | null;
  priorSensitive: Path[];
  /** Terraform addresses of what its record depends on (prior_state's depends_on). */
  dependsOn: string[];
  /** What this plan's refresh found changed outside pravo: the record, and what was read. */
  drift?: { before: Attrs; after: Attrs | null };
}

/** The full provider address of a source: `hashicorp/aws` → `registry.terraform.io/hashicorp/aws`. */
export function providerName(source: string): string {
  try {
    return addressString(parseProviderSource(source));
  } catch {
    return source;
  }
}

/** Terraform's actions for a pravo action. */
function actionsOf(n: PlannedNode): string[] | undefined {
  const actions: Record<Action, string[] | undefined> = {
    create: ["create"],
    update: ["update"],
    replace: n.lifecycle?.create_before_destroy ? ["create", "delete"] : ["delete", "create"],
    delete: ["delete"],
    // A data source read during the plan is in the refreshed state, not a change.
    read: n.afterUnknown.length ? ["read"] : undefined,
    open: undefined,
    "no-op": ["no-op"],
  };
  return actions[n.action];
}

/** Why, in Terraform's words (`action_reason`), when Terraform gives one. */
function reasonOf(n: PlannedNode, plan: Plan): string | undefined {
  if (n.action === "replace") {
    return n.replaceBecause.includes("requested")
      ? "replace_by_request"
      : "replace_because_cannot_update";
  }
  if (n.action === "delete" && n.deleteBecause === "not in the configuration") {
    // An instance whose resource is still there (count or for_each) lost its key.
    const id = tfIdentity(n.address, n.type, n.mode);
    if (id.index === undefined) return "delete_because_no_resource_config";
    const same = (a: string, type: string, mode: Mode) => {
      const o = tfIdentity(a, type, mode);
      return o.resource === id.resource && o.moduleAddress === id.moduleAddress;
    };
    const kept = plan.nodes.some((x) => x.action !== "delete" && same(x.address, x.type, x.mode)) ||
      plan.skipped.some((x) => same(x.address, x.type, x.mode));
    if (!kept) return "delete_because_no_resource_config";
    return typeof id.index === "number" ? "delete_because_count_index" : "delete_because_each_key";
  }
  if (n.action === "read" && n.afterUnknown.length) {
    // Inputs known only after apply, or a dependency that apply changes first.
    if (Object.keys(n.templates ?? {}).length) return "read_because_config_unknown";
    const changing = new Set(
      plan.nodes.filter((x) => x.action !== "no-op" && x.action !== "read").map((x) => x.address),
    );
    return n.dependencies.some((d) => changing.has(d))
      ? "read_because_dependency_pending"
      : "read_because_config_unknown";
  }
  return undefined;
}

/** The inputs that `before`, `after` and the configuration hold at the node's sensitive paths. */
function sensitiveOf(
  names: readonly string[],
  type: TfType | undefined,
  value: Attrs | null,
  secrets: ReadonlySet<string>,
): Path[] {
  if (!value) return [];
  return [
    ...names.map((k) => [k]),
    ...schemaSensitivePaths(type, value),
    ...secretPaths(value, secrets),
  ];
}

/** Everything the JSON plan needs to know of the nodes: types, the secrets to trace. */
export interface InstanceContext {
  types: TypeLookup;
  /** The string values of every sensitive place, never to be written. */
  secrets: Set<string>;
  /** Terraform addresses of the records' dependencies, by pravo address (closed transitively). */
  dependsOn: Map<string, string[]>;
}

/** The secrets of the plan's nodes and the state's records: every string at a sensitive place. */
export function collectSecrets(
  plan: Plan,
  records: readonly StateRecord[],
  types: TypeLookup,
): Set<string> {
  const out = new Set<string>();
  for (const n of plan.nodes) {
    const t = typeFor(types, n.provider, n.mode, n.type);
    for (const v of [n.before, n.after, n.config]) {
      if (v) stringsAt(v, [...n.sensitive.map((k) => [k]), ...schemaSensitivePaths(t, v)], out);
    }
  }
  for (const r of records) {
    const t = typeFor(types, r.provider, r.mode, r.type);
    stringsAt(r.attributes, [...r.sensitivePaths, ...schemaSensitivePaths(t, r.attributes)], out);
  }
  return out;
}

function typeFor(types: TypeLookup, provider: string, mode: Mode, type: string) {
  const s = types(provider, mode, type);
  return s ? typeOfSchema(s) : undefined;
}

/** The instance of a node the plan ran. */
export function nodeInstance(
  n: PlannedNode,
  plan: Plan,
  ctx: InstanceContext,
  rec?: StateRecord,
): Instance {
  const schema = ctx.types(n.provider, n.mode, n.type);
  const type = schema ? typeOfSchema(schema) : undefined;
  const unknown = n.afterUnknown.map(parsePath);
  const topUnknown = unknown.filter((p) => p.length === 1).map((p) => String(p[0]));
  const after = n.after ? withUnset(n.after, type, topUnknown) : null;
  // Terraform 1.11.4 (measured) shows a resource that left the configuration
  // with the state its last apply wrote, not as its refresh read it (which
  // prior_state and resource_drift show).
  const orphan = n.action === "delete" && n.deleteBecause === "not in the configuration" && rec;
  const before = orphan
    ? withUnset(rec.attributes, type)
    : n.before
    ? withUnset(n.before, type)
    : null;
  const readNow = n.action === "read" && n.afterUnknown.length === 0;
  const prior = readNow
    ? after
    : n.action === "create" || !n.before
    ? null
    : withUnset(n.before, type);
  const inst: Instance = {
    id: tfIdentity(n.address, n.type, n.mode),
    address: n.address,
    provider: n.provider,
    providerName: providerName(n.provider),
    schemaVersion: schema?.plugin?.version ?? n.stored?.schemaVersion ?? 0,
    type,
    actions: actionsOf(n),
    actionReason: reasonOf(n, plan),
    before,
    after,
    unknown,
    beforeSensitive: sensitiveOf(n.sensitive, type, before, ctx.secrets),
    afterSensitive: sensitiveOf(n.sensitive, type, after, ctx.secrets),
    prior,
    priorSensitive: sensitiveOf(n.sensitive, type, prior, ctx.secrets),
    dependsOn: ctx.dependsOn.get(n.address) ?? [],
  };
  if (n.action === "replace") {
    const paths = n.replaceBecause.filter((r) => r !== "requested" && r !== "gone");
    if (paths.length) inst.replacePaths = paths.map(parsePath);
  }
  if (n.movedFrom) inst.previousAddress = tfIdentity(n.movedFrom, n.type, n.mode).address;
  if (rec && n.mode === "managed" && !isDeepStrictEqual(withUnset(rec.attributes, type), prior)) {
    inst.drift = { before: withUnset(rec.attributes, type), after: prior };
  }
  return inst;
}

/** The instance of a node the plan skipped: no change, its values its record's. */
export function skippedInstance(rec: StateRecord, ctx: InstanceContext): Instance {
  const schema = ctx.types(rec.provider, rec.mode, rec.type);
  const type = schema ? typeOfSchema(schema) : undefined;
  const values = withUnset(rec.attributes, type);
  const sensitive = [
    ...rec.sensitivePaths,
    ...schemaSensitivePaths(type, values),
    ...secretPaths(values, ctx.secrets),
  ];
  return {
    id: tfIdentity(rec.address, rec.type, rec.mode),
    address: rec.address,
    provider: rec.provider,
    providerName: providerName(rec.provider),
    schemaVersion: schema?.plugin?.version ?? rec.schemaVersion ?? 0,
    type,
    // Terraform reads every data source on each plan: one pravo left alone is in the state only.
    actions: rec.mode === "managed" ? ["no-op"] : undefined,
    before: values,
    after: values,
    unknown: [],
    beforeSensitive: sensitive,
    afterSensitive: sensitive,
    prior: values,
    priorSensitive: sensitive,
    dependsOn: ctx.dependsOn.get(rec.address) ?? [],
  };
}

function change(inst: Instance): Record<string, Json | undefined> {
  const after = inst.after === null ? null : without(inst.after, inst.afterSensitive) as Json;
  return {
    actions: inst.actions!,
    before: inst.before === null ? null : without(inst.before, inst.beforeSensitive) as Json,
    after: inst.after !== null && inst.unknown.length
      ? without(after, inst.unknown, true) as Json
      : after,
    after_unknown: inst.after === null ? {} : unknownAsBool(inst.after, inst.unknown),
    before_sensitive: inst.before === null
      ? false
      : sensitiveAsBool(inst.before, { sensitive: inst.beforeSensitive, type: inst.type }),
    after_sensitive: inst.after === null ? false : sensitiveAsBool(inst.after, {
      sensitive: inst.afterSensitive,
      unknown: inst.unknown,
      type: inst.type,
    }),
    replace_paths: inst.replacePaths as Json | undefined,
  };
}

/**
 * The entry of `resource_drift`: what the plan's refresh read that differs
 * from the record (`update`), or that the object is gone (`delete`).
 */
export function resourceDrift(inst: Instance): Record<string, unknown> | undefined {
  if (!inst.drift) return undefined;
  const { before, after } = inst.drift;
  const sensitive = [...inst.beforeSensitive, ...inst.priorSensitive];
  return {
    address: inst.id.address,
    module_address: inst.id.moduleAddress,
    mode: inst.id.mode,
    type: inst.id.type,
    name: inst.id.name,
    index: inst.id.index,
    provider_name: inst.providerName,
    change: change({
      ...inst,
      actions: after === null ? ["delete"] : ["update"],
      before,
      after,
      unknown: [],
      beforeSensitive: sensitive,
      afterSensitive: after === null ? [] : sensitive,
      replacePaths: undefined,
    }),
  };
}

/** The entry of `resource_changes`, or undefined when the node is no change. */
export function resourceChange(inst: Instance): Record<string, unknown> | undefined {
  if (!inst.actions) return undefined;
  // Terraform deletes a data source from the state without showing it.
  if (inst.id.mode === "data" && inst.actions[0] === "delete") return undefined;
  return {
    address: inst.id.address,
    module_address: inst.id.moduleAddress,
    previous_address: inst.previousAddress,
    mode: inst.id.mode,
    type: inst.id.type,
    name: inst.id.name,
    index: inst.id.index,
    provider_name: inst.providerName,
    change: change(inst),
    action_reason: inst.actionReason,
  };
}

function resourceHead(inst: Instance) {
  return {
    address: inst.id.address,
    mode: inst.id.mode,
    type: inst.id.type,
    name: inst.id.name,
    index: inst.id.index,
    provider_name: inst.providerName,
    schema_version: inst.schemaVersion,
  };
}

/** The entry of `planned_values`, or undefined when apply leaves nothing of it. */
export function plannedResource(inst: Instance): Record<string, unknown> | undefined {
  if (!inst.actions || inst.after === null || inst.actions.join() === "delete") return undefined;
  const known = without(without(inst.after, inst.afterSensitive), inst.unknown, true);
  return {
    ...resourceHead(inst),
    values: known as Json,
    sensitive_values: sensitiveAsBool(inst.after, {
      sensitive: inst.afterSensitive,
      unknown: inst.unknown,
      type: inst.type,
    }),
  };
}

/** The entry of `prior_state`, or undefined when the state has no object for it. */
export function priorResource(inst: Instance): Record<string, unknown> | undefined {
  if (inst.prior === null) return undefined;
  return {
    ...resourceHead(inst),
    values: without(inst.prior, inst.priorSensitive) as Json,
    sensitive_values: sensitiveAsBool(inst.prior, {
      sensitive: inst.priorSensitive,
      type: inst.type,
    }),
    depends_on: inst.dependsOn.length ? inst.dependsOn : undefined,
  };
}
