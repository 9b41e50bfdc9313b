/**
 * Reading a root's `.cue` files beneath it: which there are, their bytes
 * (no link that leads out followed, no device opened, no file too large
 * read), and the diagnostic for one that is not UTF-8.
 *
 * @module
 */

import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { type Diagnostic, error } from "../../diag/diag.ts";
import type { BadByte } from "../../diag/text.ts";
import { FileRefusal, readRegular } from "../../files/regular.ts";
import { ConfinementError, realInsideRoot } from "../../providers/confine.ts";
import { pos } from "./sources.ts";

/** The most bytes of one `.cue` file pravo reads: a 10,000-node root is about 1 MB. */
export const MAX_SOURCE_BYTES = 64 * 1024 * 1024;

/**
 * The `.cue` files of a directory, sorted. Links are looked at, not
 * followed: where one leads is checked when it is read.
 */
export function cueFilesIn(dir: string): string[] {
  return readdirSync(dir).filter((n) => {
    if (!n.endsWith(".cue")) return false;
    const st = lstatSync(join(dir, n));
    return st.isFile() || st.isSymbolicLink();
  }).sort();
}

/**
 * The bytes of the root's file `name`, read beneath the root: a symbolic link
 * that leads outside it (or into `.pravo/`) is not followed, a FIFO or a
 * device is not opened, a file larger than {@link MAX_SOURCE_BYTES} is not
 * read. An agent with an editor can make such links, and the message of a
 * syntax error would quote what pravo read.
 */
export function readSource(root: string, name: string): Uint8Array | Diagnostic {
  const refuse = (why: string, todo: string) =>
    error(`Cannot read ${name}: ${why}`, todo, { range: pos(name, 1, 1) });
  let real: string;
  try {
    real = realInsideRoot(root, name);
  } catch (e) {
    if (!(e instanceof ConfinementError)) throw e;
    return refuse(
      e.message,
      "pravo reads the specification from the root's own files. Replace the symbolic link by the file itself, or remove it.",
    );
  }
  try {
    return readRegular(real, { maxBytes: MAX_SOURCE_BYTES });
  } catch (e) {
    if (!(e instanceof FileRefusal)) throw e;
    return refuse(
      e.message,
      "A .cue file of the root is a plain text file: replace it by one, or remove it.",
    );
  }
}

/** The diagnostic for a .cue file that is not UTF-8. */
export function notUtf8(name: string, bad: BadByte): Diagnostic {
  return error(
    "File is not UTF-8",
    `${name} holds the byte ${bad.byte} at line ${bad.line}, column ${bad.column}, which is not ` +
      "UTF-8: CUE source is UTF-8 text, and pravo does not guess another encoding. Save the " +
      "file as UTF-8, or write the character as an escape such as \\u00e9.",
    { range: pos(name, bad.line, bad.column) },
  );
}
