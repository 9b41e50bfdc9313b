/**
 * The record pravo writes for an object of a Terraform state that a node of
 * the root takes over: its attributes brought to the type's current schema
 * (by the provider's UpgradeResourceState for a plugin type, as Terraform
 * does with every object it reads; as they are for a built-in type of the
 * same schema version, tfstate_builtin.ts), the provider's private data kept,
 * the node's dependencies as the root gives them, its sensitive attributes
 * (sealed by the store), and a configuration digest that lets the next plan
 * skip the node only when the configuration agrees with the object.
 *
 * The digest, as `pravo import ADDR ID` makes it: empty for a plugin type,
 * so that the next plan asks the provider how the configuration differs
 * from the object; for a built-in type, that of the inputs as the object
 * holds them (the configuration's where the object has no value), equal to
 * the configuration's when the two agree.
 *
 * @module
 */

import { type Diagnostic, error, hasErrors } from "../diag/diag.ts";
import type { Node, Spec } from "../cue/loader.ts";
import type { ProviderSession } from "../providers/session.ts";
import type { StoredObject } from "../providers/resource_provider.ts";
import type { RecordInput } from "../state/store.ts";
import type { AttrPath } from "../secrets/paths.ts";
import { isInput } from "../plan/known.ts";
import { nodeDigest } from "../plan/digest.ts";
import { inputsOf, providerConfigOf, sensitiveOf } from "../plan/node_values.ts";
import { scrubDiagnostics } from "../secrets/paths.ts";
import type { Takeover } from "./tfstate_check.ts";
import { builtinObject } from "./tfstate_builtin.ts";

/** What the record of a takeover needs besides the takeover. */
export interface RecordContext {
  spec: Pick<Spec, "providers">;
  session: ProviderSession;
  root: string;
  /** When Terraform last wrote the state: the records' refresh time. */
  writtenAt?: string;
  signal?: AbortSignal;
}

/** A takeover's record, with the schema version its object was written with. */
export interface TakeoverRecord {
  takeover: Takeover;
  record: RecordInput;
  /** The schema version in Terraform's state. */
  fromVersion: number;
  diagnostics: Diagnostic[];
}

/**
 * The record of a takeover, or the diagnostics that refuse it (the
 * provider cannot upgrade the object, a built-in type cannot read it).
 */
export async function takeoverRecord(
  t: Takeover,
  ctx: RecordContext,
): Promise<TakeoverRecord | { diagnostics: Diagnostic[] }> {
  const { node, instance: inst, address } = t;
  const attrs = inst.attributes ?? {};
  const sensitive = sensitiveNames(node, inst.sensitivePaths, attrs);
  const located = (d: Diagnostic): Diagnostic => ({
    ...d,
    address: d.address ?? address,
    range: d.range ?? inst.at,
  });
  let object: StoredObject;
  const diagnostics: Diagnostic[] = [];
  if (node.schema.plugin) {
    const provider = await ctx.session.providerFor(node);
    if (!provider.upgradeResource) throw new Error(`bug: ${node.provider} cannot upgrade`);
    const r = await provider.upgradeResource({
      type: node.schema,
      address,
      root: ctx.root,
      providerConfig: providerConfigOf(ctx.spec, node),
      signal: ctx.signal,
      ranges: node.attributeRanges,
      rawStateJSON: JSON.stringify(attrs),
      version: inst.schemaVersion,
      ...(inst.private ? { private: inst.private } : {}),
    });
    const secrets = [...sensitive].map((k) => attrs[k]);
    diagnostics.push(...scrubDiagnostics(r.diagnostics, secrets).map(located));
    if (hasErrors(diagnostics)) return { diagnostics: upgradeFailed(t, diagnostics) };
    if (!r.value) {
      return {
        diagnostics: [error(
          `${node.provider} gave nothing for ${inst.address}`,
          `Its UpgradeResourceState answered no object for this ${node.type} of schema ` +
            `version ${inst.schemaVersion}. Let Terraform refresh it with the provider release ` +
            "the root pins (`terraform apply -refresh-only`), then import again.",
          { address, range: inst.at },
        )],
      };
    }
    object = r.value;
  } else {
    const b = builtinObject(node.schema, { attributes: attrs, schemaVersion: inst.schemaVersion }, {
      address,
      terraformAddress: inst.address,
      provider: node.provider,
    });
    if ("diagnostic" in b) return { diagnostics: [located(b.diagnostic)] };
    object = { attributes: b.attributes };
  }
  const sealed = sensitiveNames(node, inst.sensitivePaths, object.attributes);
  const record: RecordInput = {
    address,
    mode: "managed",
    type: node.type,
    provider: node.provider,
    attributes: object.attributes,
    sensitivePaths: [...new Set([...sensitive, ...sealed])].sort().map((k) => [k]),
    dependencies: node.dependencies,
    configDigest: node.schema.plugin ? "" : builtinDigest(node, object.attributes),
    refreshAge: node.lifecycle.refresh_age ?? node.schema.refreshAge ?? null,
    ...(ctx.writtenAt ? { refreshedAt: ctx.writtenAt } : {}),
    ...(object.schemaVersion !== undefined ? { schemaVersion: object.schemaVersion } : {}),
    ...(object.private ? { private: object.private } : {}),
    ...(node.schema.plugin && node.providerInstance
      ? { providerInstance: node.providerInstance }
      : {}),
  };
  return { takeover: t, record, fromVersion: inst.schemaVersion, diagnostics };
}

