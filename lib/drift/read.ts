/**
 * Reading the real world for the managed records of a state and comparing
 * it with them: the engine of `pravo drift`. It reports; it never changes a
 * record's attributes (a plan and an apply put the real world back in line).
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import { type Diagnostic, error } from "../diag/diag.ts";
import type { Attrs } from "../providers/runtime.ts";
import { ProviderSession } from "../providers/session.ts";
import type { StateRecord, StateStore, TxMeta } from "../state/store.ts";
import type { Workspace } from "../workspace/workspace.ts";

/** How a record compares with the real world. */
export type DriftStatus = "drifted" | "gone" | "unchanged";

/** One record that was read. */
export interface DriftResult {
  record: StateRecord;
  status: DriftStatus;
  /** The attributes as read now, or null when the object is gone. */
  now: Attrs | null;
  /** The attributes whose values differ, sorted; empty when unchanged or gone. */
  changed: string[];
}

/** What a drift run found. */
export interface DriftReport {
  /** The records read, in the order of the state (by address). */
  results: DriftResult[];
  /** The managed records whose type has no read: their state is all there is. */
  notReadable: StateRecord[];
  /** The records whose read failed, with the diagnostics that say why. */
  failed: StateRecord[];
  diagnostics: Diagnostic[];
}

/** How many reads run at once. */
export const DRIFT_PARALLELISM = 8;

/**
 * The attributes that differ between the state and what was read, sorted.
 * An attribute that is absent and one that is null are the same.
 *
 * @example
 * ```ts
 * import { strict as assert } from "node:assert";
 * import { changedBetween } from "./read.ts";
 * assert.deepEqual(changedBetween({ a: 1, b: null, c: [1] }, { a: 2, c: [1] }), ["a"]);
 * ```
 */
export function changedBetween(
  before: Attrs,
  now: Attrs,
  opts: { emptyIsNull?: boolean } = {},
): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(now)]);
  const norm = opts.emptyIsNull ? emptyAsNull : (v: unknown) => v ?? null;
  return [...keys].filter((k) => !isDeepStrictEqual(norm(before[k]), norm(now[k]))).sort();
}

/**
 * A value with every empty string, list and map taken as null, at any
 * depth: what a plugin provider of the legacy SDK cannot tell apart (it
 * reads back `{}` for a map it was given as null), and so no drift. A
 * string that holds a JSON object or array is taken as its value: a policy
 * read back with other whitespace or another order of keys is the same
 * policy, as the provider's own plan says (its diff suppression).
 *
 * @example
 * ```ts
 * import { strict as assert } from "node:assert";
 * import { changedBetween } from "./read.ts";
 * const before = { policy: '{"Version":"2012-10-17","Statement":[]}', name: "q" };
 * const now = { policy: '{\n  "Statement": [],\n  "Version": "2012-10-17"\n}', name: "q" };
 * assert.deepEqual(changedBetween(before, now, { emptyIsNull: true }), []);
 * assert.deepEqual(changedBetween(before, { ...now, policy: "{}" }, { emptyIsNull: true }), ["policy"]);
 * ```
 */
