/**
 * One representation of what a node will become: before a saved plan is
 * applied, what the plan document shows (the action, `after`,
 * `after_unknown`, `changed`, `replace_because`) is recomputed from what
 * apply will use (`config`, `templates`, `needsEvaluation`, the prior state
 * in `before`), and a plan whose parts disagree is refused (exit 7).
 *
 * What apply uses and the document does not show is bound too: the sources
 * apply evaluates again must be those whose digest the plan records
 * (`config_digest`); a node's provider configuration must be that of the
 * provider instance the sources declare (and the document shows it); a
 * node's refresh age must follow from its lifecycle and type (the document
 * shows the lifecycle); the values a template waits for must come from the
 * node's dependencies.
 *
 * A plan file is sealed (planfile.ts), so an edited file never gets here;
 * this check keeps the guarantee when a plan is made some other way, or by
 * a pravo with a bug.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import { type Diagnostic, error } from "../diag/diag.ts";
import { sourcesDigest, specDigest } from "../cue/loader.ts";
import { sentinelRefs } from "../cue/unknowns.ts";
import type { Registry } from "../providers/registry.ts";
import type { TypeSchema } from "../providers/schema.ts";
import { withoutUnknown } from "./node_values.ts";
import type { Plan, PlannedNode } from "./types.ts";

/** The actions each mode can have. */
const ACTIONS: Record<string, readonly string[]> = {
  managed: ["create", "update", "replace", "delete", "no-op"],
  data: ["read", "delete"],
  ephemeral: ["open"],
  call: ["create"],
};

const same = (a: unknown, b: unknown) => isDeepStrictEqual(a ?? null, b ?? null);
const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort();
const sameSet = (a: Iterable<string>, b: Iterable<string>) =>
  isDeepStrictEqual(sorted(a), sorted(b));

/**
 * The disagreements between a plan's parts, one diagnostic each; none for a
 * plan that pravo made. The caller refuses the plan when there is any.
 */
export function checkPlanConsistency(
  plan: Plan,
  registry: Pick<Registry, "findType">,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const bad = (what: string, address?: string) =>
    out.push(
      error(
        address ? `${address}: the plan's parts disagree` : "The plan's parts disagree",
        `${what}. What the plan shows is not what apply would do, so nothing was applied. Make a new plan with \`pravo plan --out FILE\`, review it, and apply that.`,
        address ? { address } : {},
      ),
    );
  const files = Array.isArray(plan.sources) ? plan.sources : [];
  if (specDigest(sourcesDigest(files), plan.tags ?? {}) !== plan.configDigest) {
    bad(
      "The sources that apply would evaluate again are not those whose digest the plan records (config_digest)",
    );
  }
  const seen = new Set<string>();
  for (const n of plan.nodes) {
    if (seen.has(n.address)) bad("The node is in the plan twice", n.address);
    seen.add(n.address);
    checkNode(plan, n, { registry, bad: (what) => bad(what, n.address) });
  }
  for (const s of plan.skipped ?? []) {
    if (seen.has(s.address)) bad("The node is both in the plan and skipped", s.address);
  }
  return out;
}

function checkNode(
  plan: Plan,
  n: PlannedNode,
  { registry, bad }: { registry: Pick<Registry, "findType">; bad: (what: string) => void },
): void {
  const type: TypeSchema | undefined = registry.findType(n.provider, n.mode, n.type);
  if (!type) {
    bad(`${n.provider} has no ${n.mode} type ${n.type}`);
    return;
  }
  if (!(ACTIONS[n.mode] ?? []).includes(n.action)) {
    bad(`A ${n.mode} node cannot have the action "${n.action}"`);
    return;
  }
  if (n.movedFrom !== undefined) {
    // A move keeps an object: a managed node that has one, at another address.
    if (n.mode !== "managed" || n.before === null || n.action === "create") {
      bad("It moves from another address, yet it has no object in the state to move");
    }
    if (n.movedFrom === n.address || plan.nodes.some((o) => o.address === n.movedFrom)) {
      bad(`It moves from ${n.movedFrom}, which the plan holds as a node of its own`);
    }
  }
  const config = n.config ?? {};
  const templates = n.templates ?? {};
  const needs = n.needsEvaluation ?? [];
  const unknownIn = new Set([...Object.keys(templates), ...needs]);
  const isInput = (k: string) =>
    Boolean(type.attributes[k]?.required || type.attributes[k]?.optional);
  const ignore = new Set(n.lifecycle?.ignore_changes ?? []);

  if (n.action === "delete") {
    if (n.after !== null) bad("It is deleted, yet the plan shows values after apply");
    if (n.before === null) bad("It is deleted, yet the plan shows no values before");
    if (Object.keys(config).length || unknownIn.size) {
      bad("It is deleted, yet the plan carries inputs for it");
    }
    if (Object.keys(n.providerConfig ?? {}).length) {
      bad("It is deleted, yet the plan carries a provider configuration for it");
    }
    return;
  }

  // Inputs: declared ones only, each either known now or known at apply.
  for (const k of Object.keys(config)) {
    if (!isInput(k) && !(n.action === "no-op" && ignore.has(k))) {
      bad(`Apply would set "${k}", which is not an input of ${n.type}`);
    }
    if (unknownIn.has(k)) bad(`"${k}" is both known now and known only after apply`);
  }
  for (const k of unknownIn) {
    if (!isInput(k)) bad(`Apply would compute "${k}", which is not an input of ${n.type}`);
  }
  const deps = new Set(n.dependencies ?? []);
  for (const [k, t] of Object.entries(templates)) {
    for (const ref of sentinelRefs(t, plan.sentinels ?? [])) {
      if (!deps.has(ref.address)) {
        bad(`"${k}" waits for ${ref.address}.${ref.attr}, which is not among its dependencies`);
      }
    }
  }

  // Settings that apply uses and the document shows.
  const expectedAge = n.lifecycle?.refresh_age ?? type.refreshAge ?? null;
  if ((n.refreshAge ?? null) !== expectedAge) {
    bad(`Its refresh age "${n.refreshAge}" is not the one its lifecycle and type give`);
  }
  const instance = (plan.providers ?? []).find((p) => p.source === n.provider);
  const expectedProvider = instance ? withoutUnknown(instance.config) : {};
  if (!same(n.providerConfig ?? {}, expectedProvider)) {
    bad(`Its provider configuration is not that of the ${n.provider} instance of the sources`);
  }
  const typeSensitive = Object.entries(type.attributes).filter(([, a]) => a.sensitive).map(([k]) =>
    k
  );
  for (const k of typeSensitive) {
    if (!(n.sensitive ?? []).includes(k)) bad(`"${k}" is sensitive, yet not marked so`);
  }

  if (n.mode !== "managed") {
    if (n.mode !== "data" && n.after !== null) bad("The plan shows values after apply for it");
    return;
  }
  if (type.plugin) {
    checkPluginPlanned(n, unknownIn, bad);
    return;
  }

  // What the node becomes: every input known now is what `after` shows, and
  // every input known only at apply is shown as unknown.
  if (n.after === null) {
    bad("It is kept or created, yet the plan shows no values after apply");
    return;
  }
  for (const [k, v] of Object.entries(config)) {
    if (!same(n.after[k], v)) {
      bad(
        `The plan shows ${k} = ${show(n, k, n.after[k])} after apply, and apply would use ${
          show(n, k, v)
        }`,
      );
    }
  }
  for (const k of unknownIn) {
    if (!n.afterUnknown.includes(k) || k in n.after) {
      bad(`"${k}" is known only at apply, yet the plan does not show it as unknown`);
    }
  }

  checkAction(n, type, config, unknownIn, ignore, bad);
}