/** The provider's refusal, said as a refusal of the takeover. */
function upgradeFailed(t: Takeover, diags: Diagnostic[]): Diagnostic[] {
  const { node, instance: inst } = t;
  return [
    ...diags,
    error(
      `${node.provider} cannot upgrade ${inst.address}`,
      `Its UpgradeResourceState refused this ${node.type} of schema version ` +
        `${inst.schemaVersion} (the errors above). Pin in pravo.jsonc the release Terraform ` +
        "used (.terraform.lock.hcl), or let Terraform refresh the object with the release the " +
        "root pins (`terraform apply -refresh-only`), then import again.",
      { address: t.address, range: inst.at },
    ),
  ];
}

/**
 * The top-level attributes whose values are secret (those set: a null
 * reveals nothing): those the type's schema marks, those the root computes
 * from a secret, those Terraform's state marks (a path inside an attribute
 * marks the whole attribute, as pravo marks values), and any other that
 * holds a copy of one of their strings (an AWS `tags_all` repeating a
 * sensitive tag), so that no copy of a secret is stored in the clear.
 */
export function sensitiveNames(
  node: Pick<Node, "schema" | "sensitiveInputs">,
  paths: readonly AttrPath[],
  attrs: Record<string, unknown>,
): Set<string> {
  const names = new Set([
    ...sensitiveOf(node.schema),
    ...node.sensitiveInputs,
    ...paths.filter((p) => p.length > 0).map((p) => String(p[0])),
  ]);
  const secrets = new Set<string>();
  const strings = (v: unknown, f: (s: string) => void): void => {
    if (typeof v === "string") f(v);
    else if (Array.isArray(v)) v.forEach((x) => strings(x, f));
    else if (v !== null && typeof v === "object") Object.values(v).forEach((x) => strings(x, f));
  };
  for (const k of names) strings(attrs[k], (s) => s !== "" && secrets.add(s));
  for (const [k, v] of Object.entries(attrs)) {
    let copy = false;
    strings(v, (s) => copy ||= secrets.has(s));
    if (copy) names.add(k);
  }
  for (const k of [...names]) if (attrs[k] === undefined || attrs[k] === null) names.delete(k);
  return names;
}

/**
 * The digest of a built-in node's inputs as the object holds them: each
 * input the configuration sets, with the object's value where it has one,
 * and each input the object sets and the configuration does not. Empty
 * (the next plan asks the provider) for a node whose inputs are computed
 * from secrets, whose digest the planner makes otherwise.
 */
export function builtinDigest(node: Node, attrs: Record<string, unknown>): string {
  if (Object.keys(node.secretForms).length) return "";
  const config = inputsOf(node);
  const inputs: Record<string, unknown> = {};
  for (const [k, a] of Object.entries(node.schema.attributes)) {
    if (!isInput(a)) continue;
    const held = attrs[k];
    if (config[k] !== undefined) inputs[k] = held === undefined ? config[k] : held;
    else if (held !== undefined && held !== null) inputs[k] = held;
  }
  return nodeDigest(inputs, node.lifecycle, [...sensitiveOf(node.schema), ...node.sensitiveInputs]);
}
