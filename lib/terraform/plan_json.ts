/**
 * Terraform's JSON plan (`terraform show -json PLANFILE`, format 1.2) for a
 * pravo plan, so that the tools teams run on plans (Checkov, Trivy,
 * Infracost, conftest/OPA) read pravo's: `planned_values`,
 * `resource_changes`, `output_changes`, `prior_state`, `configuration`,
 * `relevant_attributes`, `variables`, at Terraform's addresses
 * (lib/terraform/address.ts) with full provider addresses.
 *
 * Every node is there, those an incremental plan skipped too (as `no-op`,
 * their values their records'). Unlike Terraform, no secret is written: a
 * sensitive value is left out and marked in `*_sensitive`, and so is any
 * string that holds one. What differs from Terraform's output, and why, is
 * in docs/reference/show.md.
 *
 * @module
 */

import { addressLabels } from "../addr/address.ts";
import { DiagnosticsError, error } from "../diag/diag.ts";
import type { Attrs, Plan } from "../plan/types.ts";
import type { ProviderSchema } from "../providers/schema.ts";
import type { StateRecord } from "../state/store.ts";
import {
  collectSecrets,
  type Instance,
  nodeInstance,
  plannedResource,
  priorResource,
  providerName,
  resourceChange,
  resourceDrift,
  skippedInstance,
  type TfIdentity,
  tfIdentity,
  type TypeLookup,
} from "./plan_json_resources.ts";
import { SourceSites, type TfRef } from "./plan_json_sources.ts";
import {
  expressions,
  holdsSecret,
  nodeShape,
  outputsConfig,
  providerConfigs,
  providerKey,
  relevantAttributes,
  variablesOf,
} from "./plan_json_config.ts";
import { moduleCalls } from "./plan_json_modules.ts";
import { moduleTree, terraformOrder } from "./plan_json_tree.ts";
import { outputChanges, plannedOutputs, priorOutputs } from "./plan_json_outputs.ts";

/** The version of Terraform's JSON plan format written. */
export const TF_PLAN_FORMAT_VERSION = "1.2";
/** The Terraform release whose output this one is compared with (tests/show_terraform_test.ts). */
export const TF_VERSION_FOLLOWED = "1.11.4";

/** What the JSON plan is made from. */
export interface TerraformPlanInput {
  plan: Plan;
  /** The state's records as the plan saw them (show checks they did not move since). */
  records: readonly StateRecord[];
  types: TypeLookup;
  provider(source: string): ProviderSchema | undefined;
  /** The version constraints of pravo.jsonc, by full provider address. */
  constraints: Record<string, string>;
  /** pravo's version. */
  version: string;
}

/** `terraform_version`: the release whose format is followed, and pravo's version as build metadata. */
export function terraformVersion(pravo: string): string {
  return `${TF_VERSION_FOLLOWED}+pravo.${pravo.replace(/[^0-9A-Za-z.-]/g, "-")}`;
}

/** Terraform addresses of what each record depends on, closed transitively, as config addresses. */
function dependsOnOf(records: readonly StateRecord[], plan: Plan): Map<string, string[]> {
  const ids = new Map<string, TfIdentity>();
  for (const r of records) ids.set(r.address, tfIdentity(r.address, r.type, r.mode));
  for (const n of plan.nodes) {
    if (!ids.has(n.address)) ids.set(n.address, tfIdentity(n.address, n.type, n.mode));
  }
  const deps = new Map(records.map((r) => [r.address, r.dependencies]));
  const out = new Map<string, string[]>();
  for (const r of records) {
    const seen = new Set<string>();
    const todo = [...r.dependencies];
    while (todo.length) {
      const d = todo.pop()!;
      if (seen.has(d) || d === r.address) continue;
      seen.add(d);
      todo.push(...(deps.get(d) ?? []));
    }
    const tf = [...seen].flatMap((d) => ids.has(d) ? [configAddress(ids.get(d)!)] : []);
    out.set(r.address, [...new Set(tf)].sort());
  }
  return out;
}

/** A node's address without any instance key: `module.vpc.aws_subnet.this`. */
export function configAddress(id: TfIdentity): string {
  return [...id.modules.map((m) => `module.${m.name}`), id.resource].join(".");
}

