/**
 * The providers of a run on a root: a {@linkcode ProviderSession} whose
 * plugin providers are configured from an evaluation of the root, made only
 * when a plugin provider is first needed. A plan's session takes the plan's
 * own evaluation once there is one; before it (a refresh), and outside a
 * plan (`drift`, `import`), one with the state's values.
 *
 * @module
 */

import { DiagnosticsError } from "../diag/diag.ts";
import { evaluateRoot, readRoot, type Sources, type Spec } from "../cue/loader.ts";
import type { StateRecord } from "../state/store.ts";
import type { Mode } from "../providers/schema.ts";
import { type InstanceConfig, ProviderSession } from "../providers/session.ts";
import type { SourcesWorkspace } from "../cue/loader.ts";
import { declaredOnly, knownValuesOf } from "./known.ts";

/** The kind of the node at an address: what an evaluation types a known value with. */
export type KnownKind = { provider: string; mode: Mode; type: string };

/** The provider configurations of an evaluated root, for the providers of a run. */
export function instancesOf(spec: Pick<Spec, "providers">): InstanceConfig[] {
  return spec.providers.map((p) => ({ address: p.address, source: p.source, config: p.config }));
}

/**
 * Evaluates the root with the known values of the state's managed records,
 * untraced; when they clash with the configuration, with those of the nodes
 * it still declares.
 */
async function _withState(
  sources: Sources,
  tags: Record<string, string>,
  records: Iterable<StateRecord>,
  knownKinds: Map<string, KnownKind>,
) {
  const known = new Map(
    [...records].filter((r) => r.mode === "managed").map((
      r,
    ) => [r.address, knownValuesOf(r, sources.registry)]),
  );
  const res = await evaluateRoot(sources, { tags, known, knownKinds, trace: false });
  if (res.ok || known.size === 0) return res;
  const declared = await declaredOnly(sources, tags, known);
  return declared.ok
    ? await evaluateRoot(sources, { tags, known: declared.value, knownKinds, trace: false })
    : declared;
}

/**
 * The providers of a run outside a plan (`drift`, `import`): their
 * configurations come from an evaluation of the root with the state's
 * values, made only when a plugin provider is first needed; the nodes of
 * that evaluation are bound to theirs (a record of a node the root still
 * declares is read with the node's configuration).
 */
export function rootSession(
  ws: SourcesWorkspace & { root: string },
  tags: Record<string, string>,
  records: readonly StateRecord[],
): ProviderSession {
  const session: ProviderSession = new ProviderSession(ws.root, async () => {
    const sources = readRoot(ws.root, ws);
    if (!sources.ok) throw new DiagnosticsError(sources.diagnostics, "invalid");
    const knownKinds = new Map(records.map((r) => [r.address, r]));
    let res = await _withState(sources.value, tags, records, knownKinds);
    if (!res.ok) res = await evaluateRoot(sources.value, { tags, trace: false });
    if (!res.ok) throw new DiagnosticsError(res.diagnostics, "invalid");
    session.bind(res.value.nodes);
    return instancesOf(res.value);
  }, ws.inputs);
  return session;
}

/** A plan's providers, and how the plan tells them of each evaluation it makes. */
export interface PlanSession {
  session: ProviderSession;
  /**
   * From now on the session's nodes are those of `spec`, and a plugin
   * provider not configured yet is configured from `spec`'s instances.
   */
  use(spec: Spec): void;
}

/**
 * The providers of a plan: `given` (the caller's), or a session of its own
 * whose configurations come from the plan's latest evaluation, or, when a
 * plugin provider is needed before the first (a refresh), from one with the
 * state's values (`records`, typed by `knownKinds` as they are then), whose
 * nodes it binds: a refresh reads each record of a node still declared
 * with the node's configuration.
 */
export function planSession(
  sources: Sources,
  opts: { root: string; tags: Record<string, string>; given?: ProviderSession },
  state: {
    records: ReadonlyMap<string, StateRecord>;
    knownKinds: Map<string, KnownKind>;
  },
): PlanSession {
  let current: Spec | undefined;
  const session: ProviderSession = opts.given ?? new ProviderSession(opts.root, async () => {
    if (current) return instancesOf(current);
    const res = await _withState(sources, opts.tags, state.records.values(), state.knownKinds);
    if (!res.ok) throw new DiagnosticsError(res.diagnostics, "invalid");
    session.bind(res.value.nodes);
    return instancesOf(res.value);
  }, sources.workspace.inputs);
  return {
    session,
    use(spec) {
      current = spec;
      session.bind(spec.nodes);
    },
  };
}
