/**
 * Applying a plan: in dependency order, independent nodes in parallel up to
 * a bound, each node recorded in its own transaction as it completes. A node
 * that fails stops its dependents and nothing else.
 *
 * @module
 */

import { type Diagnostic, DiagnosticsError, error } from "../diag/diag.ts";
import type { AcquiredLock, LockInfo, StateRecord, StateStore } from "../state/store.ts";
import type { Registry } from "../providers/registry.ts";
import type { TypeSchema } from "../providers/schema.ts";
import { ProviderSession } from "../providers/session.ts";
import type { Value } from "../cue/program.ts";
import { substitute } from "../cue/unknowns.ts";
import type { Attrs, Plan, PlannedNode } from "../plan/types.ts";
import { instancesOf } from "../plan/session.ts";
import { reservationError } from "../state/reservation.ts";
import { applyMoves } from "./moved.ts";
import { hasUnknown } from "../plan/node_values.ts";
import type { Move } from "../state/edit.ts";
import type { ProgressEvent } from "./progress.ts";
import type { SourcesWorkspace } from "../cue/loader.ts";
import { walk as walkGraph } from "../graph/walk.ts";
import { type Kind, knownBefore, waitsOf } from "./before.ts";
import { type Evaluated, reevaluate } from "./reevaluate.ts";

export type { Evaluated };
import { applyNode } from "./node.ts";
import { planMeta, recordRefreshed, recordSettings } from "./bookkeeping.ts";

export interface ApplyOptions {
  /**
   * The command's workspace: the registry every type is looked up in, and
   * what the root's plugin providers start from.
   */
  workspace: SourcesWorkspace;
  actor: string;
  reason: string;
  /** The id every transaction of this run carries (TxMeta.run); default a new one. */
  run?: string;
  /**
   * The root's outputs after a whole apply that succeeded, from the state
   * then (sensitive ones redacted): recorded for the next plan to compare
   * with. Undefined when they cannot be computed; then none are recorded.
   */
  outputsAfter?: (records: StateRecord[]) => Promise<Record<string, unknown> | undefined>;
  /** Apply only these addresses. */
  only?: string[];
  /** How many nodes run at once. */
  parallelism?: number;
  /** How long to wait for the state lock. */
  lockTimeoutMs?: number;
  /** The plan file, for messages. */
  planPath?: string;
  /** The state lock, when the caller holds it already (apply without a plan file). */
  heldLock?: LockInfo;
  /** Told when the state lock is taken here, to warn of a lock taken over from a dead holder. */
  onLocked?: (lock: AcquiredLock) => void;
  /**
   * Told when the provider starts acting on a node and when the node ends,
   * for the progress view (lib/render/apply_progress.ts). Ids are redacted
   * when sensitive.
   */
  progress?: (event: ProgressEvent) => void;
  /**
   * Aborts on an interrupt (its reason is the signal's name): no node starts
   * after it, the running ones finish or are cancelled (the provider gets the
   * signal), and what was not done is recorded.
   */
  signal?: AbortSignal;
}

/**
 * What became of a node: `skipped` when a node it depends on was not
 * applied; after an interrupt, `cancelled` when it was running and did not
 * finish, `not_started` when it had not started.
 */
export type NodeStatus = "applied" | "failed" | "skipped" | "cancelled" | "not_started";

export interface NodeOutcome {
  address: string;
  action: string;
  status: NodeStatus;
  diagnostics: Diagnostic[];
  /** The provider was asked to act: a failure may have changed the real world. */
  attempted?: boolean;
  /**
   * The configuration did not evaluate with the values known at apply (the
   * secrets' among them: what it requires of a secret is checked here, not
   * at plan time). Recorded in the log like an attempt.
   */
  evaluationFailed?: boolean;
}

export interface ApplyResult {
  outcomes: NodeOutcome[];
  /** Serial of the state after apply. */
  serial: number;
  ok: boolean;
  /** The signal that interrupted the apply, when one did. */
  interrupted?: string;
  /** True when the interrupt came before any node started: the plan is untouched. */
  nothingStarted?: boolean;
  /** The records moved to their new addresses (`moved`), before the nodes were applied. */
  moved?: Move[];
  /** The outputs recorded after a whole apply that succeeded (none after `--only`). */
  outputs?: Record<string, unknown>;
}

const ACTING = new Set(["create", "update", "replace", "delete", "read", "open"]);

