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
import type { Registry } from "../providers/registry.ts";
import type { Plan } from "../plan/types.ts";
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
 * The settings of nodes left as they are that the configuration changed:
 * `lifecycle: refresh_age`, and the plugin provider configuration a node's
 * type comes from (which a record written before pravo kept it lacks, the
 * node skipped or not). pravo's bookkeeping, kept in the record, with no
 * call to the provider. A change of it moves the serial, as any write of a
 * record does; it is not a change of the object, so no log entry.
 */
export async function recordSettings(
  plan: Plan,
  store: StateStore,
  opts: Pick<ApplyOptions, "actor" | "reason" | "run"> & {
    /** Where a record's type is looked up: only a plugin type's record keeps a configuration. */
    workspace: { registry: Pick<Registry, "findType"> };
  },
): Promise<void> {
  const wanted = new Map<string, { refreshAge?: string | null; instance?: string }>();
  for (const n of plan.nodes) {
    if (n.mode !== "managed" || n.action !== "no-op" || n.before === null) continue;
    wanted.set(n.address, { refreshAge: n.refreshAge, instance: n.providerInstance });
  }
  for (const s of plan.skipped ?? []) wanted.set(s.address, { instance: s.providerInstance });
  if (wanted.size === 0) return;
  /** The record with the settings wanted; undefined when it has them already. */
  const settled = (rec: StateRecord | undefined): StateRecord | undefined => {
    const w = rec && wanted.get(rec.address);
    if (!rec || !w) return undefined;
    const refreshAge = w.refreshAge === undefined ? rec.refreshAge : w.refreshAge;
    const plugin =
      opts.workspace.registry.findType(rec.provider, rec.mode, rec.type)?.plugin !== undefined;
    const instance = (plugin ? w.instance : undefined) ?? rec.providerInstance;
    if (refreshAge === rec.refreshAge && instance === rec.providerInstance) return undefined;
    return { ...rec, refreshAge, ...(instance ? { providerInstance: instance } : {}) };
  };
  const records = await store.listRecords();
  if (!records.some((r) => settled(r))) return;
  await store.transaction(planMeta(plan, opts as ApplyOptions), async (tx) => {
    for (const address of wanted.keys()) {
      const rec = settled(await tx.getRecord(address));
      if (rec) await tx.putRecord(rec);
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
