/**
 * A cache of file SHA-256 hashes, so that verifying a 700 MB provider
 * executable before each start costs a `stat`, not half a second of hashing.
 *
 * An entry is keyed by the file's device and inode (so that hard links of
 * one file share it) and is used only while the file's size, modification
 * time and status-change time (ctime) are unchanged too. The ctime cannot be set back by a user (any
 * write, `touch` or rename-over changes it), so a file whose content changed
 * never matches its old entry. A file is hashed again when it changed while
 * it was read.
 *
 * Deno reports the ctime in whole seconds, so an entry is recorded only for a
 * file whose ctime is in an earlier second than the moment of recording (as
 * Git treats "racily clean" files): any later change then carries a ctime
 * of a later second than the recorded one, and is seen.
 *
 * The cache lives outside every root (pravo's cache folder, see
 * `cache_dir.ts`): an agent that can write files in a root could otherwise
 * write an entry that vouches for a binary it planted.
 *
 * @module
 */

import { dirname } from "node:path";
import { sha256File } from "./hash.ts";

interface Entry {
  dev: number;
  ino: number;
  size: number;
  mtime: number;
  ctime: number;
  sha256: string;
  /** When it was last used (ms since the epoch), to keep the newest. */
  used: number;
}

interface CacheFile {
  format_version: "2";
  files: Record<string, Entry>;
}

/** At most this many files are remembered; the least recently used go first. */
const MAX_ENTRIES = 2000;

function identity(info: Deno.FileInfo): Omit<Entry, "sha256" | "used"> | undefined {
  if (info.ino === null || info.mtime === null || info.ctime === null) return undefined;
  return {
    dev: info.dev,
    ino: info.ino,
    size: info.size,
    mtime: info.mtime.getTime(),
    ctime: info.ctime.getTime(),
  };
}

function sameIdentity(a: Omit<Entry, "sha256" | "used">, b: Omit<Entry, "sha256" | "used">) {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtime === b.mtime &&
    a.ctime === b.ctime;
}

/** File hashes remembered in one JSON file. */
export class FileHashCache {
  /** The cache file; undefined: remembered in memory only. */
  readonly path: string | undefined;
  #files: Record<string, Entry> | undefined;
  #dirty = false;
  /** How many files were read and hashed (tests and measurements). */
  hashed = 0;

  /** `path`: the cache file, outside every root (undefined: in memory only). */
  constructor(path: string | undefined) {
    this.path = path;
  }

  #load(): Record<string, Entry> {
    if (this.#files) return this.#files;
    this.#files = {};
    if (this.path === undefined) return this.#files;
    try {
      const doc = JSON.parse(Deno.readTextFileSync(this.path)) as CacheFile;
      if (doc?.format_version === "2" && doc.files && typeof doc.files === "object") {
        this.#files = doc.files;
      }
    } catch {
      // missing or damaged: start afresh
    }
    return this.#files;
  }

  /** The SHA-256 (hex) of the file at `path`, from the cache when it did not change. */
  sha256(path: string): string {
    const real = Deno.realPathSync(path);
    const files = this.#load();
    const before = identity(Deno.statSync(real));
    const key = before ? `${before.dev}:${before.ino}` : undefined;
    const known = key === undefined ? undefined : files[key];
    if (before && known && sameIdentity(before, known)) {
      if (Date.now() - known.used > 3_600_000) {
        known.used = Date.now();
        this.#dirty = true;
      }
      return known.sha256;
    }
    const sha256 = sha256File(real);
    this.hashed++;
    const after = identity(Deno.statSync(real));
    const settled = after !== undefined &&
      Math.floor(after.ctime / 1000) < Math.floor(Date.now() / 1000);
    if (before && after && sameIdentity(before, after) && settled) {
      files[key!] = { ...after, sha256, used: Date.now() };
      this.#dirty = true;
    }
    return sha256;
  }

  /** Writes the cache (atomically, readable by its owner only) if it changed. */
  save(): void {
    if (!this.#dirty || !this.#files || this.path === undefined) return;
    const entries = Object.entries(this.#files).sort((a, b) => b[1].used - a[1].used)
      .slice(0, MAX_ENTRIES);
    const doc: CacheFile = { format_version: "2", files: Object.fromEntries(entries) };
    Deno.mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const tmp = `${this.path}.${Deno.pid}.${crypto.randomUUID()}.tmp`;
    Deno.writeTextFileSync(tmp, JSON.stringify(doc), { mode: 0o600 });
    try {
      Deno.renameSync(tmp, this.path);
    } catch (e) {
      try {
        Deno.removeSync(tmp);
      } catch { /* already gone */ }
      throw e;
    }
    this.#dirty = false;
  }
}