export function typeOf(n: Kind, registry: Registry): TypeSchema {
  const t = registry.findType(n.provider, n.mode, n.type);
  if (!t) throw new Error(`bug: no schema for ${n.provider} ${n.mode} ${n.type}`);
  return t;
}

/** Checks a plan against the state: the same lineage and serial, or stale. */
export async function checkFresh(plan: Plan, store: StateStore, planPath?: string): Promise<void> {
  const id = await store.identity();
  if (id.lineage !== plan.lineage || id.serial !== plan.serial) {
    const what = id.lineage !== plan.lineage
      ? `it was made against state lineage ${plan.lineage}, and the state now has lineage ${id.lineage}`
      : `it was made at state serial ${plan.serial}, and the state is now at serial ${id.serial}`;
    throw new DiagnosticsError([
      error(
        `Saved plan${planPath ? ` "${planPath}"` : ""} is stale`,
        `The state changed since the plan was made: ${what}. Nothing was applied. Make a new plan, review it, and apply that.`,
      ),
    ], "stale");
  }
}

/** Applies a plan. The caller has checked the plan file; this takes the lock and checks staleness. */
export async function applyPlan(
  plan: Plan,
  store: StateStore,
  given: ApplyOptions,
): Promise<ApplyResult> {
  // Every transaction of this run names it: the log shows the apply as one entry.
  const opts: ApplyOptions = { ...given, run: given.run ?? crypto.randomUUID() };
  const byAddress = new Map(plan.nodes.map((n) => [n.address, n]));
  for (const a of opts.only ?? []) {
    if (!byAddress.has(a)) {
      throw new DiagnosticsError([
        error(
          `"${a}" is not in the plan`,
          `--only names "${a}", but the plan has no node with that address. The plan's nodes are: ${
            plan.nodes.map((n) => n.address).join(", ") || "none"
          }. Correct the address, or make a plan that includes it.`,
        ),
      ], "usage");
    }
  }
  const lock = opts.heldLock ?? await store.acquireLock({
    actor: opts.actor,
    reason: opts.reason,
    command: "apply",
    timeoutMs: opts.lockTimeoutMs ?? 10_000,
  });
  if (!opts.heldLock) opts.onLocked?.(lock as AcquiredLock);
  try {
    await checkFresh(plan, store, opts.planPath);
    const changing = plan.nodes.filter((n) =>
      ["create", "update", "replace", "delete"].includes(n.action)
    )
      .filter((n) => !opts.only || opts.only.includes(n.address)).map((n) => n.address);
    const conflicts = await store.findReservationConflicts(changing, {
      actor: opts.actor,
      planId: plan.id,
    });
    if (conflicts.length) {
      throw new DiagnosticsError(conflicts.map((c) => reservationError(c, "apply")), "locked");
    }
    // Renamed nodes (`moved`) first: what follows reads their records at the new address.
    const moved = await applyMoves(plan, store, planMeta(plan, opts), opts.only);
    const result = { ...await walk(plan, store, opts), moved };
    if (!result.interrupted && !opts.only) {
      await recordRefreshed(plan, store, opts);
      await recordSettings(plan, store, opts);
      result.serial = (await store.identity()).serial;
      if (result.ok) result.outputs = await recordOutputs(plan, store, opts);
    }
    // Applying the plan that reserved nodes releases them; so does an apply
    // of it that was interrupted after it started (the plan is stale then).
    // Interrupted before any node started, the plan and its reservations
    // stay as they were, to be applied again.
    if (!result.nothingStarted) {
      for (const r of await store.listReservations()) {
        if (r.planId === plan.id) await store.releaseReservation(r.id);
      }
    }
    return result;
  } finally {
    if (!opts.heldLock) await store.releaseLock(lock);
  }
}

/** The outcome of a node that did not run: the interrupt kept it, or what it waits for failed. */
function notRun(n: PlannedNode, why: { interrupted: string } | { failed: string }): NodeOutcome {
  const w = n.address;
  if ("interrupted" in why) {
    return {
      address: w,
      action: n.action,
      status: "not_started",
      diagnostics: [
        error(
          `${w} was not started`,
          `The run was interrupted (${why.interrupted}) before it started. Plan and apply again to ` +
            "finish the work.",
          { address: w },
        ),
      ],
    };
  }
  return {
    address: w,
    action: n.action,
    status: "skipped",
    diagnostics: [
      error(
        `${w} was not applied`,
        `It depends on ${why.failed}, which was not applied. Fix that failure, then plan and apply again.`,
        { address: w },
      ),
    ],
  };
}

