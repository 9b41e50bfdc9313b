/**
 * Reading a file that someone else may have put in the way.
 *
 * An agent can write any file inside the root, and may have made symbolic
 * links: what pravo reads there (a plan file, the approvals, a cache entry,
 * a `.cue` file, the settings the MCP server watches) may be a FIFO, whose
 * `open` blocks until a writer comes (forever), a link to `/dev/zero` or
 * `/dev/stdin`, or a file of many gigabytes. Reading one of those with
 * `readFileSync` blocks the process or exhausts its memory; in the MCP
 * server, that is every call of every client.
 *
 * {@link readRegular} opens without blocking (`O_NONBLOCK`), optionally
 * without following a final symbolic link, checks that what
 * it opened is a regular file of at most `maxBytes`, and reads exactly the
 * size it had when opened (a file that grows meanwhile is read to that
 * size). It throws a {@link FileRefusal} that says which of those failed;
 * the caller turns it into its own message.
 *
 * @module
 */

import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from "node:fs";

/** Why a file was not read. */
export class FileRefusal extends Error {
  constructor(
    readonly reason: "missing" | "not-regular" | "link" | "too-large" | "unreadable",
    message: string,
    /** The file's size, for `too-large`. */
    readonly size?: number,
  ) {
    super(message);
    this.name = "FileRefusal";
  }
}

export interface ReadRegularOptions {
  /** The most bytes read; a larger file is refused (`too-large`). */
  maxBytes: number;
  /** Refuse a final symbolic link instead of following it. */
  noFollow?: boolean;
}

function describe(st: ReturnType<typeof fstatSync>): string {
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a FIFO (a named pipe)";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  return "not a regular file";
}

/**
 * Reads a regular file of at most `maxBytes`, never blocking on a FIFO or a
 * device. Throws {@link FileRefusal}.
 */
export function readRegular(path: string, opts: ReadRegularOptions): Uint8Array {
  // Deno drops O_NOFOLLOW when it checks read permissions (measured under
  // --allow-read=DIR: the link is followed), so the link is looked for first,
  // and what was opened must be what was looked at.
  let looked: { ino: number; dev: number } | undefined;
  if (opts.noFollow) {
    try {
      const st = lstatSync(path);
      if (st.isSymbolicLink()) throw new FileRefusal("link", "it is a symbolic link");
      looked = { ino: st.ino, dev: st.dev };
    } catch (e) {
      if (e instanceof FileRefusal) throw e;
      const code = (e as { code?: string }).code;
      if (code === "ENOENT" || code === "ENOTDIR") {
        throw new FileRefusal("missing", "there is no such file");
      }
      throw new FileRefusal("unreadable", (e as Error).message);
    }
  }
  let fd: number;
  try {
    fd = openSync(
      path,
      constants.O_RDONLY | constants.O_NONBLOCK | (opts.noFollow ? constants.O_NOFOLLOW : 0),
    );
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new FileRefusal("missing", "there is no such file");
    }
    if (code === "ELOOP" && opts.noFollow) {
      throw new FileRefusal("link", "it is a symbolic link");
    }
    if (code === "EISDIR") throw new FileRefusal("not-regular", "it is a directory");
    throw new FileRefusal("unreadable", (e as Error).message);
  }
  try {
    const st = fstatSync(fd);
    if (looked && (st.ino !== looked.ino || st.dev !== looked.dev)) {
      throw new FileRefusal("link", "it changed while it was opened (a symbolic link?)");
    }
    if (!st.isFile()) throw new FileRefusal("not-regular", `it is ${describe(st)}`);
    if (st.size > opts.maxBytes) {
      throw new FileRefusal(
        "too-large",
        `it is ${st.size} bytes, more than the ${opts.maxBytes} pravo reads there`,
        st.size,
      );
    }
    const out = new Uint8Array(st.size);
    let got = 0;
    while (got < out.length) {
      const n = readSync(fd, out, got, out.length - got, got);
      if (n === 0) break; // shrank meanwhile
      got += n;
    }
    return got === out.length ? out : out.subarray(0, got);
  } catch (e) {
    if (e instanceof FileRefusal) throw e;
    throw new FileRefusal("unreadable", (e as Error).message);
  } finally {
    closeSync(fd);
  }
}

/** What {@link statRegular} tells of a file without reading it. */
export interface FileStamp {
  /** A regular file (links followed unless `noFollow`). */
  regular: boolean;
  size: number;
  mtimeMs: number;
  ino: number;
  dev: number;
}

/**
 * The stamp of a file, opened without blocking; undefined when it cannot be
 * opened. A FIFO or a device has `regular` false.
 */
export function statRegular(path: string): FileStamp | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    return { regular: st.isFile(), size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, dev: st.dev };
  } finally {
    closeSync(fd);
  }
}
