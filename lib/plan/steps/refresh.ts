/**
 * Refresh: which records are due to be read from the real world (their
 * refresh age has passed, their value expired, `--refresh all`), and the
 * reads, eight at a time. What a read finds is what the plan starts from;
 * the other records start from what the state holds.
 *
 * @module
 */

import type { Diagnostic } from "../../diag/diag.ts";
import type { StateRecord } from "../../state/store.ts";
import type { Registry } from "../../providers/registry.ts";
import type { ProviderSession } from "../../providers/session.ts";
import type { StoredObject } from "../../providers/resource_provider.ts";
import { bounded } from "../../graph/walk.ts";
import { parseDuration } from "../duration.ts";
import type { Locatable } from "../located.ts";
import type { RefreshMode } from "../options.ts";
import type { Attrs } from "../types.ts";

/** The schema version and private data of an object, as its provider last gave them. */
export type StoredMeta = Pick<StoredObject, "schemaVersion" | "private">;

/** What the plan starts from, record by record. */
export interface Refreshed {
  /** Each record's attributes: as read now (null: its object is gone), else as stored. */
  prior: Map<string, Attrs | null>;
  /** Each record's schema version and private data, as read now or as stored. */
  stored: Map<string, StoredMeta>;
  /** Why each record that was read was due. */
  refreshed: Map<string, string>;
  /** What the reads said, pointed at the records. */
  diagnostics: Diagnostic[];
}

/**
 * Why a record is due to be read, or undefined when it is not: `--refresh
 * all`; with `age`, a refresh age that has passed (or is 0s); with `age` and
 * `expired`, a value whose provider says it has expired.
 */
export function refreshDue(
  rec: Pick<StateRecord, "refreshAge" | "refreshedAt" | "attributes">,
  how: {
    refresh: RefreshMode;
    now: () => Date;
    expiresAt: (attributes: Attrs) => string | undefined;
  },
): string | undefined {
  const { refresh, now } = how;
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
    const exp = how.expiresAt(rec.attributes);
    if (exp !== undefined && Date.parse(exp) <= now().getTime()) {
      due = `its value expired at ${exp}`;
    }
  }
  return due;
}

/**
 * Reads the managed records that are due ({@linkcode refreshDue}) from the
 * real world, at most eight at once, with the providers of `how.session`.
 */
export async function refreshRecords(
  records: ReadonlyMap<string, StateRecord>,
  how: {
    session: Pick<ProviderSession, "providerFor">;
    refresh: RefreshMode;
    now: () => Date;
    root: string;
    located: (n: Locatable) => (d: Diagnostic) => Diagnostic;
    /** The registry every type is looked up in (the sources'). */
    registry: Registry;
  },
): Promise<Refreshed> {
  const { refresh, now } = how;
  const out: Refreshed = {
    prior: new Map(),
    stored: new Map(),
    refreshed: new Map(),
    diagnostics: [],
  };
  const reads: (() => Promise<void>)[] = [];
  for (const rec of records.values()) {
    out.prior.set(rec.address, rec.attributes);
    out.stored.set(rec.address, { schemaVersion: rec.schemaVersion, private: rec.private });
    if (rec.mode !== "managed" || refresh === "false") continue;
    const type = how.registry.findType(rec.provider, rec.mode, rec.type);
    if (!type) continue;
    const provider = await how.session.providerFor(rec);
    if (!provider.canRead(type)) continue;
    const due = refreshDue(rec, {
      refresh,
      now,
      expiresAt: (attributes) => provider.expiresAt(type, attributes),
    });
    if (!due) continue;
    out.refreshed.set(rec.address, due);
    reads.push(async () => {
      const res = await provider.readResource({
        type,
        address: rec.address,
        root: how.root,
        providerConfig: {},
        prior: {
          attributes: rec.attributes,
          schemaVersion: rec.schemaVersion,
          private: rec.private,
        },
      });
      out.diagnostics.push(...res.diagnostics.map(how.located(rec)));
      if (res.value !== undefined) {
        out.prior.set(rec.address, res.value === null ? null : res.value.attributes);
        if (res.value) {
          out.stored.set(rec.address, {
            schemaVersion: res.value.schemaVersion,
            private: res.value.private,
          });
        }
      }
    });
  }
  await bounded(reads, 8);
  return out;
}
