/**
 * The planner: loads the root, refreshes what is due, diffs the
 * configuration against the state and decides an action for every node.
 *
 * Values known from the state are unified back into the configuration so
 * that references to them are concrete. A node that will be replaced loses
 * its known values, which may make its dependents change too; the planner
 * evaluates again until nothing more changes.
 *
 * @module
 */

import { createHash, createHmac, randomUUID } from "node:crypto";
import { loadKey } from "../keys/key.ts";
import { isDeepStrictEqual } from "node:util";
import { type Diagnostic, DiagnosticsError, didYouMean, error } from "../diag/diag.ts";
import { evaluateRoot, type Node, readRoot, type Sources, type Spec } from "../cue/loader.ts";
import { addressPath } from "../addr/address.ts";
import { UNKNOWN, type Value } from "../cue/program.ts";
import type { StateRecord, StateStore } from "../state/store.ts";
import { reservationError } from "../state/reservation.ts";
import { plannedMoves, withMoves } from "./moved.ts";
import { validateNodes } from "./validate_nodes.ts";
import { knownValuesOf } from "./known.ts";

export { reservationError };
import { findType } from "../providers/registry.ts";
import type { Mode, TypeSchema } from "../providers/schema.ts";
import { type InstanceConfig, ProviderSession } from "../providers/session.ts";
import type { StoredObject } from "../providers/resource_provider.ts";
import { providerDiagnostics } from "../cue/errors.ts";
import {
  type Attrs,
  type Plan,
  PLAN_FORMAT_VERSION,
  type PlannedNode,
  type Reason,
  type SkippedNode,
} from "./types.ts";
import { parseDuration } from "./duration.ts";
import { sortKeys } from "../json.ts";
import { REDACTED, redactOutputs, scrubDiagnostics, sensitiveValues } from "./document.ts";
import { type SentinelRef, sentinelRefs } from "../cue/unknowns.ts";
import type { AttrPath } from "../cue/secrets.ts";
import { sensitivePathsOf } from "../secrets/paths.ts";
import { pluginInputs } from "../workspace/lock.ts";
import { bounded } from "../graph/walk.ts";
import { planNode } from "./plan_node.ts";

export type RefreshMode = "age" | "expired" | "false" | "all";

export interface PlanOptions {
  root: string;
  tags: Record<string, string>;
  actor: string;
  reason: string;
  destroy?: boolean;
  /** Addresses to replace even though nothing changed. */
  replace?: string[];
  refresh?: RefreshMode;
  /** Run every node, also those whose configuration and inputs did not change. */
  full?: boolean;
  /** Report reservations of others as reasons instead of refusing (`pravo why`). */
  explainReservations?: boolean;
  now?: () => Date;
  /** The providers of the run; by default a session of its own. */
  session?: ProviderSession;
}

export function isInput(a: TypeSchema["attributes"][string]): boolean {
  return Boolean(a.required || a.optional);
}

export function hasUnknown(v: Value | undefined): boolean {
  if (v === UNKNOWN) return true;
  if (Array.isArray(v)) return v.some(hasUnknown);
  if (v && typeof v === "object") return Object.values(v).some(hasUnknown);
  return false;
}

/** The values of a record to unify into the configuration (lib/plan/known.ts). */
export const computedOf = knownValuesOf;

/**
 * The digest of a node's configuration: its inputs (keys sorted; unknowns
 * marked) and its lifecycle settings. Apply records it with the inputs as
 * resolved, so that a later plan whose inputs are the same can skip the node.
 *
 * `sensitive` names the node's sensitive attributes. They are part of the
 * digest, so that an input that becomes computed from a secret is not
 * skipped as unchanged; and the value of a sensitive input enters it only as
 * an HMAC under pravo's key: the digest is shown (`pravo state show`), and a
 * plain hash of a value computed from a secret could be guessed offline
 * (`seed: strings.HasPrefix(pw.result, "a")` has two possible digests).
 */
