/**
 * The SQLite store's file and connections: the folder (0700) and the file
 * (0600) made where missing; a writing connection in WAL mode with
 * `synchronous=FULL` (a committed transaction survives a crash of the
 * process or of the machine), `secure_delete` (a deleted record's values do
 * not linger in free pages) and a busy timeout (a second writer waits for
 * the first instead of failing at once); a read-only one, immutable where
 * the file system cannot be written; and `BEGIN IMMEDIATE` transactions.
 *
 * @module
 */

import { DatabaseSync } from "node:sqlite";
import { dirname } from "node:path";
import { DiagnosticsError, error } from "../../diag/diag.ts";
import { sqliteCode } from "../../diag/io.ts";
import { SQLITE_CANTOPEN, storeFailure } from "./failure.ts";

/** True when `path` exists. */
export function fileExists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
}

/** Makes the folder (0700) and an empty file (0600) where they are missing. */
export function createPrivateFile(path: string): void {
  const dir = dirname(path);
  if (!fileExists(dir)) {
    Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    Deno.chmodSync(dir, 0o700);
  }
  try {
    Deno.openSync(path, { write: true, createNew: true, mode: 0o600 }).close();
    Deno.chmodSync(path, 0o600);
  } catch (e) {
    if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
  }
}

/** A writing connection to the file at `path` (see the module's doc). */
export function connect(path: string, busyTimeoutMs: number): DatabaseSync {
  let db: DatabaseSync;
  try {
    // `timeout` (the busy timeout) is newer than the @types/node we pin.
    db = new DatabaseSync(
      path,
      { timeout: busyTimeoutMs } as ConstructorParameters<
        typeof DatabaseSync
      >[1],
    );
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = FULL");
    db.exec("PRAGMA secure_delete = ON");
    db.prepare("SELECT count(*) FROM sqlite_schema").get(); // reads the header
  } catch (e) {
    throw storeFailure(e, path, "opening");
  }
  return db;
}

/**
 * A read-only connection. Where SQLite cannot make its shared-memory file
 * (a read-only file system) and no write-ahead log holds commits that the
 * file lacks, the file is opened as immutable: nothing can change it there.
 */
export function connectReadOnly(path: string, busyTimeoutMs: number): DatabaseSync {
  const options = { readOnly: true, timeout: busyTimeoutMs } as ConstructorParameters<
    typeof DatabaseSync
  >[1];
  try {
    const db = new DatabaseSync(path, options);
    db.prepare("SELECT count(*) FROM sqlite_schema").get(); // reads the header
    return db;
  } catch (e) {
    if (sqliteCode(e) !== SQLITE_CANTOPEN || walHoldsCommits(path)) {
      throw storeFailure(e, path, "opening");
    }
  }
  try {
    const db = new DatabaseSync(`file:${encodeURI(path)}?immutable=1`, options);
    db.prepare("SELECT count(*) FROM sqlite_schema").get();
    return db;
  } catch (e) {
    throw storeFailure(e, path, "opening");
  }
}

/** True when a write-ahead log beside `path` may hold transactions the file lacks. */
function walHoldsCommits(path: string): boolean {
  try {
    return Deno.statSync(`${path}-wal`).size > 0;
  } catch {
    return false;
  }
}

/** `BEGIN IMMEDIATE`, with a busy database reported as a held lock. */
export function begin(db: DatabaseSync, path: string): void {
  try {
    db.exec("BEGIN IMMEDIATE");
  } catch (e) {
    const msg = (e as Error)?.message ?? "";
    if (/database is locked|database is busy/i.test(msg)) {
      throw new DiagnosticsError([
        error(
          "The state database is busy",
          `Another process kept a write transaction open on "${path}" longer than the ` +
            "busy timeout. Wait for it to finish, then try again.",
        ),
      ], "locked");
    }
    throw e;
  }
}

/** Runs `fn` in a `BEGIN IMMEDIATE` transaction: committed, or rolled back on a throw. */
export function immediate<T>(db: DatabaseSync, path: string, fn: () => T): T {
  begin(db, path);
  try {
    const v = fn();
    db.exec("COMMIT");
    return v;
  } catch (e) {
    rollback(db);
    throw e;
  }
}

/** Rolls back the open transaction, if one is open (`isTransaction`, newer than our @types/node). */
export function rollback(db: DatabaseSync): void {
  if ((db as unknown as { isTransaction: boolean }).isTransaction) db.exec("ROLLBACK");
}