function emptyAsNull(v: unknown): unknown {
  if (v === undefined || v === null || v === "") return null;
  if (typeof v === "string" && /^\s*[{[]/.test(v)) {
    try {
      return { "\u0000json": emptyAsNull(JSON.parse(v)) };
    } catch {
      return v; // not JSON after all
    }
  }
  if (Array.isArray(v)) return v.length ? v.map(emptyAsNull) : null;
  if (typeof v === "object") {
    const entries = Object.entries(v as Record<string, unknown>);
    return entries.length ? Object.fromEntries(entries.map(([k, x]) => [k, emptyAsNull(x)])) : null;
  }
  return v;
}

/**
 * Reads the real world for every managed record whose type can be read
 * (its handler has `read`), at most {@linkcode DRIFT_PARALLELISM} at once,
 * and compares each with the state. Other modes are left out: data sources
 * are read again by every plan, ephemeral values and calls are not stored.
 */
export async function readDrift(
  records: readonly StateRecord[],
  opts: {
    root: string;
    /** The command's workspace: its registry, and what its plugin providers start from. */
    workspace: Pick<Workspace, "registry" | "inputs">;
    signal?: AbortSignal;
    session?: ProviderSession;
  },
): Promise<DriftReport> {
  const session = opts.session ?? new ProviderSession(
    opts.root,
    () => Promise.resolve([]),
    opts.workspace.inputs,
  );
  const report: DriftReport = { results: [], notReadable: [], failed: [], diagnostics: [] };
  const work: { rec: StateRecord; run: () => Promise<void> }[] = [];
  const results = new Map<string, DriftResult>();
  for (const rec of records) {
    if (rec.mode !== "managed") continue;
    const type = opts.workspace.registry.findType(rec.provider, "managed", rec.type);
    const provider = type ? await session.providerFor(rec) : undefined;
    if (!provider || !type || !provider.canRead(type)) {
      report.notReadable.push(rec);
      continue;
    }
    work.push({
      rec,
      run: async () => {
        let res;
        try {
          const r = await provider.readResource({
            type,
            address: rec.address,
            root: opts.root,
            providerConfig: {},
            prior: {
              attributes: structuredClone(rec.attributes),
              schemaVersion: rec.schemaVersion,
              private: rec.private,
            },
            signal: opts.signal,
          });
          res = {
            diagnostics: r.diagnostics,
            value: r.value === undefined ? undefined : r.value === null ? null : r.value.attributes,
          };
        } catch (e) {
          res = {
            diagnostics: [error(
              `Cannot read ${rec.address}`,
              `The ${rec.type} provider failed: ${(e as Error)?.message ?? e}. Try again, and ` +
                "report it if it persists.",
              { address: rec.address },
            )],
          };
        }
        const diags = res.diagnostics.map((d) => ({ ...d, address: d.address ?? rec.address }));
        report.diagnostics.push(...diags);
        if (diags.some((d) => d.severity === "error") || res.value === undefined) {
          report.failed.push(rec);
          return;
        }
        const now = res.value;
        const changed = now === null
          ? []
          : changedBetween(rec.attributes, now, { emptyIsNull: type.plugin !== undefined });
        results.set(rec.address, {
          record: rec,
          status: now === null ? "gone" : changed.length ? "drifted" : "unchanged",
          now,
          changed,
        });
      },
    });
  }
  let next = 0;
  const worker = async () => {
    while (next < work.length) await work[next++].run();
  };
  await Promise.all(Array.from({ length: Math.min(DRIFT_PARALLELISM, work.length) }, worker));
  for (const w of work) {
    const r = results.get(w.rec.address);
    if (r) report.results.push(r);
  }
  report.failed.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  return report;
}

/**
 * Records the refresh time `at` on the records that were read and found as
 * the state holds them, in one transaction (`command` "drift"). A record
 * found drifted or gone keeps its old refresh time: its attributes were not
 * confirmed, and a plan must still read it to see the difference. A record
 * that an apply rewrote since it was read, or that was read again after
 * `at`, is left alone too.
 *
 * The store moves the serial by one for this transaction (with a log entry
 * that has no changes), so a plan saved before it becomes stale. When no
 * record was found unchanged, nothing is written and the serial stays.
 * Returns the addresses marked.
 */
export async function recordRefresh(
  store: StateStore,
  report: DriftReport,
  meta: TxMeta,
  at: Date,
): Promise<string[]> {
  const unchanged = report.results.filter((r) => r.status === "unchanged");
  if (unchanged.length === 0) return [];
  return await store.transaction(meta, async (tx) => {
    const marked: string[] = [];
    for (const r of unchanged) {
      const now = await tx.getRecord(r.record.address);
      if (
        now && now.updatedAt === r.record.updatedAt &&
        Date.parse(now.refreshedAt) <= at.getTime() &&
        isDeepStrictEqual(now.attributes, r.record.attributes)
      ) marked.push(r.record.address);
    }
    if (marked.length) await tx.markRefreshed(marked, at.toISOString());
    return marked;
  });
}