export function nodeDigest(
  inputs: Record<string, unknown>,
  lifecycle: unknown,
  sensitive: readonly string[] = [],
): string {
  const marked = (_k: string, x: unknown) => (x === UNKNOWN ? { $unknown: true } : x);
  let values = inputs;
  const secret = sensitive.filter((k) => inputs[k] !== undefined && inputs[k] !== null);
  if (secret.length) {
    const key = digestKey();
    values = { ...inputs };
    for (const k of secret) {
      values[k] = {
        $hmac: createHmac("sha256", key).update(JSON.stringify(inputs[k], marked)).digest("hex"),
      };
    }
  }
  return createHash("sha256").update(
    JSON.stringify(
      sortKeys(
        sensitive.length
          ? { inputs: values, lifecycle, sensitive: [...new Set(sensitive)].sort() }
          : { inputs: values, lifecycle },
      ),
      marked,
    ),
  ).digest("hex");
}

/**
 * The secrets a node's inputs may be computed from, as they are now: for
 * each node it depends on (sorted), the values of its sensitive attributes
 * (by top-level name). Part of the node's digest, under pravo's key, where
 * an input is computed from a secret: the digest changes when a secret it
 * reads does (a data source that now reads another password), and not with
 * anything the configuration computes from the secret.
 */
export function secretSources(
  dependencies: readonly string[],
  of: (address: string) => { attributes: Attrs; sensitive: readonly string[] } | undefined,
): unknown[] {
  const out: unknown[] = [];
  for (const d of [...new Set(dependencies)].sort()) {
    const s = of(d);
    if (!s) continue;
    const names = [...new Set(s.sensitive)].sort().filter((k) =>
      s.attributes[k] !== undefined && s.attributes[k] !== null
    );
    if (names.length) out.push([d, names.map((k) => [k, s.attributes[k]])]);
  }
  return out;
}

/**
 * The inputs a node's digest is made of: those computed from a secret (at
 * plan time unknown) stand as what they are computed of (the configuration's
 * value with each of pravo's two stand-ins: lib/cue/loader.ts `secretForms`)
 * and the secrets they may read ({@linkcode secretSources}), never as their
 * value; the same at plan and at apply, so that a node applied with a value
 * computed from a secret is unchanged at the next plan while neither its
 * configuration nor the secret changed, and the plan never compares the value.
 */
export function digestInputs(
  inputs: Record<string, unknown>,
  forms: Readonly<Record<string, unknown>> | undefined,
  sources: () => unknown[],
): Record<string, unknown> {
  const names = Object.keys(forms ?? {}).filter((k) => k in inputs);
  if (names.length === 0) return inputs;
  const out = { ...inputs };
  const from = sources();
  for (const k of names) out[k] = { form: forms![k], secrets: from };
  return out;
}

/** The key of the digests' HMAC: derived from pravo's key, outside the root. */
function digestKey(): Uint8Array {
  try {
    const key = loadKey({ create: false });
    if (digestKeyFor?.fingerprint !== key.fingerprint) {
      digestKeyFor = {
        fingerprint: key.fingerprint,
        bytes: createHash("sha256").update("pravo node digest v1\u0000").update(
          key.derive("state"),
        ).digest(),
      };
    }
    return digestKeyFor.bytes;
  } catch {
    // No key anywhere yet: nothing is sealed either, and the first apply makes one.
    return new Uint8Array(32);
  }
}

let digestKeyFor: { fingerprint: string; bytes: Uint8Array } | undefined;

export function sensitiveOf(type: TypeSchema): string[] {
  return Object.entries(type.attributes).filter(([, a]) => a.sensitive).map(([k]) => k).sort();
}

/**
 * The sensitive attributes of a data source: those its schema marks and
 * those whose inputs are computed from a secret; when an input is, every
 * attribute is (what is read depends on the secret).
 */
export function dataSensitive(n: Node, read: Attrs): string[] {
  const out = new Set([...sensitiveOf(n.schema), ...n.sensitiveInputs]);
  if (n.sensitiveInputs.length) {
    for (const k of [...Object.keys(n.schema.attributes), ...Object.keys(read)]) out.add(k);
  }
  return [...out].sort();
}

