/**
 * What an apply keeps of the nodes it leaves as they are: the values a
 * refresh read anew, and pravo's settings of a node (its refresh age, its
 * plugin provider configuration), in their records; and the transaction
 * metadata of an apply.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import type { StateRecord, StateStore, TxMeta } from "../state/store.ts";
import { findType } from "../providers/registry.ts";
import type { Plan, PlannedNode } from "../plan/types.ts";
import type { ApplyOptions } from "./apply.ts";

/** The metadata of an apply's transactions. */
export function planMeta(plan: Plan, opts: ApplyOptions): TxMeta {
  return {
    actor: opts.actor,
    reason: opts.reason,
    command: "apply",
    planId: plan.id,
    planActor: plan.actor,
    planReason: plan.reason,
    run: opts.run,
  };
}

/**
 * The settings of nodes left as they are that the configuration changed
 * (`lifecycle: refresh_age`, the plugin provider configuration the node's
 * type comes from, which a record written before pravo kept it lacks):
 * pravo's bookkeeping, kept in the record, with no call to the provider. A
 * change of it moves the serial, as any write of a record does; it is not a
 * change of the object, so no log entry.
 */
export async function recordSettings(
  plan: Plan,
  store: StateStore,
  opts: Pick<ApplyOptions, "actor" | "reason" | "run">,
): Promise<void> {
  const candidates = plan.nodes.filter((n) =>
    n.mode === "managed" && n.action === "no-op" && n.before !== null
  );
  if (candidates.length === 0) return;
  const instanceOf = (n: PlannedNode) =>
    findType(n.provider, n.mode, n.type)?.plugin ? n.providerInstance : undefined;
  const differs = (rec: StateRecord | undefined, n: PlannedNode) =>
    rec !== undefined && (rec.refreshAge !== n.refreshAge ||
      (instanceOf(n) !== undefined && rec.providerInstance !== instanceOf(n)));
  const records = new Map((await store.listRecords()).map((r) => [r.address, r]));
  const changed = candidates.filter((n) => differs(records.get(n.address), n));
  if (changed.length === 0) return;
  await store.transaction(planMeta(plan, opts as ApplyOptions), async (tx) => {
    for (const n of changed) {
      const rec = await tx.getRecord(n.address);
      if (!rec || !differs(rec, n)) continue;
      const instance = instanceOf(n) ?? rec.providerInstance;
      await tx.putRecord({
        ...rec,
        refreshAge: n.refreshAge,
        ...(instance ? { providerInstance: instance } : {}),
      });
    }
  });
}

/** The values of nodes left as they are that a refresh read anew: kept in their records. */
export async function recordRefreshed(
  plan: Plan,
  store: StateStore,
  opts: Pick<ApplyOptions, "actor" | "reason" | "run">,
): Promise<void> {
  const refreshed = plan.nodes.filter((n) =>
    n.mode === "managed" && n.action === "no-op" && n.before !== null &&
    (n.reasons ?? []).some((r) => r.kind === "refresh")
  );
  if (refreshed.length === 0) return;
  const at = new Date().toISOString();
  await store.transaction(planMeta(plan, opts as ApplyOptions), async (tx) => {
    for (const n of refreshed) {
      const rec = await tx.getRecord(n.address);
      if (!rec || isDeepStrictEqual(rec.attributes, n.before)) continue;
      await tx.putRecord({
        ...rec,
        attributes: n.before!,
        refreshedAt: at,
        ...(n.stored?.schemaVersion !== undefined ? { schemaVersion: n.stored.schemaVersion } : {}),
        ...(n.stored?.private ? { private: n.stored.private } : {}),
      });
      await tx.logChange({
        address: n.address,
        action: "refresh",
        before: rec.attributes,
        after: n.before,
        sensitivePaths: rec.sensitivePaths,
      });
    }
  });
}
