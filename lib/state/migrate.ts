/**
 * Copying a root's state from one store to another (`pravo state migrate`):
 * SQLite to PostgreSQL, back, or between databases.
 *
 * The copy is whole: the lineage and serial (so that saved plans stay
 * valid), every record with its times, the log as stored (its markers stay
 * comparable because the redaction key goes along), and the reservations.
 * The lock is not copied: the source's lock is held while copying, so that
 * nothing changes the state meanwhile.
 *
 * The target must not hold the root yet. After writing, the copy is opened
 * as any command would open it and compared with the source, through the
 * store interface: identity, records, log and reservations.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import type { Interrupts } from "../workspace/interrupts.ts";
import { DiagnosticsError, error } from "../diag/diag.ts";
import { openLocation } from "./open.ts";
import { type StateLocation } from "../config/location.ts";
import type { StateDump } from "./dump.ts";
import { exportFile, importFile } from "./sqlite/dump.ts";
import type { LockInfo, StateStore } from "./store.ts";

export type { StateDump };

/** What a migration copied. */
export interface MigrateResult {
  lineage: string;
  serial: number;
  records: number;
  logEntries: number;
  reservations: number;
}

/**
 * Copies the state at `from` to `to` and verifies the copy. Refuses when
 * `to` already holds a state for the root (or this lineage), when the two
 * are the same place, and while another process holds the source's lock.
 */
export async function migrateState(
  from: StateLocation,
  to: StateLocation,
  who: {
    actor: string;
    reason: string;
    root?: string;
    /** The command's interrupts: the source's lock is held for them, and an interrupt stops the copy. */
    interrupts?: Pick<Interrupts, "hold" | "throwIfInterrupted">;
  },
): Promise<MigrateResult> {
  if (samePlace(from, to)) {
    throw new DiagnosticsError([
      error(
        "The state is already there",
        `--to names the store the root uses now (${from.path}). Give another location.`,
      ),
    ], "usage");
  }
  const interrupts = who.interrupts;
  const source = await openLocation(from, {
    root: who.root,
    hold: interrupts && ((what: string) => interrupts.hold(what)),
  });
  let lock: LockInfo | undefined;
  try {
    lock = await source.acquireLock({
      actor: who.actor,
      reason: who.reason,
      command: "state migrate",
      timeoutMs: 10_000,
    });
    const dump = await exportState(source, from);
    // Interrupted before the copy is written, nothing is copied; once it is
    // being written, the copy is finished and verified (a short step).
    interrupts?.throwIfInterrupted("Nothing was copied; the source is unchanged.");
    await importState(to, dump);
    await verify(source, to, who.root);
    return {
      lineage: dump.lineage,
      serial: dump.serial,
      records: dump.records.length,
      logEntries: dump.log.length,
      reservations: dump.reservations.length,
    };
  } finally {
    if (lock) await source.releaseLock(lock).catch(() => {});
    await source.close();
  }
}

function samePlace(a: StateLocation, b: StateLocation): boolean {
  if (a.backend === "sqlite" || b.backend === "sqlite") {
    return a.backend === b.backend && a.path === b.path;
  }
  return a.rootKey === b.rootKey && a.schema === b.schema && a.database === b.database &&
    isDeepStrictEqual(a.hosts, b.hosts);
}

async function exportState(store: StateStore, where: StateLocation): Promise<StateDump> {
  if (where.backend === "postgres") {
    return await (store as import("./postgres/store.ts").PostgresStore).exportState();
  }
  return exportFile(where.path);
}

async function importState(where: StateLocation, dump: StateDump): Promise<void> {
  if (where.backend === "postgres") {
    const { PostgresStore } = await import("./postgres/store.ts");
    await PostgresStore.importState(where, dump);
    return;
  }
  await importFile(where.path, dump);
}

/** Opens the copy as a command would and compares it with the source. */
async function verify(source: StateStore, to: StateLocation, root?: string): Promise<void> {
  const copy = await openLocation(to, { root });
  try {
    const differs: string[] = [];
    const [a, b] = [await source.identity(), await copy.identity()];
    if (a.lineage !== b.lineage || a.serial !== b.serial) differs.push("lineage or serial");
    if (!isDeepStrictEqual(await source.listRecords(), await copy.listRecords())) {
      differs.push("records");
    }
    const log = async (s: StateStore) => (await s.readLog()).map(({ id: _id, ...rest }) => rest); // ids are each store's own
    if (!isDeepStrictEqual(await log(source), await log(copy))) differs.push("log");
    if (!isDeepStrictEqual(await source.readOutputs(), await copy.readOutputs())) {
      differs.push("outputs");
    }
    const res = (s: StateStore) => s.listReservations({ includeExpired: true });
    if (!isDeepStrictEqual(await res(source), await res(copy))) differs.push("reservations");
    if (differs.length) {
      throw new DiagnosticsError([
        error(
          "The copy differs from the source",
          `After copying, ${to.path} differs from the source in: ${differs.join(", ")}. ` +
            "The source is unchanged and still in use. Remove the copy (a SQLite file, or the " +
            "root's rows in PostgreSQL) and report this as a bug in pravo.",
        ),
      ], "error");
    }
  } finally {
    await copy.close();
  }
}
