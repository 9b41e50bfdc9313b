/**
 * Opening the SQLite store's file: for writing (the file made, the schema
 * migrated, the state made where asked, the values of an older state
 * sealed) or for reading only (no change to the file; an older schema is
 * left to a writer).
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import { DiagnosticsError, error } from "../../diag/diag.ts";
import { newRedactionKey } from "../../secrets/redact.ts";
import type { KeySource, Sealer } from "../../secrets/seal.ts";
import type { TypeLookup } from "../../providers/registry.ts";
import type { HoldFor } from "../lock/held.ts";
import { SCHEMA_VERSION } from "../store.ts";
import { REDACTION_KEY } from "../store_base.ts";
import { connect, connectReadOnly, createPrivateFile, fileExists, immediate } from "./connect.ts";
import { migrate, readMeta, refuseNewer, sealPlainValues } from "./schema.ts";

/** How the SQLite store is opened. */
export interface SqliteOptions {
  /** Create the file and the state when missing. */
  create?: boolean;
  /** The clock for every time the store writes; default the real one. */
  now?: () => Date;
  /** How long a write waits for another connection's transaction (ms). */
  busyTimeoutMs?: number;
  /** pravo's key, loaded when first needed; default from the environment. */
  key?: KeySource;
  /**
   * Open for reading only (the read commands): nothing is created or
   * migrated, the connections cannot write, and a state on a read-only file
   * system can still be read.
   */
  readOnly?: boolean;
  /** Looks up a record's type for its sensitive attributes; default the built-in providers'. */
  types?: TypeLookup;
  /** Marks the state lock held for the command's interrupts; default none. */
  hold?: HoldFor;
}

/** What a store is opened with: its connections and what its state says of itself. */
export interface Opened {
  write: DatabaseSync;
  read: DatabaseSync;
  created: boolean;
  redactionKey: string;
  lineage: string;
}

/** The error of a file that holds no pravo state. */
function notInitialised(path: string): DiagnosticsError {
  return new DiagnosticsError([
    error(
      "The state store is not initialised",
      `"${path}" holds no pravo state. Run \`pravo init\` to create it.`,
    ),
  ], "error");
}

/**
 * Opens `path` for writing: the file, the schema (migrated) and the state
 * (made with `create`), the values of an older state sealed.
 */
export function openWriting(
  path: string,
  opts: SqliteOptions & { now: () => Date; sealer: Sealer },
): Opened {
  const exists = fileExists(path);
  if (!exists && !opts.create) {
    throw new DiagnosticsError([
      error(
        "The state store does not exist",
        `There is no state store at "${path}". Run \`pravo init\` to create it.`,
      ),
    ], "error");
  }
  if (!exists) createPrivateFile(path);
  const write = connect(path, opts.busyTimeoutMs ?? 5000);
  let created = false;
  let meta: Record<string, string | undefined>;
  try {
    migrate(write, path);
    if (readMeta(write).lineage === undefined) {
      if (!opts.create) throw notInitialised(path);
      created = createState(write, { path, now: opts.now, sealer: opts.sealer });
    }
    if (readMeta(write).sealed !== "1") sealPlainValues(write, { path, sealer: opts.sealer });
    meta = readMeta(write);
  } catch (e) {
    write.close();
    throw e;
  }
  const read = connect(path, opts.busyTimeoutMs ?? 5000);
  return {
    write,
    read,
    created,
    redactionKey: meta.redaction_key ?? "",
    lineage: meta.lineage ?? "",
  };
}

/** Makes the state (its lineage, serial 0, the log's key); false when another process did. */
function createState(
  db: DatabaseSync,
  opts: { path: string; now: () => Date; sealer: Sealer },
): boolean {
  return immediate(db, opts.path, () => {
    if (readMeta(db).lineage !== undefined) return false; // another process won
    const put = db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)");
    const lineage = crypto.randomUUID();
    put.run("lineage", lineage);
    put.run("serial", "0");
    put.run("redaction_key", opts.sealer.sealText(lineage, REDACTION_KEY, newRedactionKey()));
    put.run("created_at", opts.now().toISOString());
    db.prepare("UPDATE meta SET value = '1' WHERE key = 'sealed'").run();
    return true;
  });
}

/**
 * Opens `path` with read-only connections; undefined when its schema is
 * older than this pravo's (it must be migrated by a writer first). On a
 * read-only file system with no WAL left behind, SQLite cannot make the
 * shared-memory file it reads through, so the file is opened as immutable.
 */
export function openReadOnly(path: string, opts: SqliteOptions): Opened | undefined {
  const db = connectReadOnly(path, opts.busyTimeoutMs ?? 5000);
  const meta = readMeta(db);
  const version = Number(meta.schema_version ?? 0);
  refuseNewer(version, path);
  // An older schema, or values not sealed yet: a writer brings it up to date first.
  if (version < SCHEMA_VERSION || meta.sealed !== "1") {
    db.close();
    return undefined;
  }
  if (meta.lineage === undefined) {
    db.close();
    throw notInitialised(path);
  }
  // One connection serves both sides: nothing is written through it.
  return {
    write: db,
    read: db,
    created: false,
    redactionKey: meta.redaction_key ?? "",
    lineage: meta.lineage,
  };
}
