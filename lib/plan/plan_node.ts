/**
 * One node's plan: what it starts from (its inputs, the known ones, those
 * known only after apply) and its action, asked of its provider where the
 * node changed: create, replace, update, no-op, read, open. `planManaged`
 * is where a managed node's action is decided.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import type { Diagnostic } from "../diag/diag.ts";
import type { Node, Spec } from "../cue/loader.ts";
import { UNKNOWN, type Value } from "../cue/program.ts";
import type { StateRecord } from "../state/store.ts";
import type {
  PlanResourceRequest,
  ResourceProvider,
  StoredObject,
} from "../providers/resource_provider.ts";
import type { ProviderSession } from "../providers/session.ts";
import { scrubDiagnostics } from "../secrets/paths.ts";
import type { Attrs, PlannedNode } from "./types.ts";
import { digestInputs, nodeDigest } from "./digest.ts";
import { isInput } from "./known.ts";
import {
  changedKeys,
  dataSensitive,
  hasUnknown,
  inputsOf,
  providerConfigOf,
  sensitiveOf,
  withoutUnknown,
} from "./node_values.ts";
import type { PlanOptions } from "./options.ts";

/** What planning one node needs besides the node. */
export interface NodeContext {
  session: ProviderSession;
  /** The node was read from the real world in this plan. */
  refreshed: boolean;
  /** The schema version and private data of its object in the state (as refreshed). */
  stored?: Pick<StoredObject, "schemaVersion" | "private">;
  /** A provider's diagnostic, pointed at the node's declaration (and the attribute it names). */
  located: (d: Diagnostic) => Diagnostic;
  /** The secrets of the nodes a node depends on, as they are now ({@linkcode secretSources}). */
  secretSources: (dependencies: readonly string[]) => unknown[];
}

/**
 * What a node's plan starts from: its inputs (ignored changes kept, secret
 * ones as applied when nothing changed), the known ones, those known only
 * after apply, and the planned node with no action yet.
 */
function baseOf(
  n: Node,
  spec: Spec,
  rec: StateRecord | undefined,
  prior: Attrs | null,
  dataRead: Map<string, Attrs>,
  ctx: NodeContext,
) {
  const type = n.schema;
  // lifecycle.ignore_changes: an object in the state keeps the values it has
  // for those inputs, whatever the configuration says now (as Terraform).
  const inputs = n.mode === "managed" && rec && prior
    ? keepIgnored(inputsOf(n), n.lifecycle.ignore_changes ?? [], prior)
    : inputsOf(n);
  const secretInputs = [...new Set([...sensitiveOf(type), ...n.sensitiveInputs])];
  const configDigest = nodeDigest(
    digestInputs(inputs, n.secretForms, () => ctx.secretSources(n.dependencies)),
    n.lifecycle,
    n.mode === "data" ? [] : secretInputs,
  );
  // Inputs computed from a secret are unknown at plan time. When the node is
  // as it was applied (the same configuration, computed of the same secrets:
  // the digest says it without their values), they are what it was applied
  // with; otherwise they are known after apply, whatever the secret holds.
  if (
    n.mode === "managed" && rec && prior && rec.configDigest === configDigest
  ) {
    for (const k of Object.keys(n.secretForms)) {
      if (k in inputs && prior[k] !== undefined) inputs[k] = prior[k] as Value;
    }
  }
  const config = withoutUnknown(inputs);
  const unknownInputs = Object.keys(inputs).filter((k) => hasUnknown(inputs[k])).sort();
  const base: PlannedNode = {
    address: n.address,
    mode: n.mode,
    type: n.type,
    name: n.name,
    provider: n.provider,
    action: "no-op",
    before: rec ? prior : null,
    after: null,
    afterUnknown: [],
    changed: [],
    replaceBecause: [],
    dependencies: n.dependencies,
    sensitive: n.mode === "data"
      ? dataSensitive(n, dataRead.get(n.address) ?? {})
      : [...new Set([...sensitiveOf(type), ...n.sensitiveInputs])].sort(),
    config,
    templates: Object.fromEntries(
      Object.entries(n.templates).filter(([k]) => unknownInputs.includes(k)),
    ),
    needsEvaluation: n.needsEvaluation.filter((k) => unknownInputs.includes(k)),
    configDigest,
    ...(Object.keys(n.secretForms).length ? { secretForms: n.secretForms } : {}),
    refreshAge: n.lifecycle.refresh_age ?? type.refreshAge ?? null,
    lifecycle: n.lifecycle,
    providerConfig: providerConfigOf(spec, n),
  };
  if (n.providerInstance) base.providerInstance = n.providerInstance;
  if (n.origin) base.origin = n.origin;
  return { base, inputs, config, unknownInputs };
}

/**
 * A managed node, planned by its provider: create (no object yet), replace
 * (an attribute that forces it, or asked for), update, or no-op. This is
 * where the action is decided.
 */