/** Makes a plan. Throws DiagnosticsError for an invalid spec (exit 3) or other errors. */
export async function makePlan(
  sources: Sources,
  store: StateStore,
  opts: PlanOptions,
): Promise<{ plan: Plan; diagnostics: Diagnostic[] }> {
  const now = opts.now ?? (() => new Date());
  const diags: Diagnostic[] = [];
  const identity = await store.identity();
  const records = new Map((await store.listRecords()).map((r) => [r.address, r]));
  // Renamed nodes (`moved`): their records are planned at the new address.
  const moves = opts.destroy
    ? new Map<string, string>()
    : await plannedMoves(sources, records, opts.tags);
  withMoves(records, moves);
  const refresh = opts.refresh ?? "age";
  const knownKinds = new Map<string, { provider: string; mode: Mode; type: string }>(
    [...records.values()].map((r) => [r.address, r]),
  );
  let spec: Spec | undefined;
  // The provider configurations come from an evaluation: the plan's own,
  // or, when a plugin provider is needed before it (a refresh), one with
  // the state's values.
  const session = opts.session ?? new ProviderSession(opts.root, async () => {
    if (spec) return instancesOf(spec);
    const known = new Map(
      [...records.values()].filter((r) => r.mode === "managed").map((
        r,
      ) => [r.address, computedOf(r)]),
    );
    const res = await evaluateRoot(sources, { tags: opts.tags, known, knownKinds, trace: false });
    if (!res.ok) throw new DiagnosticsError(res.diagnostics, "invalid");
    return instancesOf(res.value);
  }, pluginInputs(opts.root));
  const located =
    (n: { address: string; path?: string[]; range?: Diagnostic["range"] }) =>
    (d: Diagnostic): Diagnostic =>
      providerDiagnostics(sources.index, n.path ?? addressPath(n.address), d, n.address, n.range);

  // Refresh: read the real world for the records that are due.
  const prior = new Map<string, Attrs | null>();
  const stored = new Map<string, Pick<StoredObject, "schemaVersion" | "private">>();
  const refreshed = new Map<string, string>();
  const reads: (() => Promise<void>)[] = [];
  for (const rec of records.values()) {
    prior.set(rec.address, rec.attributes);
    stored.set(rec.address, { schemaVersion: rec.schemaVersion, private: rec.private });
    if (rec.mode !== "managed" || refresh === "false") continue;
    const type = findType(rec.provider, rec.mode, rec.type);
    if (!type) continue;
    const provider = await session.providerFor(rec);
    if (!provider.canRead(type)) continue;
    let due = refresh === "all" ? "--refresh all reads every node" : undefined;
    if (refresh === "age" && rec.refreshAge !== null) {
      const age = parseDuration(rec.refreshAge);
      if (age === 0) {
        due = "its refresh age is 0s: every plan reads it";
      } else if (age !== undefined && now().getTime() - Date.parse(rec.refreshedAt) >= age) {
        due =
          `its refresh age ${rec.refreshAge} has passed since it was last read at ${rec.refreshedAt}`;
      }
    }
    if (refresh === "expired" || refresh === "age") {
      const exp = provider.expiresAt(type, rec.attributes);
      if (exp !== undefined && Date.parse(exp) <= now().getTime()) {
        due = `its value expired at ${exp}`;
      }
    }
    if (!due) continue;
    refreshed.set(rec.address, due);
    reads.push(async () => {
      const res = await provider.readResource({
        type,
        address: rec.address,
        root: opts.root,
        providerConfig: {},
        prior: {
          attributes: rec.attributes,
          schemaVersion: rec.schemaVersion,
          private: rec.private,
        },
      });
      diags.push(...res.diagnostics.map(located(rec)));
      if (res.value !== undefined) {
        prior.set(rec.address, res.value === null ? null : res.value.attributes);
        if (res.value) {
          stored.set(rec.address, {
            schemaVersion: res.value.schemaVersion,
            private: res.value.private,
          });
        }
      }
    });
  }
  await bounded(reads, 8);

  const known = new Map<string, Attrs>();
  // The secrets among the values unified in: the sensitive paths of each
  // record, and what data sources read that is sensitive. Whatever the
  // evaluation computes from them is marked sensitive (lib/cue/secrets.ts).
  const secrets = new Map<string, AttrPath[]>();
  for (const rec of records.values()) {
    const p = prior.get(rec.address);
    if (rec.mode === "managed" && p) {
      const computed = computedOf({ ...rec, attributes: p });
      known.set(rec.address, computed);
      secrets.set(rec.address, sensitivePathsOf(rec).filter((x) => String(x[0]) in computed));
    }
  }

  const dataRead = new Map<string, Attrs>();
  const dataSecrets = new Map<string, AttrPath[]>();
  // Per node, the attributes (top-level names) whose values its plan makes
  // unknown: its dependents see those as unknown, and the others as they
  // are, as in Terraform (a table updated in place keeps its arn).
  const lostKnown = new Map<string, Set<string>>();
  // Per node, the computed values its plan gives that differ from the
  // state's and are known (a built-in file's id, computed from the content
  // it will hold): its dependents read those, as Terraform's read the
  // planned state, not what a refresh found.
  const plannedKnown = new Map<string, Attrs>();
  let planned: PlannedNode[] = [];
  for (let round = 0; round < 50; round++) {
    const k = new Map<string, Attrs>();
    for (const [a, v] of known) {
      const lost = lostKnown.get(a);
      const kept = lost ? Object.fromEntries(Object.entries(v).filter(([n]) => !lost.has(n))) : v;
      const given = plannedKnown.get(a);
      k.set(a, given ? { ...kept, ...given } : kept);
    }
    for (const [a, v] of dataRead) k.set(a, v);
    const sec = new Map([...secrets, ...dataSecrets]);
    let res = await evaluateRoot(sources, { tags: opts.tags, known: k, secrets: sec, knownKinds });
    if (!res.ok && k.size) {
      // Values of nodes no longer in the configuration may clash with it:
      // unify only those of nodes that are still declared.
      const bare = await evaluateRoot(sources, { tags: opts.tags });
      if (!bare.ok) throw new DiagnosticsError(bare.diagnostics, "invalid");
      const declared = new Set(bare.value.nodes.map((n) => n.address));
      for (const a of [...known.keys()]) if (!declared.has(a)) known.delete(a);
      res = await evaluateRoot(sources, {
        tags: opts.tags,
        known: new Map([...k].filter(([a]) => declared.has(a))),
        secrets: sec,
        knownKinds,
      });
    }
    if (!res.ok) throw new DiagnosticsError(res.diagnostics, "invalid");
    spec = res.value;
    session.bind(spec.nodes);

    // Data sources whose configuration is known are read now.
    let readMore = false;
    const managed = new Set(spec.nodes.filter((m) => m.mode === "managed").map((m) => m.address));
    for (const n of spec.nodes) {
      if (n.mode !== "data" || dataRead.has(n.address) || opts.destroy) continue;
      const inputs = inputsOf(n);
      if (hasUnknown(inputs as Value)) continue;
      // Inputs computed from a secret: read at apply, not now. Whether the
      // read succeeds (a file named after part of a password exists or not)
      // would tell of the secret on every plan.
      if (n.sensitiveInputs.length) continue;
      // A data source that depends on a managed node this plan creates or
      // replaces (a reference, or depends_on) reads what that node makes:
      // read at apply, after it, as Terraform does.
      if (
        n.dependencies.some((d) =>
          managed.has(d) && (!records.has(d) || (opts.replace ?? []).includes(d))
        )
      ) continue;
      const provider = await session.providerFor(n);
      const r = await provider.readData({
        type: n.schema,
        address: n.address,
        root: opts.root,
        providerConfig: providerConfigOf(spec, n),
        config: withoutUnknown(inputs),
        ranges: n.attributeRanges,
      });
      r.diagnostics = r.diagnostics.map(located(n));
      r.diagnostics = scrubDiagnostics(r.diagnostics, n.sensitiveInputs.map((k) => inputs[k]));
      if (r.diagnostics.some((d) => d.severity === "error")) {
        throw new DiagnosticsError(
          r.diagnostics.map((d) => ({
            ...d,
            address: d.address ?? n.address,
            range: d.range ?? n.range,
          })),
          "error",
        );
      }
      diags.push(...r.diagnostics);
      dataRead.set(n.address, r.value ?? {});
      // What was read is given to the next evaluation as known values of that type.
      knownKinds.set(n.address, { provider: n.provider, mode: n.mode, type: n.type });
      dataSecrets.set(n.address, dataSensitive(n, r.value ?? {}).map((a) => [a]));
      readMore = true;
    }
    if (readMore) continue;

    const current = spec;
    planned = await Promise.all(current.nodes.map((n) =>
      planNode(
        n,
        current,
        records.get(n.address),
        prior.get(n.address) ?? null,
        dataRead,
        opts,
        diags,
        {
          session,
          refreshed: refreshed.has(n.address),
          stored: stored.get(n.address),
          located: located(n),
          secretSources: (deps) =>
            secretSources(deps, (a) => {
              const read = dataRead.get(a);
              if (read) {
                return {
                  attributes: read,
                  sensitive: (dataSecrets.get(a) ?? []).map((x) => String(x[0])),
                };
              }
              const r = records.get(a);
              const attrs = prior.get(a) ?? r?.attributes;
              if (!r || !attrs) return undefined;
              return { attributes: attrs, sensitive: sensitivePathsOf(r).map((x) => String(x[0])) };
            }),
        },
      )
    ));
    // Nodes whose computed values become unknown: their dependents may change.
    let newlyLost = false;
    for (const p of planned) {
      if (p.mode !== "managed" || !known.has(p.address)) continue;
      if (p.action !== "replace" && p.afterUnknown.length === 0) continue;
      const names = p.after === null
        ? new Set(Object.keys(known.get(p.address)!))
        : new Set(p.afterUnknown.map((x) => x.split(/[.[]/)[0]));
      const had = lostKnown.get(p.address);
      if (had && [...names].every((n) => had.has(n))) continue;
      lostKnown.set(p.address, new Set([...(had ?? []), ...names]));
      newlyLost = true;
    }
    for (const p of planned) {
      if (p.mode !== "managed" || !known.has(p.address) || p.after === null) continue;
      if (p.action !== "update" && p.action !== "replace") continue;
      const lost = lostKnown.get(p.address);
      const after = p.after as Attrs;
      const given = { ...plannedKnown.get(p.address) };
      let more = false;
      for (const [name, v] of Object.entries(known.get(p.address)!)) {
        if (lost?.has(name) || !(name in after) || after[name] === undefined) continue;
        if (hasUnknown(after[name] as Value)) continue;
        const now = name in given ? given[name] : v;
        if (JSON.stringify(now) === JSON.stringify(after[name])) continue;
        given[name] = after[name];
        more = true;
      }
      if (more) {
        plannedKnown.set(p.address, given);
        newlyLost = true;
      }
    }
    if (!newlyLost) break;
  }
  if (!spec) throw new Error("bug: no evaluation");
  // The providers' checks of the values, once, as validate makes them (exit 3).
  const checked = validateNodes(spec, opts.root);
  if (checked.some((d) => d.severity === "error")) {
    throw new DiagnosticsError(checked, "invalid");
  }
  diags.push(...checked);
  for (const p of planned) if (moves.has(p.address)) p.movedFrom = moves.get(p.address);

  // Records with no node in the configuration are deleted.
  const declared = new Set(spec.nodes.map((n) => n.address));
  for (const rec of records.values()) {
    if (declared.has(rec.address) && !opts.destroy) continue;
    if (declared.has(rec.address)) continue;
    planned.push({
      ...deleteNode(rec, prior.get(rec.address) ?? rec.attributes, "not in the configuration"),
      ...(stored.get(rec.address) ? { stored: stored.get(rec.address) } : {}),
    });
  }
  if (opts.destroy) {
    // A node still in the configuration keeps its lifecycle: prevent_destroy
    // refuses --destroy, as Terraform's does. A record whose node was removed
    // from the configuration has no lifecycle left (Terraform destroys it).
    const declaredNodes = new Map(spec.nodes.map((n) => [n.address, n]));
    planned = [...records.values()].map((rec) => {
      const n = deleteNode(
        rec,
        prior.get(rec.address) ?? rec.attributes,
        "destroy",
        declaredNodes.get(rec.address)?.lifecycle ?? {},
      );
      const instance = declaredNodes.get(rec.address)?.providerInstance;
      if (instance) n.providerInstance = instance;
      const meta = stored.get(rec.address);
      if (meta) n.stored = meta;
      return n;
    });
  }

  for (const r of opts.replace ?? []) {
    if (!planned.some((p) => p.address === r && p.mode === "managed")) {
      const hint = didYouMean(r, planned.filter((p) => p.mode === "managed").map((p) => p.address));
      diags.push(
        error(
          `Cannot replace "${r}"`,
          `--replace names "${r}", which is not a managed node of this root${
            hint ? ` (${hint})` : ""
          }. Give the address of a resource, as \`pravo state list\` or the plan lists them.`,
        ),
      );
    }
  }
  const ranges = new Map(spec.nodes.map((n) => [n.address, n.range]));
  for (const p of planned) {
    if ((p.action === "delete" || p.action === "replace") && p.lifecycle.prevent_destroy) {
      const what = p.deleteBecause === "destroy"
        ? "--destroy would destroy it"
        : `the plan would ${p.action} it`;
      diags.push(
        error(
          `${p.address} is protected from destruction`,
          `${p.address} has lifecycle.prevent_destroy set, and ${what}. Nothing was planned. ` +
            (p.deleteBecause === "destroy"
              ? "To destroy it, remove prevent_destroy from its configuration first. To destroy " +
                "only the other nodes, remove them from the configuration and apply."
              : "Change the configuration so that it is kept, or remove prevent_destroy first."),
          { address: p.address, range: ranges.get(p.address) },
        ),
      );
    }
  }
  // Each diagnostic once: the nodes are planned again after each round of data reads.
  const seenDiag = new Set<string>();
  const once = diags.filter((d) => {
    const key = JSON.stringify(d);
    if (seenDiag.has(key)) return false;
    seenDiag.add(key);
    return true;
  });
  diags.splice(0, diags.length, ...once);
  if (diags.some((d) => d.severity === "error")) throw new DiagnosticsError(diags, "error");

  propagateSensitivity(planned, spec.sentinels);

  // Why each node is in the plan; and the nodes left as they were without
  // being run: configuration and inputs unchanged since apply, refresh not due.
  const skipped: SkippedNode[] = [];
  const plannedBy = new Map(planned.map((x) => [x.address, x]));
  for (const p of planned) {
    const rec = records.get(p.address);
    p.reasons = reasonsFor(p, rec, refreshed.get(p.address), opts, spec.sentinels, plannedBy);
    if (p.movedFrom) {
      p.reasons.unshift({
        kind: "moved",
        detail: `its object moves from ${p.movedFrom}, as a moved entry of the configuration says`,
      });
    }
    // A setting of pravo's own that changed (`refresh_age`): kept in the
    // record at apply, so the node stays in the plan, with nothing to do to
    // its object.
    if (
      p.action === "no-op" && p.mode === "managed" && rec !== undefined &&
      rec.refreshAge !== p.refreshAge && !opts.destroy
    ) {
      p.reasons.push({
        kind: "config",
        detail: `its refresh_age changes from ${rec.refreshAge ?? "none"} to ${
          p.refreshAge ?? "none"
        }: apply records it, and does not touch the object`,
      });
    }
    const skippable = !opts.full && !opts.destroy && p.action === "no-op" && !p.movedFrom &&
      p.mode === "managed" &&
      rec !== undefined && rec.configDigest === p.configDigest && !refreshed.has(p.address) &&
      rec.refreshAge === p.refreshAge;
    if (skippable) {
      skipped.push({
        address: p.address,
        mode: p.mode,
        type: p.type,
        name: p.name,
        reason: skipReason(rec!),
      });
    }
  }
  const skippedSet = new Set(skipped.map((s) => s.address));

  // A plan may not change what someone else reserved.
  const changing = planned.filter((p) => CHANGES.has(p.action) || p.movedFrom)
    .flatMap((p) => p.movedFrom ? [p.address, p.movedFrom] : [p.address]);
  const conflicts = await store.findReservationConflicts(changing, { actor: opts.actor });
  if (conflicts.length && !opts.explainReservations) {
    throw new DiagnosticsError(
      conflicts.map((c) => reservationError(c, "plan")),
      "locked",
    );
  }

  const outputsUnknown: string[] = [];
  const knownOutputs: Attrs = {};
  for (const [k, v] of Object.entries(spec.outputs)) {
    if (hasUnknown(v)) outputsUnknown.push(k);
    else knownOutputs[k] = v;
  }
  // An output computed from a sensitive value, or that holds one of any
  // node, skipped or not, is redacted here, so that neither the plan file
  // nor any view holds it.
  const outputs = redactOutputs(knownOutputs, sensitiveValues(planned));
  for (const k of spec.outputsSensitive) if (k in outputs) outputs[k] = REDACTED;
  planned.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  const plan: Plan = {
    formatVersion: PLAN_FORMAT_VERSION,
    id: randomUUID(),
    createdAt: now().toISOString(),
    root: opts.root,
    tags: opts.tags,
    actor: opts.actor,
    reason: opts.reason,
    lineage: identity.lineage,
    serial: identity.serial,
    configDigest: spec.configDigest,
    destroy: Boolean(opts.destroy),
    nodes: planned.filter((p) => !skippedSet.has(p.address)),
    skipped,
    full: Boolean(opts.full),
    outputs: opts.destroy ? {} : outputs,
    outputsUnknown: opts.destroy ? [] : outputsUnknown.sort(),
    outputsBefore: await store.readOutputs(),
    sentinels: spec.sentinels,
    sources: sources.given.map((f) => ({ name: f.name, src: f.src })),
    providers: spec.providers,
  };
  return { plan, diagnostics: diags };
}

const CHANGES = new Set(["create", "update", "replace", "delete"]);

function skipReason(rec: StateRecord): string {
  const ms = rec.refreshAge === null ? undefined : parseDuration(rec.refreshAge);
  const age = ms === undefined
    ? "it never needs reading again"
    : `its next read is due at ${
      new Date(Date.parse(rec.refreshedAt) + ms).toISOString()
    } (refresh age ${rec.refreshAge})`;
  return `configuration and inputs unchanged since it was applied at ${rec.updatedAt}, and ${age}`;
}

/** Every reason a node has its action. */
function reasonsFor(
  p: PlannedNode,
  rec: StateRecord | undefined,
  due: string | undefined,
  opts: PlanOptions,
  sentinels: SentinelRef[],
  byAddr: Map<string, PlannedNode>,
): Reason[] {
  const out: Reason[] = [];
  if (due) out.push({ kind: "refresh", detail: `read from the real world: ${due}` });
  if (rec && p.before && !isDeepStrictEqual(rec.attributes, p.before)) {
    const drifted = changedKeys(rec.attributes, p.before);
    out.push({
      kind: "drift",
      detail: `the real world differs from the state in ${drifted.join(", ")}`,
      attributes: drifted,
    });
  }
  if (p.action === "delete") {
    out.push({
      kind: p.deleteBecause === "destroy" ? "destroy" : "removed",
      detail: p.deleteBecause === "destroy"
        ? "--destroy plans to destroy every node"
        : "it is no longer in the configuration",
    });
    return out;
  }
  if (p.action === "create") {
    out.push(
      p.replaceBecause.includes("gone")
        ? { kind: "gone", detail: "the object was deleted outside pravo (seen on refresh)" }
        : { kind: "new", detail: "it is not in the state" },
    );
  }
  if (p.replaceBecause.includes("requested")) {
    out.push({ kind: "requested", detail: "--replace asks for it" });
  }
  if (p.action === "update" || p.action === "replace") {
    for (const k of p.changed) {
      const t = p.templates[k];
      const from = t === undefined
        ? []
        : [...new Set(sentinelRefs(t, sentinels).map((r) => r.address))];
      // An input computed from a secret is unknown at plan time whether or
      // not what it reads changes: only nodes that do change explain it.
      const secret = p.secretForms !== undefined && k in p.secretForms;
      const changing = (d: string) => {
        const a = byAddr.get(d)?.action;
        return a !== undefined && a !== "no-op" && a !== "read";
      };
      const via = from.length
        ? from
        : p.needsEvaluation.includes(k)
        ? p.dependencies.filter((d) => !secret || changing(d))
        : [];
      const forces = p.replaceBecause.includes(k) ? " (forces replacement)" : "";
      if (via.length) {
        const what = via.map((d) => `${d} (${byAddr.get(d)?.action ?? "changing"})`).join(", ");
        out.push({
          kind: "dependency",
          detail: `${k} depends on ${what}, whose new values are known only after apply${forces}`,
          attributes: [k],
          dependencies: via,
        });
      } else if (secret) {
        out.push({
          kind: "config",
          detail:
            `${k} changed in the configuration, or a secret it is computed from did, since it was applied (pravo does not compare values computed from secrets at plan time)${forces}`,
          attributes: [k],
        });
      } else if (p.sensitive.includes(k)) {
        out.push({
          kind: "config",
          detail: `${k} changed in the configuration${forces}`,
          attributes: [k],
        });
      } else {
        out.push({
          kind: "config",
          detail: `${k} changed: ${JSON.stringify(p.before?.[k] ?? null)} -> ${
            JSON.stringify(p.config[k] ?? null)
          }${forces}`,
          attributes: [k],
        });
      }
    }
  }
  if (p.action === "read") {
    out.push({ kind: "data", detail: "a data source is read on every plan" });
  }
  if (p.action === "open") {
    out.push({
      kind: "ephemeral",
      detail: "an ephemeral value is opened for each run and never stored",
    });
  }
  if (p.action === "no-op" && out.length === 0) {
    out.push({ kind: "unchanged", detail: "its configuration matches the state" });
  }
  void opts;
  return out;
}

/**
 * Marks sensitive the inputs built from sensitive values: an input whose
 * value contains the value of a sensitive attribute of any node, or whose
 * template waits for one. Their values are then redacted in every view and
 * in the log, as the attributes they came from are.
 */
export function propagateSensitivity(planned: PlannedNode[], sentinels: SentinelRef[]): void {
  const secretAttrs = new Set<string>();
  const secrets = new Set<string>();
  for (const n of planned) {
    for (const k of n.sensitive) {
      secretAttrs.add(`${n.address}\u0000${k}`);
      for (const v of [n.before?.[k], n.after?.[k]]) {
        if (typeof v === "string" && v.length >= 4) secrets.add(v);
      }
    }
  }
  const holds = (v: unknown): boolean => {
    if (typeof v === "string") return [...secrets].some((s) => v.includes(s));
    if (Array.isArray(v)) return v.some(holds);
    if (v && typeof v === "object") return Object.values(v).some(holds);
    return false;
  };
  for (const n of planned) {
    const marked = new Set(n.sensitive);
    for (const [k, v] of Object.entries(n.config)) if (holds(v)) marked.add(k);
    for (const [k, t] of Object.entries(n.templates)) {
      if (sentinelRefs(t, sentinels).some((r) => secretAttrs.has(`${r.address}\u0000${r.attr}`))) {
        marked.add(k);
      }
    }
    n.sensitive = [...marked].sort();
  }
}

export function inputsOf(n: Node): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const [k, a] of Object.entries(n.schema.attributes)) {
    if (isInput(a) && n.config[k] !== undefined) out[k] = n.config[k];
  }
  return out;
}

