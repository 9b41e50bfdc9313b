/**
 * Approvals of saved plans, signed by an operator.
 *
 * `pravo approve PLANFILE --key FILE` signs, with the operator's Ed25519
 * private key (lib/keys/approver.ts, kept outside the root), a statement
 * that binds: a domain string, the SHA-256 of the plan file's exact bytes,
 * the plan's id, the state lineage it was made for, who approved and why,
 * and when. The record (statement, signature, the key's fingerprint) is
 * appended to `.pravo/approvals.jsonl`.
 *
 * An agent can read that file and write it, but it cannot make a record
 * that verifies: `pravo mcp --require-approval` trusts only the public keys
 * named on its command line (`--approver`), and a line that does not verify
 * under one of them approves nothing.
 *
 * @module
 */

import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  realpathSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join, sep } from "node:path";
import { DiagnosticsError, error } from "../diag/diag.ts";
import { sortKeys } from "../json.ts";
import { FileRefusal, readRegular } from "../files/regular.ts";
import type { ApproverPrivateKey, ApproverPublicKey } from "../keys/approver.ts";

/** What every approval statement says first: what the signature is for. */
export const APPROVAL_DOMAIN = "pravo plan approval v1";

/** What an operator signs. */
export interface ApprovalStatement {
  domain: string;
  /** The SHA-256 (hex) of the plan file's bytes. */
  plan_sha256: string;
  plan_id: string;
  /** The lineage of the state the plan was made for. */
  state_lineage: string;
  actor: string;
  reason: string;
  /** When, ISO 8601 in UTC. */
  approved_at: string;
}

/** One line of `.pravo/approvals.jsonl`. */
export interface ApprovalRecord {
  statement: ApprovalStatement;
  /** The fingerprint of the approver's public key. */
  key: string;
  /** The Ed25519 signature of the statement's canonical JSON, base64. */
  signature: string;
}

/** The file of approvals in a root. */
export function approvalsFile(root: string): string {
  return join(root, ".pravo", "approvals.jsonl");
}

/** The bytes that are signed: the statement's JSON, keys sorted, no spaces. */
export function statementBytes(s: ApprovalStatement): Uint8Array<ArrayBuffer> {
  return new Uint8Array(new TextEncoder().encode(JSON.stringify(sortKeys(s))));
}

/** Signs a statement. */
export async function signApproval(
  statement: ApprovalStatement,
  key: ApproverPrivateKey,
): Promise<ApprovalRecord> {
  const sig = await crypto.subtle.sign("Ed25519", key.key, statementBytes(statement));
  return {
    statement,
    key: key.fingerprint,
    signature: Buffer.from(new Uint8Array(sig)).toString("base64"),
  };
}

function isStatement(s: unknown): s is ApprovalStatement {
  if (!s || typeof s !== "object" || Array.isArray(s)) return false;
  const o = s as Record<string, unknown>;
  return ["domain", "plan_sha256", "plan_id", "state_lineage", "actor", "reason", "approved_at"]
    .every((k) => typeof o[k] === "string");
}

/**
 * The trusted key under which the record's signature verifies, or undefined.
 * Only keys whose fingerprint the record names are tried.
 */
export async function verifyApproval(
  record: unknown,
  trusted: readonly ApproverPublicKey[],
): Promise<ApproverPublicKey | undefined> {
  const r = record as Partial<ApprovalRecord> | null;
  if (!r || typeof r !== "object" || !isStatement(r.statement)) return undefined;
  if (r.statement.domain !== APPROVAL_DOMAIN || typeof r.signature !== "string") return undefined;
  const sig = new Uint8Array(Buffer.from(r.signature, "base64"));
  if (sig.length !== 64) return undefined;
  for (const k of trusted) {
    if (k.fingerprint !== r.key) continue;
    try {
      if (await crypto.subtle.verify("Ed25519", k.key, sig, statementBytes(r.statement))) return k;
    } catch {
      // a malformed signature verifies nothing
    }
  }
  return undefined;
}

function isInside(dir: string, path: string): boolean {
  return path === dir || path.startsWith(dir + sep);
}

/**
 * Refuses to append through what an agent may have put in the way: `.pravo`
 * must be a folder of the root, and the file, when there, a plain file.
 */
