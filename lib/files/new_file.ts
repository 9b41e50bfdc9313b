/**
 * Writing a new file: created with `O_EXCL` (never over anything that is
 * there, a link included), written whole and synced before it is closed.
 *
 * @module
 */

import { closeSync, fsyncSync, openSync, writeSync } from "node:fs";

/** Writes `text` to a new file at `path` with `mode` (less the umask); throws if anything is there. */
export function writeNewFile(path: string, text: string, mode: number): void {
  const fd = openSync(path, "wx", mode);
  try {
    const bytes = new TextEncoder().encode(text);
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
