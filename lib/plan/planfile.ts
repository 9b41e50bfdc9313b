/**
 * Plan files: everything apply needs, sealed with a key kept outside the
 * root, written atomically, read once.
 *
 * The file (format 2.0) is one line of JSON:
 *
 * ```json
 * {"pravo_plan":"2.0","key":"<fingerprint>","sealed":"<base64>"}
 * ```
 *
 * `sealed` is the plan (JSON) sealed with AES-256-GCM under
 * `loadKey().derive("plan")` (lib/keys/seal.ts), the header (the format and
 * the key's fingerprint) as associated data. So a file that pravo did not
 * write, or that was edited, does not open and is refused (exit 7), and the
 * values a plan carries for apply, sensitive ones included, cannot be read
 * from it by whoever can read the root. Format 1.x files (unsealed) are
 * refused: make a new plan.
 *
 * {@link readPlanFile} reads the file's bytes once and returns the plan with
 * the SHA-256 of exactly those bytes: what an approval is bound to.
 *
 * {@link checkPlanOut} is the one rule for where a plan file may be written
 * (`plan --out` and the MCP tool's `out`): a plan file only, never under
 * `.pravo/`, never over a file that is not a plan file, never a `.cue`
 * file, `pravo.jsonc` or `pravo.lock.json`, never through a symbolic link.
 *
 * @module
 */