/** Every node of the plan and every record it skipped, in Terraform's order. */
function instancesOf(input: TerraformPlanInput, secrets: Set<string>): Instance[] {
  const { plan, records, types } = input;
  const ctx = { types, secrets, dependsOn: dependsOnOf(records, plan) };
  const byAddress = new Map(records.map((r) => [r.address, r]));
  const out: Instance[] = [];
  for (const n of plan.nodes) {
    if (n.mode === "managed" || n.mode === "data") {
      out.push(nodeInstance(n, plan, ctx, byAddress.get(n.address)));
    }
  }
  const missing: string[] = [];
  for (const s of plan.skipped) {
    if (s.mode !== "managed" && s.mode !== "data") continue;
    const rec = byAddress.get(s.address);
    if (rec) out.push(skippedInstance(rec, ctx));
    else missing.push(s.address);
  }
  // A record the plan neither ran nor skipped is still in the state.
  const seen = new Set([...plan.nodes, ...plan.skipped].map((n) => n.address));
  for (const r of records) {
    if (!seen.has(r.address) && (r.mode === "managed" || r.mode === "data")) {
      out.push({ ...skippedInstance(r, ctx), actions: undefined });
    }
  }
  if (missing.length) {
    throw new DiagnosticsError([
      error(
        "The state has no record of nodes the plan left alone",
        `The plan skipped ${
          missing.join(", ")
        }, whose values Terraform's format needs, and the state holds no record of them. Make a new plan, and show that.`,
      ),
    ], "stale");
  }
  return out.sort(terraformOrder);
}

/** The references each changing node and output reads, for `relevant_attributes`. */
function changingReferences(
  instances: readonly Instance[],
  sites: SourceSites,
  changedOutputs: readonly string[],
): TfRef[] {
  const refs: TfRef[] = [];
  for (const inst of instances) {
    if (!inst.actions || inst.actions.join() === "no-op") continue;
    const labels = addressLabels(inst.address) ?? [inst.address];
    for (const s of sites.attributes(labels).values()) {
      refs.push(...sites.references(sites.within(s)));
    }
  }
  for (const o of changedOutputs) {
    refs.push(...sites.references(sites.within(sites.at(["outputs", o]))));
  }
  return refs;
}

/** The configuration's resources: one per resource (not per instance), in the root module. */
function resourcesConfig(
  input: TerraformPlanInput,
  instances: readonly Instance[],
  sites: SourceSites | undefined,
  secrets: ReadonlySet<string>,
): Record<string, unknown>[] {
  const nodes = new Map(input.plan.nodes.map((n) => [n.address, n]));
  const recs = new Map(input.records.map((r) => [r.address, r]));
  const seen = new Set<string>();
  const out: Record<string, unknown>[] = [];
  for (const inst of instances) {
    const n = nodes.get(inst.address);
    if (inst.id.modules.length || seen.has(inst.id.resource)) continue;
    if (n?.action === "delete" && n.deleteBecause === "not in the configuration") continue;
    seen.add(inst.id.resource);
    const labels = addressLabels(inst.address) ?? [inst.address];
    const values: Attrs = n ? n.config : recs.get(inst.address)?.attributes ?? {};
    const sensitive = new Set(n?.sensitive ?? []);
    const entry: Record<string, unknown> = {
      address: inst.id.resource,
      mode: inst.id.mode,
      type: inst.id.type,
      name: inst.id.name,
      provider_config_key: providerKey(
        n?.providerInstance ?? sites?.providerOf(labels),
        inst.provider,
      ),
      schema_version: inst.schemaVersion,
    };
    if (sites) {
      const shape = nodeShape(inst, {
        block: (i) => input.types(i.provider, i.id.mode, i.id.type)?.plugin?.block,
        attributes: (i) =>
          Object.keys(input.types(i.provider, i.id.mode, i.id.type)?.attributes ?? {}),
      });
      const exprs = expressions(shape, values, sites.attributes(labels), {
        sites,
        hidden: (k) =>
          sensitive.has(k) || inst.afterSensitive.some((p) => p[0] === k && p.length === 1),
        secret: (v) => holdsSecret(v, secrets),
      });
      if (Object.keys(exprs).length) entry.expressions = exprs;
      Object.assign(entry, repetition(inst, labels, sites, instances));
    }
    out.push(entry);
  }
  return out.sort((a, b) => (a.address as string) < (b.address as string) ? -1 : 1);
}