async function planManaged(
  rec: StateRecord | undefined,
  prior: Attrs | null,
  planned: {
    base: PlannedNode;
    inputs: Record<string, Value>;
    config: Attrs;
    request: Omit<PlanResourceRequest, "prior" | "ignoreChanges">;
    provider: ResourceProvider;
  },
  how: { requested: boolean; ignore: Set<string>; diags: Diagnostic[]; ctx: NodeContext },
): Promise<PlannedNode> {
  const { base, inputs, config, request, provider } = planned;
  const { requested, ignore, diags, ctx } = how;
  const plan = async (from: StoredObject | null) => {
    const r = await provider.planResource({ ...request, prior: from, ignoreChanges: [...ignore] });
    diags.push(
      ...scrubDiagnostics(r.diagnostics, base.sensitive.map((k) => config[k])).map(ctx.located),
    );
    return r.value;
  };
  if (!rec || prior === null) {
    const p = await plan(null);
    return {
      ...base,
      action: "create",
      before: null,
      after: p?.after ?? config,
      afterUnknown: p?.afterUnknown ?? [],
      changed: p?.changed ?? Object.keys(inputs).sort(),
      replaceBecause: rec ? ["gone"] : [],
    };
  }
  const storedPrior: StoredObject = { attributes: prior, ...ctx.stored };
  const update = await plan(storedPrior);
  if (!update) return { ...base, action: "no-op", after: prior };
  const before = update.prior?.attributes ?? prior;
  const upgraded = update.prior
    ? { stored: { schemaVersion: update.prior.schemaVersion, private: update.prior.private } }
    : ctx.stored
    ? { stored: ctx.stored }
    : {};
  if (update.requiresReplace.length || requested) {
    // A replacement is planned as a create.
    const create = await plan(null);
    return {
      ...base,
      ...upgraded,
      action: "replace",
      before,
      after: create?.after ?? config,
      afterUnknown: create?.afterUnknown ?? [],
      changed: update.changed,
      replaceBecause: [...update.requiresReplace, ...(requested ? ["requested"] : [])],
    };
  }
  if (
    update.changed.length || update.afterUnknown.length || !isDeepStrictEqual(update.after, before)
  ) {
    return {
      ...base,
      ...upgraded,
      action: "update",
      before,
      after: update.after,
      afterUnknown: update.afterUnknown,
      changed: update.changed,
    };
  }
  return {
    ...base,
    ...upgraded,
    action: "no-op",
    before,
    after: before,
    config: { ...config, ...pick(before, ignore) },
  };
}

export async function planNode(
  n: Node,
  spec: Spec,
  rec: StateRecord | undefined,
  prior: Attrs | null,
  dataRead: Map<string, Attrs>,
  opts: PlanOptions,
  diags: Diagnostic[],
  ctx: NodeContext,
): Promise<PlannedNode> {
  const type = n.schema;
  const { base, inputs, config, unknownInputs } = baseOf(n, spec, rec, prior, dataRead, ctx);
  const ignore = new Set(n.lifecycle.ignore_changes ?? []);
  const requested = (opts.replace ?? []).includes(n.address);
  // Unchanged since it was applied, and not read again: left as it is,
  // without asking its provider (which, for a plugin, need not start).
  if (
    n.mode === "managed" && rec && prior !== null && !opts.full && !opts.destroy && !requested &&
    !ctx.refreshed && rec.configDigest === base.configDigest
  ) {
    return {
      ...base,
      action: "no-op",
      after: prior,
      config: { ...config, ...pick(prior, ignore) },
    };
  }
  // A plan to destroy everything plans nothing else (its nodes become deletes).
  if (opts.destroy) return base;
  const computed = Object.entries(type.attributes).filter(([, a]) => !isInput(a)).map(([k]) => k);
  if (n.mode === "ephemeral") {
    return { ...base, action: "open", before: null, afterUnknown: computed };
  }
  if (n.mode === "call") return { ...base, action: "create", before: null, afterUnknown: computed };

  const provider = await ctx.session.providerFor(n);
  const request = {
    type,
    address: n.address,
    root: opts.root,
    providerConfig: base.providerConfig,
    ranges: n.attributeRanges,
    inputs: inputs as Record<string, unknown>,
    config,
    unknown: unknownInputs,
  };
  if (type.plugin) {
    // A plugin provider's checks (the built-in ones are validateNodes'). Inputs
    // computed from a secret go as unknown, as validateNodes has them: whether
    // a check fails would tell of the secret on every plan.
    const hidden = new Set(n.sensitiveInputs);
    const validated = await provider.validateResource({
      ...request,
      inputs: Object.fromEntries(
        Object.entries(request.inputs).map(([k, v]) => [k, hidden.has(k) ? UNKNOWN : v]),
      ),
      config: Object.fromEntries(Object.entries(config).filter(([k]) => !hidden.has(k))),
      unknown: [...new Set([...unknownInputs, ...hidden])].sort(),
    });
    diags.push(
      ...scrubDiagnostics(validated, base.sensitive.map((k) => config[k])).map(ctx.located),
    );
  }
  if (n.mode === "data") {
    const read = dataRead.get(n.address);
    const after = read ? { ...config, ...read } : config;
    return {
      ...base,
      action: "read",
      after,
      afterUnknown: read ? [] : computed,
      changed: rec && read ? changedKeys(prior ?? {}, after) : [],
    };
  }

  return await planManaged(rec, prior, { base, inputs, config, request, provider }, {
    requested,
    ignore,
    diags,
    ctx,
  });
}

/** The inputs, with those that ignore_changes names as the prior state has them. */
function keepIgnored(
  inputs: Record<string, Value>,
  ignore: readonly string[],
  prior: Attrs,
): Record<string, Value> {
  const out = { ...inputs };
  for (const k of ignore) {
    if (!(k in out)) continue;
    if (prior[k] === undefined || prior[k] === null) delete out[k];
    else out[k] = prior[k] as Value;
  }
  return out;
}

function pick(o: Attrs, keys: Set<string>): Attrs {
  return Object.fromEntries(Object.entries(o).filter(([k]) => keys.has(k)));
}
