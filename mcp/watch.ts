/**
 * The files the server pinned at start (policies, approvers, the lock),
 * watched: a change is told to the operator once, and the server goes on
 * with what it read.
 *
 * @module
 */

import { digestOf } from "../lib/workspace/pinned_files.ts";
import { readRegular, statRegular } from "../lib/files/regular.ts";
import type { ServerOptions } from "./server.ts";

/** Digests already reported, per file: a change is said once. */
const reported = new Map<string, string>();
/** The last look at each watched file: its stamp and digest, so that an unchanged file is not read again. */
const lastSeen = new Map<string, { stamp: string; digest: string }>();

/**
 * Tells the operator (stderr) when a file the server pinned at start has
 * changed since: the server goes on with what it read, and says so. A file
 * is read only when its size, time or inode changed, never when it is not a
 * regular file (a FIFO, a link to a device) and never beyond
 * {@link MAX_WATCHED_BYTES}: an agent cannot make this stall or exhaust the
 * server.
 */
export async function reportChanges(
  opts: Pick<ServerOptions, "watched" | "log">,
): Promise<void> {
  if (!opts.watched?.length || !opts.log) return;
  for (const w of opts.watched) {
    const now = await watchedDigest(w.file);
    if (now === w.digest || reported.get(w.file) === now) continue;
    reported.set(w.file, now);
    opts.log(
      `Warning: ${w.what} changed since the server started. This server keeps what it read at start, ` +
        `and its tool calls do not see the change; restart the server to use the new content. ` +
        `An agent can edit every file inside the root: keep policies outside it.\n`,
    );
  }
}

/** The most bytes of a watched file that the server reads to tell whether it changed. */
export const MAX_WATCHED_BYTES = 16 * 1024 * 1024;

/** The digest of a watched file now, as {@link digestOf} gives it, or a marker of what is there instead. */
export async function watchedDigest(file: string): Promise<string> {
  const st = statRegular(file);
  if (st === undefined) return "";
  if (!st.regular) return "(not a regular file)";
  const stamp = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;
  const seen = lastSeen.get(file);
  if (seen?.stamp === stamp) return seen.digest;
  let digest: string;
  if (st.size > MAX_WATCHED_BYTES) digest = `(${st.size} bytes)`;
  else {
    try {
      digest = await digestOf(file, readRegular(file, { maxBytes: MAX_WATCHED_BYTES }));
    } catch {
      digest = "(unreadable)";
    }
  }
  lastSeen.set(file, { stamp, digest });
  return digest;
}