/** `count_expression` or `for_each_expression`, for a node a comprehension makes. */
export function repetition(
  inst: Instance,
  labels: readonly string[],
  sites: SourceSites,
  instances: readonly Instance[],
): Record<string, unknown> {
  if (inst.id.index === undefined) return {};
  const g = sites.generatorOf(labels);
  const refs = (g?.clauseRefs ?? []).flatMap((r) => {
    const t = sites.reference(r);
    return t && !t.strings[0].startsWith("each.") && t.strings[0] !== "count.index" ? [t] : [];
  });
  const expr: Record<string, unknown> = refs.length
    ? { references: refs.flatMap((r) => r.strings) }
    : typeof inst.id.index === "number"
    ? {
      // The instances the configuration has: not those deleted for leaving it.
      constant_value: instances.filter((i) =>
        i.id.resource === inst.id.resource && i.id.moduleAddress === inst.id.moduleAddress &&
        !i.actionReason?.startsWith("delete_because")
      ).length,
    }
    : {};
  return typeof inst.id.index === "number"
    ? { count_expression: expr }
    : { for_each_expression: expr };
}

/** Undefined for an empty list or object: Terraform leaves such fields out. */
function nonEmpty<T>(v: T): T | undefined {
  if (Array.isArray(v)) return v.length ? v : undefined;
  if (v && typeof v === "object") return Object.keys(v).length ? v : undefined;
  return v;
}

/** Terraform's JSON plan of a pravo plan. */
export function terraformPlan(input: TerraformPlanInput): Record<string, unknown> {
  const { plan } = input;
  const version = terraformVersion(input.version);
  const secrets = collectSecrets(plan, input.records, input.types);
  const instances = instancesOf(input, secrets);
  const ids = new Map(instances.map((i) => [i.address, i.id]));
  const sites = SourceSites.read(plan.sources, ids);
  const outputs = outputChanges(plan);
  const changes = instances.map(resourceChange).filter((c) => c !== undefined);
  const drift = instances.map(resourceDrift).filter((c) => c !== undefined);
  const changedOutputs = Object.entries(outputs).filter(([, c]) => c.actions[0] !== "no-op")
    .map(([k]) => k);
  const prior = moduleTree(instances, priorResource, "terraform");
  const priorOut = priorOutputs(plan);
  const vars = sites ? variablesOf(sites, plan) : undefined;
  const rootConfig: Record<string, unknown> = {
    outputs: nonEmpty(
      sites ? outputsConfig(sites, plan, (o) => outputs[o]?.after_sensitive === true) : {},
    ),
    resources: nonEmpty(resourcesConfig(input, instances, sites, secrets)),
    module_calls: moduleCalls(instances, sites),
    variables: nonEmpty(vars?.config),
  };
  return {
    format_version: TF_PLAN_FORMAT_VERSION,
    terraform_version: version,
    variables: vars && Object.keys(vars.values).length ? vars.values : undefined,
    planned_values: {
      outputs: plannedOutputs(plan),
      root_module: moduleTree(instances, plannedResource),
    },
    resource_drift: drift.length ? drift : undefined,
    resource_changes: changes.length ? changes : undefined,
    output_changes: Object.keys(outputs).length ? outputs : undefined,
    prior_state: Object.keys(prior).length || Object.keys(priorOut).length
      ? {
        format_version: "1.0",
        terraform_version: version,
        values: { outputs: priorOut, root_module: prior },
      }
      : undefined,
    configuration: {
      provider_config: providerConfigs(plan.providers, {
        sites,
        schema: input.provider,
        fullName: providerName,
        constraints: input.constraints,
        secrets,
      }),
      root_module: rootConfig,
    },
    relevant_attributes: nonEmpty(
      sites ? relevantAttributes(changingReferences(instances, sites, changedOutputs)) : [],
    ),
    timestamp: plan.createdAt.replace(/\.\d+Z$/, "Z"),
    applyable: changes.some((c) => (c.change as { actions: string[] }).actions[0] !== "no-op") ||
      changedOutputs.length > 0,
    complete: true,
    errored: false,
  };
}