import { createHash, randomUUID } from "node:crypto";
import {
  closeSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  openSync,
  readSync,
  realpathSync,
  renameSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { DiagnosticsError, error } from "../diag/diag.ts";
import { diskFull, isDiskFull, isReadOnly, readOnlyFileSystem } from "../diag/io.ts";
import { decodeUtf8 } from "../diag/text.ts";
import { FileRefusal, readRegular } from "../files/regular.ts";
import { UsageError } from "../diag/usage.ts";
import type { PravoKey } from "../keys/key.ts";
import { seal, unseal } from "../keys/seal.ts";
import type { Plan } from "./types.ts";

/** The format of the plan file (the envelope); a newer major version is refused. */
export const PLAN_FILE_FORMAT = "2.0";

/** What every plan file begins with: how a plan file is told from other files. */
export const PLAN_FILE_MAGIC = '{"pravo_plan":"';

/** The SHA-256 of bytes, in hexadecimal. */
export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The associated data of a plan file's sealed body: its header. */
function headerData(format: string, fingerprint: string): Uint8Array {
  return new TextEncoder().encode(`pravo plan file\u0000${format}\u0000${fingerprint}`);
}

/** The bytes of a plan file holding `plan`, sealed with `key`. */
export function planFileBytes(plan: Plan, key: PravoKey): Uint8Array {
  const body = new TextEncoder().encode(JSON.stringify(plan));
  const sealed = seal(key.derive("plan"), body, headerData(PLAN_FILE_FORMAT, key.fingerprint));
  const text = JSON.stringify({
    pravo_plan: PLAN_FILE_FORMAT,
    key: key.fingerprint,
    sealed: Buffer.from(sealed).toString("base64"),
  }) + "\n";
  return new TextEncoder().encode(text);
}

/** A plan read from a file, with the SHA-256 of the bytes it was read from. */
export interface PlanFile {
  plan: Plan;
  /** The SHA-256 (hex) of exactly the bytes that were parsed. */
  digest: string;
}

function damaged(path: string, why: string, todo = "make a new plan"): DiagnosticsError {
  return new DiagnosticsError([
    error(
      `Plan file "${path}" is damaged`,
      `${why}. A plan file must be used as \`pravo plan --out\` wrote it; ${todo}.`,
    ),
  ], "plan_damaged");
}

/**
 * Reads a plan file's bytes once, with their SHA-256: what {@link readPlanFile}
 * parses, and what the MCP server looks up approvals by. Throws a
 * diagnostic that says what to do when the file cannot be read.
 */
export function readPlanFileBytes(path: string): { bytes: Uint8Array; digest: string } {
  const bytes = readBytes(path);
  return { bytes, digest: sha256Hex(bytes) };
}

/**
 * The most bytes of a plan file pravo reads. A plan of 10,000 nodes is a few
 * megabytes; a larger file was not written by pravo, and reading it whole
 * would only exhaust memory (in the MCP server, for every client).
 */
export const MAX_PLAN_FILE_BYTES = 256 * 1024 * 1024;

function readBytes(path: string): Uint8Array {
  try {
    // Never blocks on a FIFO or a device an agent put there, never reads more than a plan is.
    return readRegular(path, { maxBytes: MAX_PLAN_FILE_BYTES });
  } catch (e) {
    if (!(e instanceof FileRefusal)) throw e;
    const why = e.reason === "missing"
      ? "There is no such file"
      : e.reason === "not-regular"
      ? `It is not a plan file: ${e.message}`
      : e.reason === "too-large"
      ? `It is not a plan file: ${e.message}`
      : `Reading it failed: ${e.message}`;
    throw new DiagnosticsError([
      error(
        `Cannot read plan "${path}"`,
        `${why}. Give the path of a file written by \`pravo plan --out FILE\`; relative paths are read from the root.`,
      ),
    ], "error");
  }
}

/**
 * Reads and opens a plan file with pravo's key. The file is read once; the
 * digest returned is that of the bytes parsed. Refused: a file that is not a
 * plan file or does not open (exit 7), one sealed with another key (exit 8),
 * one of a newer format (exit 9), one of the old unsealed format (exit 7).
 * Which state the plan is for is the caller's check (see {@link checkPlanState}).
 */
export function readPlanFile(path: string, key: PravoKey): PlanFile {
  const { bytes, digest } = readPlanFileBytes(path);
  return { plan: openPlanBytes(path, bytes, key), digest };
}

/**
 * Opens the bytes of a plan file read before (see {@link readPlanFile}):
 * the MCP server looks into exactly the bytes whose approval it checked.
 */
export function openPlanBytes(path: string, bytes: Uint8Array, key: PravoKey): Plan {
  // pravo writes plan files as UTF-8 JSON: a byte that is not UTF-8 was put there by something else.
  const read = decodeUtf8(bytes);
  if (!read.ok) {
    throw damaged(
      path,
      `It is not UTF-8 text: the byte ${read.bad.byte} at line ${read.bad.line}, column ${read.bad.column}`,
    );
  }
  const text = read.text;
  let outer: { pravo_plan?: unknown; key?: unknown; sealed?: unknown };
  try {
    outer = JSON.parse(text);
  } catch {
    throw damaged(path, "It is not complete JSON (truncated or edited)");
  }
  if (!outer || typeof outer !== "object" || typeof outer.pravo_plan !== "string") {
    throw damaged(path, "It is not a pravo plan file");
  }
  const format = outer.pravo_plan;
  const major = Number(format.split(".")[0]);
  const ours = Number(PLAN_FILE_FORMAT.split(".")[0]);
  if (!Number.isInteger(major)) throw damaged(path, `Its format "${format}" is not a version`);
  if (major > ours) {
    throw new DiagnosticsError([
      error(
        `Plan file "${path}" has a newer format`,
        `It is of format ${format}, and this pravo reads format ${PLAN_FILE_FORMAT}. Apply it with the pravo that made it, or make a new plan with this one.`,
      ),
    ], "plan_newer");
  }
  if (major < ours) {
    throw damaged(
      path,
      `It is of the old format ${format}, which is not sealed, so pravo cannot tell whether it was edited`,
      "make a new plan with `pravo plan --out FILE`",
    );
  }
  if (typeof outer.key !== "string" || typeof outer.sealed !== "string") {
    throw damaged(path, "It is not a pravo plan file: it has no sealed plan");
  }
  if (outer.key !== key.fingerprint) {
    throw new DiagnosticsError([
      error(
        `Plan file "${path}" was sealed with another key`,
        `It was made with pravo's key ${outer.key}, and this pravo's key is ${key.fingerprint} (from ${key.source}). Give the key it was made with in $PRAVO_KEY or $PRAVO_KEY_FILE, or make a new plan with this key.`,
      ),
    ], "plan_other_root");
  }
  const sealed = Buffer.from(outer.sealed, "base64");
  const body = unseal(
    key.derive("plan"),
    new Uint8Array(sealed),
    headerData(format, outer.key),
  );
  if (!body) {
    throw damaged(
      path,
      `It does not open with pravo's key ${key.fingerprint}: it was not written by pravo with this key, or it was edited`,
    );
  }
  let plan: Plan;
  try {
    plan = JSON.parse(new TextDecoder().decode(body));
  } catch {
    throw damaged(path, "Its sealed plan is not JSON");
  }
  if (!plan || typeof plan !== "object" || !Array.isArray(plan.nodes)) {
    throw damaged(path, "Its sealed content is not a plan");
  }
  return plan;
}

/**
 * Refuses a plan made for another state: the state is told by its lineage
 * (and, on PostgreSQL, its root key), not by the root's path, so that a plan
 * made in one checkout applies in another (exit 8 otherwise).
 */
export function checkPlanState(
  plan: Plan,
  state: { lineage: string; rootKey?: string },
  path: string,
): void {
  const keyDiffers = plan.stateRootKey !== undefined && state.rootKey !== undefined &&
    plan.stateRootKey !== state.rootKey;
  if (plan.lineage === state.lineage && !keyDiffers) return;
  const theirs = `state lineage ${plan.lineage}${
    plan.stateRootKey !== undefined ? ` (root key "${plan.stateRootKey}")` : ""
  }`;
  const ours = `lineage ${state.lineage}${
    state.rootKey !== undefined ? ` (root key "${state.rootKey}")` : ""
  }`;
  throw new DiagnosticsError([
    error(
      `Plan "${path}" was made for another root`,
      `It was made for ${theirs}, made in "${plan.root}", and this root's state has ${ours}. Apply it where its state is (-C DIR, --state URL), or make a plan here.`,
    ),
  ], "plan_other_root");
}

// ---------------------------------------------------------------------------
// Where a plan file may be written

/** Files of the root that a plan file never replaces, by name (lower case). */
const PROTECTED_NAMES = new Set(["pravo.jsonc", "pravo.lock.json"]);

/** The folder of pravo's own files in a root. */
const PRAVO_DIR = ".pravo";

function isInside(dir: string, path: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/** True when the first bytes of the file at `path` (a regular file, opened) are a plan file's. */
function hasPlanHeader(fd: number): boolean {
  const head = new Uint8Array(PLAN_FILE_MAGIC.length);
  let got = 0;
  while (got < head.length) {
    const n = readSync(fd, head, got, head.length - got, got);
    if (n === 0) break;
    got += n;
  }
  return new TextDecoder().decode(head.subarray(0, got)) === PLAN_FILE_MAGIC;
}

/**
 * Checks that a plan file may be written at `out` (relative to the root, or
 * absolute inside it) and returns its absolute path. Refuses (exit 64, with
 * what to do): a path outside the root or under `.pravo/`, a `.cue` file,
 * `pravo.jsonc`, `pravo.lock.json`, a symbolic link, a folder whose real
 * path leaves the root, and an existing file that is not a pravo plan file.
 */
export function checkPlanOut(root: string, out: string): string {
  const refuse = (why: string, todo = "give a new name such as plans/x.plan") =>
    new UsageError(`--out "${out}" ${why}: ${todo}`, "plan");
  if (out === "") throw refuse("is empty");
  const abs = isAbsolute(out) ? resolve(out) : resolve(root, out);
  if (!isInside(root, abs) || abs === root) {
    throw refuse(
      `is outside the root "${root}": plan files are written inside the root, where pravo may write`,
      "give a path such as plans/x.plan",
    );
  }
  const rel = relative(root, abs);
  if (rel.split(sep)[0].toLowerCase() === PRAVO_DIR) {
    throw refuse(`is under ${PRAVO_DIR}/, which holds pravo's own files (the state, approvals)`);
  }
  const name = basename(abs).toLowerCase();
  if (name.endsWith(".cue")) {
    throw refuse("is a .cue file, and a plan file is never written as one");
  }
  if (PROTECTED_NAMES.has(name)) {
    throw refuse(`names the root's ${basename(abs)}, and a plan file never replaces it`);
  }
  // The folder: it must exist, and its real path must stay in the root and out of .pravo/.
  let rootReal: string;
  let dirReal: string;
  try {
    rootReal = realpathSync(root);
    dirReal = realpathSync(dirname(abs));
  } catch {
    throw refuse(`is in a folder that does not exist`, `create ${dirname(rel) || "it"} first`);
  }
  if (!isInside(rootReal, dirReal)) {
    throw refuse(
      "is in a folder whose real path leaves the root (a symbolic link)",
      "give a path inside the root without links",
    );
  }
  if (isInside(join(rootReal, PRAVO_DIR), dirReal)) {
    throw refuse(`is under ${PRAVO_DIR}/ through a symbolic link`);
  }
  // The file: none yet, or a plan file, never a link.
  let st;
  try {
    st = lstatSync(abs);
  } catch (e) {
    if ((e as { code?: string }).code === "ENOENT") return abs;
    throw refuse(`cannot be checked (${(e as Error).message})`);
  }
  if (st.isSymbolicLink()) {
    throw refuse("is a symbolic link, and a plan file is never written through one");
  }
  if (!st.isFile()) throw refuse("is not a file");
  let fd: number | undefined;
  try {
    fd = openSync(abs, "r");
    const now = fstatSync(fd);
    if (!now.isFile() || now.ino !== st.ino || now.dev !== st.dev) {
      throw refuse("changed while it was checked");
    }
    if (!hasPlanHeader(fd)) {
      throw refuse(
        "is an existing file that is not a pravo plan file, and a plan file never replaces one",
        "give a new name, or remove the file first",
      );
    }
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw refuse(`cannot be read (${(e as Error).message})`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return abs;
}

/**
 * Writes the plan file atomically: a new temporary file beside it (created,
 * never opened through a link), synced, then renamed over `out` after the
 * rule of {@link checkPlanOut} is checked again.
 */
export function writePlanFile(root: string, out: string, plan: Plan, key: PravoKey): string {
  const path = checkPlanOut(root, out);
  const bytes = planFileBytes(plan, key);
  const tmp = join(dirname(path), `.${basename(path)}.${randomUUID()}.tmp`);
  let created = false;
  try {
    // "wx": O_CREAT|O_EXCL, which fails on anything there, a link included.
    const fd = openSync(tmp, "wx", 0o600);
    created = true;
    try {
      let off = 0;
      while (off < bytes.length) off += writeSync(fd, bytes, off);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    // Right before the rename: the folder and the file may have changed since the check.
    checkPlanOut(root, out);
    renameSync(tmp, path);
    created = false;
  } catch (e) {
    if (created) {
      try {
        unlinkSync(tmp);
      } catch {
        // nothing left behind
      }
    }
    if (e instanceof UsageError) throw e;
    // Nothing is left half-written: the target is replaced only by the rename.
    const kept = "No plan file was written, and a file already at that path was left as it was.";
    if (isDiskFull(e)) throw new DiagnosticsError([diskFull(path, kept)], "error");
    if (isReadOnly(e)) throw new DiagnosticsError([readOnlyFileSystem(path, kept)], "error");
    throw new DiagnosticsError([
      error(
        "Cannot write the plan file",
        `Writing "${path}" failed: ${
          (e as Error).message
        }. Check that its folder is writable, or give another --out path.`,
      ),
    ], "error");
  }
  return path;
}
