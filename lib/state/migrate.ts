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

import { DatabaseSync, type SQLOutputValue } from "node:sqlite";
import { isDeepStrictEqual } from "node:util";
import { interrupts } from "../workspace/interrupts.ts";
import { DiagnosticsError, error } from "../diag/diag.ts";
import { openLocation } from "./open.ts";
import { type StateLocation } from "../config/location.ts";
import type { DumpedEntry, StateDump } from "./postgres.ts";
import { canonicalJson } from "../secrets/redact.ts";
import { providerDataColumn } from "../secrets/seal.ts";
import { SqliteStore, toRecord } from "./sqlite.ts";
import type { LockInfo, Reservation, StateStore } from "./store.ts";
import { asText, entryOfRow } from "./rows.ts";

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
  who: { actor: string; reason: string; root?: string },
): Promise<MigrateResult> {
  if (samePlace(from, to)) {
    throw new DiagnosticsError([
      error(
        "The state is already there",
        `--to names the store the root uses now (${from.path}). Give another location.`,
      ),
    ], "usage");
  }
  const source = await openLocation(from, { root: who.root });
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
    interrupts.throwIfInterrupted("Nothing was copied; the source is unchanged.");
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
    return await (store as import("./postgres.ts").PostgresStore).exportState();
  }
  return exportSqlite(where.path);
}

async function importState(where: StateLocation, dump: StateDump): Promise<void> {
  if (where.backend === "postgres") {
    const { PostgresStore } = await import("./postgres.ts");
    await PostgresStore.importState(where, dump);
    return;
  }
  await importSqlite(where.path, dump);
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

type Row = Record<string, SQLOutputValue>;

/** Every row of a SQLite state, read in one transaction. */
function exportSqlite(path: string): StateDump {
  const db = new DatabaseSync(path);
  try {
    db.exec("BEGIN");
    const meta: Record<string, string> = {};
    for (const r of db.prepare("SELECT key, value FROM meta").all()) {
      meta[String(r.key)] = String(r.value);
    }
    const records = db.prepare("SELECT * FROM records ORDER BY address").all().map(toRecord);
    const changes = new Map<number, DumpedEntry["changes"]>();
    for (const c of db.prepare("SELECT * FROM log_changes ORDER BY entry_id, seq").all()) {
      const list = changes.get(Number(c.entry_id)) ?? [];
      list.push({
        address: String(c.address),
        action: String(c.action),
        before: c.before === null ? null : String(c.before),
        after: c.after === null ? null : String(c.after),
      });
      changes.set(Number(c.entry_id), list);
    }
    const log: DumpedEntry[] = db.prepare("SELECT * FROM log_entries ORDER BY id").all().map((
      e,
    ) => ({
      ...entryOfRow(e, asText),
      changes: changes.get(Number(e.id)) ?? [],
    }));
    const reservations: Reservation[] = db.prepare(
      `SELECT r.*, (SELECT json_group_array(address) FROM
          (SELECT address FROM reservation_addresses WHERE reservation_id = r.id
           ORDER BY address)) AS addresses
       FROM reservations r ORDER BY r.created, r.id`,
    ).all().map((r) => ({
      id: String(r.id),
      addresses: JSON.parse(String(r.addresses)),
      actor: String(r.actor),
      reason: String(r.reason),
      planId: String(r.plan_id),
      created: String(r.created),
      expires: String(r.expires),
    }));
    db.exec("COMMIT");
    return {
      lineage: meta.lineage,
      serial: Number(meta.serial),
      schemaVersion: Number(meta.schema_version),
      redactionKey: meta.redaction_key,
      createdAt: meta.created_at ?? new Date(0).toISOString(),
      outputs: meta.outputs === undefined ? null : JSON.parse(meta.outputs),
      records,
      log,
      reservations,
    };
  } finally {
    db.close();
  }
}

/**
 * Writes `dump` into a new SQLite state at `path`: the store makes the file
 * and the schema, then one transaction puts the rows in. A file that holds a
 * state already is refused; a copy that fails half-way removes its file.
 */
async function importSqlite(path: string, dump: StateDump): Promise<void> {
  let existing = false;
  try {
    await Deno.stat(path);
    existing = true;
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  if (existing) {
    const s = await SqliteStore.open(path).catch(() => undefined);
    const id = s ? await s.identity() : undefined;
    await s?.close();
    throw new DiagnosticsError([
      error(
        "The target already holds a state",
        `"${path}" exists${id ? ` and holds lineage ${id.lineage} at serial ${id.serial}` : ""}. ` +
          "Nothing was copied. Move the file away, or give another sqlite:PATH.",
      ),
    ], "error");
  }
  const made = await SqliteStore.open(path, { create: true });
  await made.close();
  const db = new DatabaseSync(
    path,
    { timeout: 5000 } as ConstructorParameters<
      typeof DatabaseSync
    >[1],
  );
  try {
    db.exec("BEGIN IMMEDIATE");
    const setMeta = db.prepare("UPDATE meta SET value = ? WHERE key = ?");
    setMeta.run(dump.lineage, "lineage");
    setMeta.run(String(dump.serial), "serial");
    setMeta.run(dump.redactionKey, "redaction_key");
    setMeta.run(dump.createdAt, "created_at");
    if (dump.outputs != null) {
      db.prepare("INSERT INTO meta (key, value) VALUES ('outputs', ?)").run(
        JSON.stringify(dump.outputs),
      );
    }
    const rec = db.prepare(
      `INSERT INTO records (address, mode, type, provider, attributes, sensitive_paths,
         dependencies, config_digest, created_at, updated_at, refreshed_at, refresh_age,
         provider_data)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const r of dump.records) {
      rec.run(
        r.address,
        r.mode,
        r.type,
        r.provider,
        canonicalJson(r.attributes),
        JSON.stringify(r.sensitivePaths),
        JSON.stringify(r.dependencies),
        r.configDigest,
        r.createdAt,
        r.updatedAt,
        r.refreshedAt,
        r.refreshAge,
        providerDataColumn(undefined, dump.lineage, r),
      );
    }
    const entry = db.prepare(
      `INSERT INTO log_entries
         (serial, at, actor, reason, command, plan_id, plan_actor, plan_reason, run_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const change = db.prepare(
      `INSERT INTO log_changes (entry_id, seq, address, action, before, after)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    for (const e of dump.log) {
      const id = entry.run(
        e.serial,
        e.at,
        e.actor,
        e.reason,
        e.command,
        e.planId,
        e.planActor ?? null,
        e.planReason ?? null,
        e.run ?? null,
      ).lastInsertRowid;
      e.changes.forEach((c, seq) => change.run(id, seq, c.address, c.action, c.before, c.after));
    }
    const res = db.prepare(
      `INSERT INTO reservations (id, plan_id, actor, reason, created, expires)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    const addr = db.prepare(
      "INSERT INTO reservation_addresses (reservation_id, address) VALUES (?, ?)",
    );
    for (const r of dump.reservations) {
      res.run(r.id, r.planId, r.actor, r.reason, r.created, r.expires);
      for (const a of r.addresses) addr.run(r.id, a);
    }
    db.exec("COMMIT");
  } catch (e) {
    db.close();
    for (const suffix of ["", "-wal", "-shm", "-journal"]) {
      await Deno.remove(path + suffix).catch(() => {});
    }
    throw e;
  }
  db.close();
}