/**
 * A node a plugin provider planned: what it planned cannot be recomputed
 * without it, and apply asks it again. The parts must still agree.
 */
function checkPluginPlanned(
  n: PlannedNode,
  unknownIn: ReadonlySet<string>,
  bad: (what: string) => void,
): void {
  if (n.after === null) bad("It is kept or created, yet the plan shows no values after apply");
  if (n.action === "create" && n.before !== null) {
    bad("It is created, yet the plan shows values before");
  }
  if (n.action !== "create" && n.before === null) {
    bad(`Its action is ${n.action}, yet the plan shows no values before`);
  }
  if (n.action === "replace" && n.replaceBecause.length === 0) {
    bad("It is replaced, yet the plan gives no reason to replace it");
  }
  if (n.action !== "replace" && n.replaceBecause.some((r) => r !== "gone")) {
    bad(`The plan gives reasons to replace it, and its action is ${n.action}`);
  }
  if (n.action === "no-op" && !same(n.after, n.before)) {
    bad("It is left as it is, yet the plan shows other values after apply");
  }
  for (const k of unknownIn) {
    if (!n.afterUnknown.some((u) => u === k || u.startsWith(`${k}.`) || u.startsWith(`${k}[`))) {
      bad(`"${k}" is known only at apply, yet the plan does not show it as unknown`);
    }
  }
}

/** A node of a built-in provider: its action, recomputed from its inputs and its prior state. */
function checkAction(
  n: PlannedNode,
  type: TypeSchema,
  config: Record<string, unknown>,
  unknownIn: ReadonlySet<string>,
  ignore: ReadonlySet<string>,
  bad: (what: string) => void,
): void {
  if (n.action === "create") {
    if (n.before !== null) bad("It is created, yet the plan shows values before");
    const want = sorted([...Object.keys(config), ...unknownIn]);
    if (!isDeepStrictEqual(sorted(n.changed), want)) {
      bad(
        `It is created, and the plan lists as changed ${list(n.changed)} instead of ${list(want)}`,
      );
    }
    return;
  }
  if (n.before === null) {
    bad(`Its action is ${n.action}, yet the plan shows no values before`);
    return;
  }
  const changed: string[] = [];
  const forces: string[] = [];
  for (const [k, a] of Object.entries(type.attributes)) {
    if (!(a.required || a.optional) || ignore.has(k)) continue;
    const unknown = unknownIn.has(k);
    const cv = config[k];
    const pv = n.before[k];
    if (!unknown && cv === undefined && (a.computed || pv === undefined || pv === null)) continue;
    if (!unknown && same(cv, pv)) continue;
    changed.push(k);
    if (a.forceNew) forces.push(k);
  }
  if (n.replaceBecause.includes("requested")) forces.push("requested");
  const action = forces.length ? "replace" : changed.length ? "update" : "no-op";
  if (action !== n.action) {
    bad(
      `Its inputs and its values before make it ${action}, and the plan says ${n.action}`,
    );
  }
  if (!sameSet(changed, n.changed)) {
    bad(`The plan lists as changed ${list(n.changed)}, and the inputs change ${list(changed)}`);
  }
  if (!sameSet(forces, n.replaceBecause)) {
    bad(
      `The plan gives as reasons to replace ${list(n.replaceBecause)}, and the inputs give ${
        list(forces)
      }`,
    );
  }
  if (n.action === "no-op" && !same(n.after, n.before)) {
    bad("It is left as it is, yet the plan shows other values after apply");
  }
}

function show(n: PlannedNode, k: string, v: unknown): string {
  return (n.sensitive ?? []).includes(k) ? "(sensitive value)" : JSON.stringify(v ?? null);
}

function list(xs: readonly string[]): string {
  return xs.length ? xs.join(", ") : "nothing";
}
