/**
 * Plan files: everything apply needs, written atomically, checked whole when
 * read. A file that was edited or truncated, made for another root, or of a
 * newer format is refused, each with its own exit code.
 *
 * The file is JSON: `{"pravo_plan": FORMAT, "digest": SHA-256 of body,
 * "body": {...}}`. It holds the sources the plan was made from and the
 * inputs apply will use, which may be sensitive: it is written readable by
 * its owner only (0600).
 *
 * @module
 */

import { createHash } from "node:crypto";
import {
  closeSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { DiagnosticsError, error } from "../diag/diag.ts";
import { diskFull, isDiskFull, isReadOnly, readOnlyFileSystem } from "../diag/io.ts";
import { decodeUtf8 } from "../diag/text.ts";
import { Exit } from "../cli/exit.ts";
import { type Plan, PLAN_FORMAT_VERSION } from "./types.ts";

function sha256(s: string): string {
  return createHash("sha256").update(s).digest("hex");
}

/** The digest of a plan file's body: what an approval binds to. */
export function planDigest(plan: Plan): string {
  return sha256(JSON.stringify(plan));
}

/** Writes the plan file atomically: a temporary file beside it, synced, renamed. */
export function writePlanFile(path: string, plan: Plan): void {
  const body = JSON.stringify(plan);
  const text =
    JSON.stringify({ pravo_plan: PLAN_FORMAT_VERSION, digest: sha256(body), body: plan }) + "\n";
  const tmp = join(dirname(path), `.${basename(path)}.${Deno.pid}.tmp`);
  try {
    const fd = openSync(tmp, "w", 0o600);
    try {
      const bytes = new TextEncoder().encode(text);
      let off = 0;
      while (off < bytes.length) off += writeSync(fd, bytes, off);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      // nothing left behind
    }
    // Nothing is left half-written: the target is replaced only by the rename.
    const kept = "No plan file was written, and a file already at that path was left as it was.";
    if (isDiskFull(e)) throw new DiagnosticsError([diskFull(path, kept)], Exit.ERROR);
    if (isReadOnly(e)) throw new DiagnosticsError([readOnlyFileSystem(path, kept)], Exit.ERROR);
    throw new DiagnosticsError([
      error(
        "Cannot write the plan file",
        `Writing "${path}" failed: ${
          (e as Error).message
        }. Check that its directory exists and is writable, or give another --out path.`,
      ),
    ], Exit.ERROR);
  }
}

/** Reads and checks a plan file for `root`. */
export function readPlanFile(path: string, root: string): Plan {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    const why = (e as { code?: string }).code === "ENOENT"
      ? "There is no such file"
      : (e as { code?: string }).code === "EISDIR"
      ? "It is a directory"
      : `Reading it failed: ${(e as Error).message}`;
    throw new DiagnosticsError([
      error(
        `Cannot read plan "${path}"`,
        `${why}. Give the path of a file written by \`pravo plan --out FILE\`; relative paths are read from the root.`,
      ),
    ], Exit.ERROR);
  }
  const corrupt = (why: string) =>
    new DiagnosticsError([
      error(
        `Plan file "${path}" is damaged`,
        `${why}. A plan file must be used as \`pravo plan --out\` wrote it; make a new plan.`,
      ),
    ], Exit.PLAN_CORRUPT);
  // pravo writes plan files as UTF-8 JSON: a byte that is not UTF-8 was put there by something else.
  const read = decodeUtf8(bytes);
  if (!read.ok) {
    throw corrupt(
      `It is not UTF-8 text: the byte ${read.bad.byte} at line ${read.bad.line}, column ${read.bad.column}`,
    );
  }
  const text = read.text;
  let outer: { pravo_plan?: unknown; digest?: unknown; body?: Plan };
  try {
    outer = JSON.parse(text);
  } catch {
    throw corrupt("It is not complete JSON (truncated or edited)");
  }
  if (!outer || typeof outer !== "object" || typeof outer.pravo_plan !== "string" || !outer.body) {
    throw corrupt("It is not a pravo plan file");
  }
  const major = Number(String(outer.pravo_plan).split(".")[0]);
  const ours = Number(PLAN_FORMAT_VERSION.split(".")[0]);
  if (!(major <= ours)) {
    throw new DiagnosticsError([
      error(
        `Plan file "${path}" has a newer format`,
        `It is of format ${outer.pravo_plan}, and this pravo reads format ${PLAN_FORMAT_VERSION}. Apply it with the pravo that made it, or make a new plan with this one.`,
      ),
    ], Exit.PLAN_NEWER);
  }
  if (sha256(JSON.stringify(outer.body)) !== outer.digest) {
    throw corrupt("Its content does not match its digest (it was edited)");
  }
  const plan = outer.body;
  if (plan.root !== root) {
    throw new DiagnosticsError([
      error(
        `Plan "${path}" was made for another root`,
        `It was made for "${plan.root}", and this root is "${root}". Use it in its own root (-C ${plan.root}), or make a plan here.`,
      ),
    ], Exit.PLAN_OTHER_ROOT);
  }
  return plan;
}
