/**
 * Input and output failures that are not bugs: a full disk, a read-only file
 * system, a damaged SQLite file. Each becomes a diagnostic that names the
 * file and says what to do, instead of an internal error with a stack trace.
 *
 * @module
 */

import { type Diagnostic, error } from "./diag.ts";

/** SQLite's primary result codes that pravo tells apart (`errcode & 0xff`). */
const SQLITE = {
  READONLY: 8,
  IOERR: 10,
  CORRUPT: 11,
  FULL: 13,
  CANTOPEN: 14,
  NOTADB: 26,
} as const;

/** The system error code of `e` (`ENOSPC`), when it has one. */
export function errorCode(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** SQLite's primary result code of a `node:sqlite` error, when it is one. */
export function sqliteCode(e: unknown): number | undefined {
  const c = (e as { errcode?: unknown } | null)?.errcode;
  return typeof c === "number" ? c & 0xff : undefined;
}

function messageOf(e: unknown): string {
  return (e as Error)?.message ?? String(e);
}

/** True when `e` says the disk (or the user's quota) is full. */
export function isDiskFull(e: unknown): boolean {
  const code = errorCode(e);
  if (code === "ENOSPC" || code === "EDQUOT") return true;
  if (sqliteCode(e) === SQLITE.FULL) return true;
  return /no space left on device|database or disk is full|disk quota exceeded/i.test(
    messageOf(e),
  );
}

/** True when `e` says the file system, or the file, cannot be written. */
export function isReadOnly(e: unknown): boolean {
  const code = errorCode(e);
  if (code === "EROFS") return true;
  if (sqliteCode(e) === SQLITE.READONLY) return true;
  return /read-only file system|attempt to write a readonly database/i.test(messageOf(e));
}

/** True when `e` is SQLite saying that a file is not a database or is damaged. */
export function isDamagedDatabase(e: unknown): boolean {
  const c = sqliteCode(e);
  if (c === SQLITE.CORRUPT || c === SQLITE.NOTADB) return true;
  return /database disk image is malformed|file is not a database/i.test(messageOf(e));
}

/** The path a Deno or Node file-system error names, when it names one. */
export function pathOf(e: unknown): string | undefined {
  const p = (e as { path?: unknown } | null)?.path;
  if (typeof p === "string") return p;
  const m = /'([^']+)'(?:[^']*)$/.exec(messageOf(e));
  return m?.[1];
}

/**
 * The diagnostic for a full disk while writing `path`. `kept` says what the
 * failure left as it was; it must be true of the caller.
 */
export function diskFull(path: string | undefined, kept: string): Diagnostic {
  const where = path ? `"${path}"` : "a file";
  return error(
    "The disk is full",
    `Writing ${where} failed: there is no space left on the device that holds it (or the ` +
      `user's disk quota is used up). ${kept} Free some space there, then run the command again.`,
  );
}

/** The diagnostic for a file system that cannot be written. */
export function readOnlyFileSystem(path: string | undefined, kept: string): Diagnostic {
  const where = path ? `"${path}"` : "a file";
  return error(
    "Cannot write: the file system is read-only",
    `Writing ${where} failed: the file system that holds it is mounted read-only, or pravo may ` +
      `not write there. ${kept} Commands that only read (validate, plan without --out, show, ` +
      "state show, state log, state locks, output) still work; to change anything, run pravo " +
      "where the root can be written.",
  );
}

/**
 * A known input or output failure as a diagnostic, or undefined when `e` is
 * something else (then it is a bug). For errors that reach `main.ts` from a
 * place that did not expect them.
 */
export function ioFailure(e: unknown): Diagnostic | undefined {
  const kept = "Nothing was half-written: pravo replaces files atomically and writes the state " +
    "in transactions, so what failed was left as it was.";
  if (isDiskFull(e)) return diskFull(pathOf(e), kept);
  if (isReadOnly(e)) return readOnlyFileSystem(pathOf(e), kept);
  return undefined;
}
