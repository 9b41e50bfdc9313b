/**
 * The beacon of a SQLite state lock: how another process on the same host
 * tells at once whether the lock's holder is still running, with no more
 * permission than reading the state's folder.
 *
 * The holder of lock ID keeps `<state file>-locks/ID` open with an exclusive
 * advisory lock (`flock`) for as long as it holds the state lock. The kernel
 * drops an advisory lock when its process ends, however it ends (SIGKILL, a
 * crash), so a beacon that another process can lock means that its holder is
 * gone. This is the SQLite counterpart of the PostgreSQL store's beacon (a
 * session-level advisory lock). Reading `/proc` or sending signal 0 would
 * tell the same, but Deno grants them only with `--allow-all` or
 * `--allow-run`, which pravo does not take.
 *
 * A beacon file that is missing tells nothing: the lock's expiry decides.
 *
 * @module
 */

import { join } from "node:path";

/** A beacon this process holds. */
export interface Beacon {
  readonly id: string;
  /** Lets it go and removes its file. */
  release(): void;
}

/** The folder of the beacons of the state in `dbPath`. */
export function beaconDir(dbPath: string): string {
  return `${dbPath}-locks`;
}

/** The beacon file of lock `id`; undefined for an id that is not a lock id (a damaged row). */
function beaconPath(dbPath: string, id: string): string | undefined {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)) return undefined;
  return join(beaconDir(dbPath), id);
}

/**
 * Takes the beacon of lock `id`: makes its file (0600, in a 0700 folder) and
 * locks it. Undefined when the file cannot be made (no permission): the lock
 * then works without a beacon, as before, and lapses by its expiry.
 */
export function takeBeacon(dbPath: string, id: string): Beacon | undefined {
  const path = beaconPath(dbPath, id);
  if (path === undefined) throw new Error(`bug: "${id}" is not a lock id`);
  let file: Deno.FsFile;
  try {
    Deno.mkdirSync(beaconDir(dbPath), { recursive: true, mode: 0o700 });
    // A link in its place (an agent can make one in the root) would put the
    // beacon wherever it leads: no beacon then.
    if (!plainDir(beaconDir(dbPath))) return undefined;
    file = Deno.openSync(path, { read: true, write: true, createNew: true, mode: 0o600 });
  } catch {
    return undefined;
  }
  try {
    if (!file.tryLockSync(true)) throw new Error("bug: a new beacon file is locked already");
  } catch (e) {
    file.close();
    removeQuietly(path);
    if (e instanceof Error && e.message.startsWith("bug:")) throw e;
    return undefined; // a file system without advisory locks
  }
  let released = false;
  return {
    id,
    release() {
      if (released) return;
      released = true;
      removeQuietly(path);
      try {
        file.unlockSync();
      } catch {
        // closing lets it go too
      }
      file.close();
    },
  };
}

/**
 * What the beacon of lock `id` says of its holder: `held` (running), `free`
 * (gone), or `missing` (no beacon: cannot tell).
 */
export function beaconState(dbPath: string, id: string): "held" | "free" | "missing" {
  const path = beaconPath(dbPath, id);
  if (path === undefined) return "missing";
  // Only a regular file in the beacons' own folder: opening a FIFO an agent
  // left there would block until a writer came, and a link may lead anywhere.
  if (!plainDir(beaconDir(dbPath))) return "missing";
  try {
    const st = Deno.lstatSync(path);
    if (!st.isFile) return "missing";
  } catch {
    return "missing";
  }
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true });
  } catch {
    return "missing";
  }
  try {
    if (!file.tryLockSync(true)) return "held";
    file.unlockSync();
    return "free";
  } catch {
    return "missing"; // no advisory locks here: cannot tell
  } finally {
    file.close();
  }
}

/** Removes the beacon file of a lock that is gone (best effort). */
export function removeBeacon(dbPath: string, id: string): void {
  const path = beaconPath(dbPath, id);
  if (path !== undefined && plainDir(beaconDir(dbPath))) removeQuietly(path);
}

/** True when `path` is a folder itself, not a symbolic link to one. */
function plainDir(path: string): boolean {
  try {
    return Deno.lstatSync(path).isDirectory;
  } catch {
    return false;
  }
}

function removeQuietly(path: string): void {
  try {
    Deno.removeSync(path);
  } catch {
    // gone already, or not ours to remove
  }
}