export function withoutUnknown(v: Record<string, Value>): Attrs {
  const out: Attrs = {};
  for (const [k, x] of Object.entries(v)) if (!hasUnknown(x)) out[k] = x;
  return out;
}

export function providerConfigOf(spec: Spec, n: Node): Attrs {
  const inst = spec.providers.find((p) => p.address === n.providerInstance);
  return inst ? withoutUnknown(inst.config) : {};
}

function deleteNode(
  rec: StateRecord,
  before: Attrs,
  because: string,
  lifecycle: PlannedNode["lifecycle"] = {},
): PlannedNode {
  return {
    address: rec.address,
    mode: rec.mode,
    type: rec.type,
    name: rec.address.split(".").pop()!,
    provider: rec.provider,
    action: "delete",
    before,
    after: null,
    afterUnknown: [],
    changed: [],
    replaceBecause: [],
    deleteBecause: because,
    dependencies: rec.dependencies,
    sensitive: rec.sensitivePaths.map((p) => String(p[0])).sort(),
    config: {},
    templates: {},
    needsEvaluation: [],
    configDigest: rec.configDigest,
    refreshAge: rec.refreshAge,
    lifecycle,
    providerConfig: {},
  };
}

export function changedKeys(a: Attrs, b: Attrs): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => !isDeepStrictEqual(a[k] ?? null, b[k] ?? null)).sort();
}

/** The provider configurations of an evaluated root, for the providers of a run. */
export function instancesOf(spec: Pick<Spec, "providers">): InstanceConfig[] {
  return spec.providers.map((p) => ({ address: p.address, source: p.source, config: p.config }));
}

/**
 * The providers of a run outside a plan (`drift`, `import`): their
 * configurations come from an evaluation of the root with the state's
 * values, made only when a plugin provider is first needed.
 */
export function rootSession(
  root: string,
  tags: Record<string, string>,
  records: readonly StateRecord[],
): ProviderSession {
  return new ProviderSession(root, async () => {
    const sources = readRoot(root);
    if (!sources.ok) throw new DiagnosticsError(sources.diagnostics, "invalid");
    const known = new Map(
      records.filter((r) => r.mode === "managed").map((r) => [r.address, computedOf(r)]),
    );
    const knownKinds = new Map(records.map((r) => [r.address, r]));
    let res = await evaluateRoot(sources.value, { tags, known, knownKinds, trace: false });
    if (!res.ok) res = await evaluateRoot(sources.value, { tags, trace: false });
    if (!res.ok) throw new DiagnosticsError(res.diagnostics, "invalid");
    return instancesOf(res.value);
  }, pluginInputs(root));
}