function checkApprovalsPath(root: string): string {
  const file = approvalsFile(root);
  const refuse = (why: string) =>
    new DiagnosticsError([
      error(
        `Cannot record the approval in "${file}"`,
        `${why}. Nothing was approved. Remove it (the state and the approvals are rebuilt only by pravo), then approve again.`,
      ),
    ], "error");
  let dirReal: string;
  const dir = join(root, ".pravo");
  try {
    lstatSync(dir);
  } catch {
    // A root whose state is elsewhere (PostgreSQL, --state) has no .pravo
    // from init: made now, as init makes it, for the approvals alone.
    try {
      mkdirSync(dir, { mode: 0o700 });
      writeFileSync(
        join(dir, ".gitignore"),
        "# The state holds secret values: keep it out of version control.\n*\n",
        { flag: "wx" },
      );
    } catch {
      throw refuse("The root has no .pravo folder, and it cannot be made: run `pravo init` first");
    }
  }
  try {
    dirReal = realpathSync(dir);
  } catch {
    throw refuse("The root has no .pravo folder: run `pravo init` first");
  }
  if (!isInside(realpathSync(root), dirReal) || lstatSync(join(root, ".pravo")).isSymbolicLink()) {
    throw refuse(".pravo is a symbolic link");
  }
  try {
    const st = lstatSync(file);
    if (!st.isFile()) throw refuse("It is not a plain file (a symbolic link, or a folder)");
  } catch (e) {
    if (e instanceof DiagnosticsError) throw e;
    // none yet: appending creates it
  }
  return file;
}

/** Appends an approval record to the root's approvals file. */
export function recordApproval(root: string, record: ApprovalRecord): void {
  const file = checkApprovalsPath(root);
  // O_NOFOLLOW: a link made after the check is not followed; O_NONBLOCK: a FIFO does not block.
  const fd = openSync(
    file,
    constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW |
      constants.O_NONBLOCK,
    0o600,
  );
  try {
    if (!fstatSync(fd).isFile()) {
      throw new DiagnosticsError([
        error(
          `Cannot record the approval in "${file}"`,
          "It is not a plain file. Nothing was approved. Remove it, then approve again.",
        ),
      ], "error");
    }
    const bytes = new TextEncoder().encode(JSON.stringify(record) + "\n");
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off);
  } finally {
    closeSync(fd);
  }
}

/**
 * The most bytes of the approvals file the MCP server reads: some 20,000
 * approvals. An agent can grow the file; beyond this it is refused, not read.
 */
export const MAX_APPROVALS_BYTES = 16 * 1024 * 1024;

/** The approvals file cannot be used: what an agent may have put in its place. */
export class ApprovalsUnreadable extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ApprovalsUnreadable";
  }
}

/**
 * The text of the root's approvals file, read as the MCP server may: `.pravo`
 * a folder of the root and not a link, the file a regular file and not a
 * link (never a FIFO, a device or another root's file), at most
 * {@link MAX_APPROVALS_BYTES}. Undefined when there is none yet.
 */
export function readApprovals(root: string): string | undefined {
  const dir = join(root, ".pravo");
  const unusable = (why: string) =>
    new ApprovalsUnreadable(
      `the approvals file .pravo/approvals.jsonl cannot be used: ${why}. Ask the operator to look at it (an agent with an editor may have changed it): remove it, then approve the plan again`,
    );
  try {
    const st = lstatSync(dir);
    if (st.isSymbolicLink()) throw unusable(".pravo is a symbolic link");
    if (!st.isDirectory()) throw unusable(".pravo is not a folder");
  } catch (e) {
    if (e instanceof ApprovalsUnreadable) throw e;
    return undefined; // no .pravo: nothing approved
  }
  let bytes: Uint8Array;
  try {
    bytes = readRegular(approvalsFile(root), { maxBytes: MAX_APPROVALS_BYTES, noFollow: true });
  } catch (e) {
    if (!(e instanceof FileRefusal)) throw e;
    if (e.reason === "missing") return undefined;
    if (e.reason === "too-large") {
      throw unusable(
        `${e.message} (approvals of plans already applied can go: keep the file small)`,
      );
    }
    throw unusable(e.message);
  }
  return new TextDecoder().decode(bytes);
}

/**
 * The approval of the plan file whose bytes have this SHA-256, signed by a
 * trusted key; undefined when there is none. Lines that are not JSON, name
 * another digest or do not verify are skipped. Throws
 * {@link ApprovalsUnreadable} when the file is not one pravo can read.
 */
export async function findApproval(
  root: string,
  digest: string,
  trusted: readonly ApproverPublicKey[],
): Promise<{ record: ApprovalRecord; by: ApproverPublicKey } | undefined> {
  if (trusted.length === 0) return undefined;
  const text = readApprovals(root);
  if (text === undefined) return undefined;
  for (const line of text.split("\n")) {
    if (!line.includes(digest)) continue;
    let record: ApprovalRecord;
    try {
      record = JSON.parse(line);
    } catch {
      continue; // a damaged line approves nothing
    }
    if (record?.statement?.plan_sha256 !== digest) continue;
    const by = await verifyApproval(record, trusted);
    if (by) return { record, by };
  }
  return undefined;
}