async function walk(plan: Plan, store: StateStore, opts: ApplyOptions): Promise<ApplyResult> {
  const only = opts.only ? new Set(opts.only) : undefined;
  const todo = plan.nodes.filter((n) => ACTING.has(n.action) && (!only || only.has(n.address)));
  const { workspace } = opts;
  const { values, kinds, storedMeta, secretNames } = await knownBefore(plan, {
    store,
    types: workspace.registry.findType,
  });
  const session = new ProviderSession(
    plan.root,
    () => Promise.resolve(instancesOf(plan)),
    workspace.inputs,
  );
  session.bind(plan.nodes);
  const byAddr = new Map(plan.nodes.map((n) => [n.address, n]));
  const signal = opts.signal;
  const signalName = () => String(signal?.reason ?? "an interrupt");
  let evaluating: Promise<unknown> = Promise.resolve();
  /**
   * The last evaluation again: every node's inputs, and the values it knew.
   * It answers for any node whose dependencies hold the same values now
   * (the same objects): the nodes of one level of the graph, applied side by
   * side, share one evaluation instead of one each.
   */
  let last: { knew: Map<string, Attrs>; nodes: Map<string, Evaluated> } | undefined;
  const evaluateAgain = (n: PlannedNode): Promise<Evaluated | undefined> => {
    const next = evaluating.then(async () => {
      const fresh = last && n.dependencies.every((d) => last!.knew.get(d) === values.get(d));
      if (!fresh) {
        const knew = new Map(values);
        last = { knew, nodes: await reevaluate(plan, { values: knew, kinds, workspace }) };
      }
      return last!.nodes.get(n.address);
    });
    evaluating = next.catch(() => undefined);
    return next;
  };

  const { outcomes, started } = await walkGraph<NodeOutcome>({
    nodes: todo.map((n) => n.address),
    waits: waitsOf(plan, todo),
    parallelism: opts.parallelism ?? 10,
    signal,
    succeeded: (o) => o.status === "applied",
    notStarted: (w) => notRun(byAddr.get(w)!, { interrupted: signalName() }),
    blocked: (w, by) => notRun(byAddr.get(w)!, { failed: by }),
    // After an interrupt nothing new starts; the running nodes finish, or
    // are cancelled by the provider, which has the signal.
    run: async (addr) => {
      const n = byAddr.get(addr)!;
      let o = await applyNode({
        n,
        plan,
        store,
        values,
        opts,
        meta: planMeta(plan, opts),
        evaluateAgain,
        session,
        storedPrior: n.stored ?? storedMeta.get(n.address),
        secretNames,
      });
      if (o.status === "failed" && signal?.aborted) {
        // Cut short by the interrupt: recorded with the nodes not started.
        o = { ...o, status: "cancelled" };
      } else if (o.status === "failed" && (o.attempted || o.evaluationFailed)) {
        // A failure before the provider acted (an input that cannot be
        // resolved) changed nothing: only attempts are recorded, and
        // evaluations that failed with the secrets, which the operators
        // are to see (a check a secret does not meet).
        await recordFailure(store, plan, n, o, opts);
      }
      return o;
    },
  });
  if (signal?.aborted && started.size > 0) {
    await recordInterrupt(store, plan, [...outcomes.values()], opts);
  }
  const list = todo.map((n) => outcomes.get(n.address)!);
  return {
    outcomes: list,
    serial: (await store.identity()).serial,
    ok: list.every((o) => o.status === "applied"),
    ...(signal?.aborted ? { interrupted: signalName(), nothingStarted: started.size === 0 } : {}),
  };
}

export async function resolveConfig(
  n: PlannedNode,
  plan: Plan,
  values: Map<string, Attrs>,
  evaluateAgain: (n: PlannedNode) => Promise<Evaluated | undefined>,
): Promise<
  {
    config?: Attrs;
    sensitive?: string[];
    forms?: Record<string, [unknown, unknown]>;
    diagnostics: Diagnostic[];
  }
