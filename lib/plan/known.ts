/**
 * What the state tells an evaluation: the values of a record that are
 * unified back into the configuration so that references to them are
 * concrete, and an evaluation of a root with them.
 *
 * The planner, apply and the commands that read a root against its state
 * (`import`) share these, so that they agree on what a reference sees.
 *
 * @module
 */

import { DiagnosticsError } from "../diag/diag.ts";
import { evaluateRoot, type Result, type Sources, type Spec } from "../cue/loader.ts";
import type { Registry } from "../providers/registry.ts";
import type { Attribute, TypeSchema } from "../providers/schema.ts";
import type { StateRecord } from "../state/store.ts";
import type { AttrPath } from "../cue/secrets.ts";
import { sensitivePathsOf } from "../secrets/paths.ts";
import { isTracked } from "../cue/provider_cue.ts";

type Attrs = Record<string, unknown>;

/** True when the configuration may set the attribute. */
export function isInput(a: Attribute): boolean {
  return Boolean(a.required || a.optional);
}

/** The schema of a record's or a node's type, when pravo knows it. */
export function typeSchemaOf(
  rec: { provider: string; mode: string; type: string },
  registry: Pick<Registry, "findType">,
): TypeSchema | undefined {
  return registry.findType(rec.provider, rec.mode as TypeSchema["mode"], rec.type);
}

/**
 * The values of a record that an evaluation is given: its computed
 * attributes, optional ones included (lib/cue/provider_cue.ts `isTracked`):
 * the loader unifies those only where the configuration leaves them unset,
 * so that references to them see the state's.
 */
export function knownValuesOf(
  rec: { type: string; mode: string; provider: string; attributes: Attrs },
  registry: Pick<Registry, "findType">,
): Attrs {
  const type = typeSchemaOf(rec, registry);
  if (!type) return {};
  const out: Attrs = {};
  for (const [k, a] of Object.entries(type.attributes)) {
    const v = rec.attributes[k];
    if (v === undefined || (v === null && !type.plugin)) continue;
    if (!isInput(a) || isTracked(type, a)) out[k] = v;
  }
  return out;
}

/**
 * Evaluates the root with the known values of the managed records of the
 * state, as a plan does before anything changes. The values of records whose
 * nodes are no longer declared are left out when they clash with the
 * configuration.
 */
export async function evaluateWithState(
  sources: Sources,
  records: readonly StateRecord[],
  tags: Record<string, string>,
): Promise<Result<Spec>> {
  const known = new Map<string, Attrs>();
  const secrets = new Map<string, AttrPath[]>();
  for (const rec of records) {
    if (rec.mode !== "managed") continue;
    const values = knownValuesOf(rec, sources.registry);
    known.set(rec.address, values);
    secrets.set(
      rec.address,
      sensitivePathsOf(rec, sources.registry.findType).filter((p) => String(p[0]) in values),
    );
  }
  const knownKinds = new Map(records.map((r) => [r.address, r]));
  const res = await evaluateRoot(sources, { tags, known, secrets, knownKinds });
  if (res.ok || known.size === 0) return res;
  const declared = await declaredOnly(sources, tags, known);
  return declared.ok
    ? await evaluateRoot(sources, { tags, known: declared.value, secrets, knownKinds })
    : declared;
}

/**
 * Of `known`, the values of the nodes the root still declares (evaluated
 * without the state's values): those of a record whose node is gone may
 * clash with the configuration (a `count` that shrank, read through a
 * splat, would see the old instance without its configuration).
 */
export async function declaredOnly(
  sources: Sources,
  tags: Record<string, string>,
  known: ReadonlyMap<string, Attrs>,
): Promise<Result<Map<string, Attrs>>> {
  const bare = await evaluateRoot(sources, { tags, trace: false });
  if (!bare.ok) return bare;
  const declared = new Set(bare.value.nodes.map((n) => n.address));
  const value = new Map([...known].filter(([a]) => declared.has(a)));
  return { ok: true, value, diagnostics: [] };
}

/** {@linkcode evaluateWithState}, or a DiagnosticsError (exit 3) for an invalid root. */
export async function mustEvaluateWithState(
  sources: Sources,
  records: readonly StateRecord[],
  tags: Record<string, string>,
): Promise<Spec> {
  const res = await evaluateWithState(sources, records, tags);
  if (!res.ok) throw new DiagnosticsError(res.diagnostics, "invalid");
  return res.value;
}
