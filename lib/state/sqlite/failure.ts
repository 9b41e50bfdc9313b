/**
 * The SQLite store's failures as diagnostics: a damaged file, a full disk, a
 * read-only file system, a file that cannot be opened, each saying what was
 * kept and what to do; and the store wrapped so that a failure met in the
 * middle of a command is reported as such and not as a bug.
 *
 * @module
 */

import { DiagnosticsError, error } from "../../diag/diag.ts";
import {
  diskFull,
  isDamagedDatabase,
  isDiskFull,
  isReadOnly,
  readOnlyFileSystem,
  sqliteCode,
} from "../../diag/io.ts";

/** SQLite's code for a file it cannot open. */
export const SQLITE_CANTOPEN = 14;

/**
 * A failure of SQLite on the state file as a diagnostic: a damaged file, a
 * full disk, a read-only file system. Others (a bug) are returned as they are.
 */
export function storeFailure(e: unknown, path: string, doing: "opening" | "using"): unknown {
  if (e instanceof DiagnosticsError) return e;
  const msg = (e as Error)?.message ?? String(e);
  if (isDamagedDatabase(e)) {
    return new DiagnosticsError([
      error(
        "The state store is damaged",
        `SQLite says "${msg}" of "${path}": the file is not a pravo state store, or it was ` +
          "damaged (a disk error, a copy made while it was written, an edit). Nothing was " +
          `written. Restore it from a backup; if "${path}-wal" is beside the damaged file, ` +
          "keep it with the restored one only if it belongs to it (it holds the latest " +
          `committed transactions). \`sqlite3 "${path}" .recover\` can save what is still ` +
          "readable. If the state is lost, `pravo init` makes a new, empty one; the real " +
          "world then has to be imported or recreated.",
      ),
    ], "error");
  }
  if (isDiskFull(e)) {
    return new DiagnosticsError([
      diskFull(
        path,
        "The transaction was rolled back: the state is as it was before it, and nothing is " +
          "half-written.",
      ),
    ], "error");
  }
  if (isReadOnly(e) || (doing === "opening" && cannotWrite(path))) {
    return new DiagnosticsError(
      [readOnlyFileSystem(path, "The state was not changed.")],
      "error",
    );
  }
  const code = sqliteCode(e);
  if (code === 10 || code === SQLITE_CANTOPEN || /disk I\/O error/i.test(msg)) {
    return new DiagnosticsError([
      error(
        `Cannot ${doing === "opening" ? "open" : "read or write"} the state store "${path}"`,
        `SQLite says: ${msg}. The disk may be full or failing, or the file or its folder may ` +
          "not be readable and writable by you. Nothing was written. Check the disk (df, " +
          "dmesg) and the permissions of the file and its folder, then try again.",
      ),
    ], "error");
  }
  if (doing === "opening" && (e as { code?: string })?.code === "ERR_SQLITE_ERROR") {
    return new DiagnosticsError([
      error(
        `Cannot open the state store "${path}"`,
        `SQLite says: ${msg}. Check that the file is a pravo state store and that you may read ` +
          "and write it and its folder; if it is damaged, restore it from a backup.",
      ),
    ], "error");
  }
  return e;
}

/** True when `path` exists and cannot be opened for writing (read-only file system, mode). */
function cannotWrite(path: string): boolean {
  try {
    Deno.openSync(path, { write: true }).close();
    return false;
  } catch (e) {
    return e instanceof Deno.errors.PermissionDenied || (e as { code?: string }).code === "EROFS";
  }
}

/**
 * The store with every method's SQLite failures turned into diagnostics
 * ({@linkcode storeFailure}), so that a damaged file or a full disk met in
 * the middle of a command is reported as such and not as a bug.
 */
export function guarded<T extends object>(store: T, path: string): T {
  return new Proxy(store, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target);
      if (typeof v !== "function") return v;
      return (...args: unknown[]) => {
        try {
          const r = v.apply(target, args);
          return r instanceof Promise
            ? r.catch((e: unknown) => {
              throw storeFailure(e, path, "using");
            })
            : r;
        } catch (e) {
          throw storeFailure(e, path, "using");
        }
      };
    },
  });
}