> {
  const config: Attrs = { ...n.config };
  const sensitive: string[] = [];
  let forms = n.secretForms;
  const missing = new Set<string>();
  for (const [k, t] of Object.entries(n.templates)) {
    const r = substitute(t, plan.sentinels, (ref) => values.get(ref.address)?.[ref.attr]);
    if (!r.complete) missing.add(k);
    else config[k] = r.value;
  }
  // Inputs computed from a secret are evaluated with it here, and what they
  // are made of with the stand-ins, for the record's digest: the plan's
  // forms were made before the nodes they depend on were applied.
  const again = [
    ...new Set([...n.needsEvaluation, ...missing, ...Object.keys(n.secretForms ?? {})]),
  ];
  if (again.length) {
    const evaluated = await evaluateAgain(n);
    const fresh = evaluated?.config;
    if (evaluated && Object.keys(evaluated.forms).length) forms = evaluated.forms;
    for (const k of again) {
      if (evaluated?.sensitive.includes(k)) sensitive.push(k);
      const v = fresh?.[k] as Value | undefined;
      if (v === undefined || hasUnknown(v)) {
        const deps = n.dependencies.filter((d) => !values.has(d));
        return {
          diagnostics: [
            error(
              `Cannot resolve ${n.address}.${k}`,
              `Its value depends on ${
                deps.length
                  ? deps.join(", ") + ", which " + (deps.length === 1 ? "was" : "were")
                  : "values that were"
              } not applied in this run. Apply the nodes it depends on first (include them in --only), then apply again.`,
              { address: n.address },
            ),
          ],
        };
      }
      config[k] = v;
    }
  }
  return { config, sensitive, ...(forms ? { forms } : {}), diagnostics: [] };
}

/**
 * The nodes the plan read from the real world and left as they are keep
 * what was read when it differs from the state (a provider's
 * normalisation, or what another node changed), as Terraform keeps a
 * refreshed state: a `refresh` change in the log, so that drift and the
 * next plans start from it.
 */
/**
 * The outputs of a whole apply that succeeded, for the next plan to show
 * only those that change: none after a destroy, the plan's when it knew
 * them all, else those `outputsAfter` computes from the state.
 */
async function recordOutputs(
  plan: Plan,
  store: StateStore,
  opts: ApplyOptions,
): Promise<Record<string, unknown> | undefined> {
  const outputs = plan.destroy
    ? {}
    : plan.outputsUnknown.length === 0
    ? plan.outputs
    : await opts.outputsAfter?.(await store.listRecords());
  if (outputs === undefined) return undefined;
  await store.transaction(planMeta(plan, opts), (tx) => tx.setOutputs(outputs));
  return outputs;
}

/**
 * Who applies and why, and who made the plan and why: the plan's reason
 * reaches the log entry of the apply that carries it out, whoever applies it.
 */

/** A node that failed is recorded in the log, with who and why, as applied nodes are. */
async function recordFailure(
  store: StateStore,
  plan: Plan,
  n: PlannedNode,
  o: NodeOutcome,
  opts: ApplyOptions,
): Promise<void> {
  const why = o.diagnostics.map((d) => d.summary).join("; ");
  await store.transaction(
    planMeta(plan, opts),
    async (tx) => {
      await tx.logChange({
        address: n.address,
        action: "failed",
        before: n.before,
        after: { error: why, planned_action: n.action },
        sensitivePaths: n.sensitive.map((k) => [k]),
      });
    },
  );
}

/**
 * An interrupted apply records, in one transaction, the nodes it cancelled
 * and those it did not start: the log then says what the run left undone,
 * next to the entries of the nodes it applied.
 */
async function recordInterrupt(
  store: StateStore,
  plan: Plan,
  outcomes: NodeOutcome[],
  opts: ApplyOptions,
): Promise<void> {
  const undone = outcomes.filter((o) => o.status === "cancelled" || o.status === "not_started");
  if (undone.length === 0) return;
  const byAddr = new Map(plan.nodes.map((n) => [n.address, n]));
  await store.transaction(
    planMeta(plan, opts),
    async (tx) => {
      for (const o of undone) {
        const n = byAddr.get(o.address)!;
        await tx.logChange({
          address: n.address,
          action: "interrupted",
          before: n.before,
          after: {
            planned_action: n.action,
            status: o.status === "cancelled" ? "cancelled" : "not started",
            signal: String(opts.signal?.reason ?? "an interrupt"),
            ...(o.status === "cancelled"
              ? { error: o.diagnostics.map((d) => d.summary).join("; ") }
              : {}),
          },
          sensitivePaths: n.sensitive.map((k) => [k]),
        });
      }
    },
  );
}
