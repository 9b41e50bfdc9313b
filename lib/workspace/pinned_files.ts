/**
 * The files behind what `pravo mcp` pins (pinned.ts): the lock file read
 * once, and the digests of the files the server watches. Apart from
 * pinned.ts so that every pravo process does not load `node:fs` (~20 ms)
 * before it knows it needs it: `pravo --version` does not.
 *
 * @module
 */

import { join } from "node:path";
import { FileRefusal, readRegular } from "../files/regular.ts";
import { LOCK_FILE } from "../providers/install/lock.ts";
import { MAX_LOCK_FILE_BYTES, type Pinned, pinnedFor } from "./pinned.ts";

/**
 * `ROOT/pravo.lock.json` read now (never a FIFO or a device, at most
 * {@link MAX_LOCK_FILE_BYTES}); undefined when there is none. Throws a
 * {@link FileRefusal} when it cannot be used.
 */
export function readLockFileText(root: string): string | undefined {
  try {
    return new TextDecoder().decode(
      readRegular(join(root, LOCK_FILE), { maxBytes: MAX_LOCK_FILE_BYTES }),
    );
  } catch (e) {
    if (e instanceof FileRefusal && e.reason === "missing") return undefined;
    throw e;
  }
}

/**
 * SHA-256 of a file's bytes (of `content` when given), hex; "" when it cannot
 * be read. The file is read as {@link readRegular} does: never a FIFO or a
 * device, at most 16 MiB.
 */
export async function digestOf(file: string, content?: string | Uint8Array): Promise<string> {
  let bytes: Uint8Array;
  try {
    bytes = typeof content === "string"
      ? new TextEncoder().encode(content)
      : content ?? readRegular(file, { maxBytes: 16 * 1024 * 1024 });
  } catch {
    return "";
  }
  const d = new Uint8Array(
    await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>),
  );
  return Array.from(d, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The text of `ROOT/pravo.lock.json`: as pinned when this process is a child
 * of `pravo mcp` for that root (undefined when the root had none at start),
 * else read from the file now.
 */
export function lockFileText(root: string, pinned: Pinned | undefined): string | undefined {
  const p = pinnedFor(pinned, root);
  if (p) return p.lockFile;
  return readLockFileText(root);
}
