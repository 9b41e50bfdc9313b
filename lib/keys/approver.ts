/**
 * Approvers' keys: Ed25519 key pairs (WebCrypto) with which operators sign
 * their approvals of saved plans (`pravo approve`), and which `pravo mcp
 * --approver` trusts.
 *
 * A key pair is two files made by `pravo approver-key FILE`: FILE, the
 * private key (PKCS#8 PEM, 0600), and FILE.pub, the public key (SPKI PEM).
 * Both stay outside every root: an agent that can read the root must not
 * read a private key, and the server trusts only the public keys named on
 * its own command line, never a file the agent can write.
 *
 * A key is named by its fingerprint: the first 16 hex digits of the SHA-256
 * of its public key (SPKI, DER).
 *
 * @module
 */

import { createHash, createPrivateKey, createPublicKey } from "node:crypto";
import { readFileSync, realpathSync, unlinkSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { DiagnosticsError, error, type FailureKind } from "../diag/diag.ts";
import { isInside, realish } from "../files/real.ts";
import { writeNewFile } from "../files/new_file.ts";

/** An approver's private key, ready to sign. */
export interface ApproverPrivateKey {
  key: CryptoKey;
  fingerprint: string;
  /** Where it came from, for messages: a path or `$PRAVO_APPROVER_KEY`. */
  source: string;
}

/** An approver's public key, ready to verify. */
export interface ApproverPublicKey {
  key: CryptoKey;
  fingerprint: string;
  /** The file it was read from. */
  path: string;
}

const ED25519 = { name: "Ed25519" };

/** The fingerprint of a public key: 16 hex digits of the SHA-256 of its SPKI DER. */
export function approverFingerprint(spkiDer: Uint8Array): string {
  return createHash("sha256").update(spkiDer).digest("hex").slice(0, 16);
}

function pem(label: string, der: Uint8Array): string {
  const b64 = Buffer.from(der).toString("base64");
  const lines = b64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}

/** The DER inside a PEM block of this label, or undefined. */
function unpem(label: string, text: string): Uint8Array<ArrayBuffer> | undefined {
  const m = new RegExp(`-----BEGIN ${label}-----([A-Za-z0-9+/=\\s]+)-----END ${label}-----`)
    .exec(text);
  if (!m) return undefined;
  return new Uint8Array(Buffer.from(m[1].replace(/\s+/g, ""), "base64"));
}

function keyError(
  summary: string,
  detail: string,
  kind: FailureKind = "error",
): DiagnosticsError {
  return new DiagnosticsError([error(summary, detail)], kind);
}

/** True when `path` (made absolute) lies inside `root`, symbolic links followed. */
export function insideRoot(root: string, path: string): boolean {
  const abs = resolve(path);
  let rootReal = root;
  try {
    rootReal = realpathSync(root);
  } catch {
    // a root that does not exist holds nothing
  }
  return isInside(rootReal, realish(abs)) || isInside(resolve(root), abs);
}

/**
 * Makes a new approver key pair: `file` (the private key, PKCS#8 PEM, 0600)
 * and `file.pub` (the public key, SPKI PEM). Refuses a path inside `root`
 * and a file that exists.
 */
export async function makeApproverKey(
  file: string,
  opts: { root: string },
): Promise<{ privatePath: string; publicPath: string; fingerprint: string }> {
  const privatePath = resolve(file);
  const publicPath = `${privatePath}.pub`;
  for (const p of [privatePath, publicPath]) {
    if (insideRoot(opts.root, p)) {
      throw keyError(
        `The key file "${p}" would be inside the root`,
        `Whoever can read the root (an agent with an editor) could read an approver's private key and approve its own plans. Give a path outside "${opts.root}", such as ~/.config/pravo/approver.`,
      );
    }
  }
  const pair = await crypto.subtle.generateKey(ED25519, true, ["sign", "verify"]) as CryptoKeyPair;
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey("pkcs8", pair.privateKey));
  const spki = new Uint8Array(await crypto.subtle.exportKey("spki", pair.publicKey));
  const fingerprint = approverFingerprint(spki);
  let wrotePrivate = false;
  try {
    writeNewFile(privatePath, pem("PRIVATE KEY", pkcs8), 0o600);
    wrotePrivate = true;
    writeNewFile(publicPath, pem("PUBLIC KEY", spki), 0o644);
  } catch (e) {
    if (wrotePrivate) {
      try {
        unlinkSync(privatePath);
      } catch {
        // nothing left behind
      }
    }
    const code = (e as { code?: string }).code;
    const which = wrotePrivate ? publicPath : privatePath;
    if (code === "EEXIST") {
      throw keyError(
        `The key file "${which}" exists`,
        "pravo never replaces a key file: approvals made with it would no longer verify. Give another path, or remove the old files first if you mean to.",
      );
    }
    throw keyError(
      `Cannot write the key file "${which}"`,
      `${
        (e as Error).message
      }. Check that its folder exists and is writable, or give another path.`,
    );
  }
  return { privatePath, publicPath, fingerprint };
}

/**
 * Loads an approver's private key: `spec` is the key file's path, or the PEM
 * text itself (as `$PRAVO_APPROVER_KEY` may hold it). A key file inside the
 * root is refused.
 */
export async function loadApproverPrivateKey(
  spec: string,
  opts: { root: string; source?: string },
): Promise<ApproverPrivateKey> {
  let text: string;
  let source: string;
  if (spec.includes("-----BEGIN")) {
    text = spec;
    source = opts.source ?? "$PRAVO_APPROVER_KEY";
  } else {
    const path = resolve(spec);
    source = path;
    if (insideRoot(opts.root, path)) {
      throw keyError(
        `The approver's key "${path}" is inside the root`,
        `Whoever can read the root could read it and approve any plan. Move it outside "${opts.root}", and make a new key pair with \`pravo approver-key FILE\` if an agent may have read it.`,
      );
    }
    try {
      text = readFileSync(path, "utf8");
    } catch (e) {
      throw keyError(
        `Cannot read the approver's key "${path}"`,
        `${
          (e as Error).message
        }. Give the private key file made by \`pravo approver-key FILE\` (FILE, not FILE.pub).`,
      );
    }
  }
  const der = unpem("PRIVATE KEY", text);
  let key: CryptoKey;
  let spki: Uint8Array;
  try {
    if (!der) throw new Error("no PRIVATE KEY block");
    key = await crypto.subtle.importKey("pkcs8", der, ED25519, false, ["sign"]);
    const pub = createPublicKey(
      createPrivateKey({ key: Buffer.from(der), format: "der", type: "pkcs8" }),
    );
    spki = new Uint8Array(pub.export({ type: "spki", format: "der" }));
  } catch {
    throw keyError(
      `${source} is not an approver's private key`,
      "It must be an Ed25519 private key in PKCS#8 PEM, as `pravo approver-key FILE` writes FILE. Give that file (not FILE.pub).",
    );
  }
  return { key, fingerprint: approverFingerprint(spki), source };
}

/** A public key file that `pravo mcp --approver` cannot use: what is wrong, as one line. */
export class ApproverKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ApproverKeyError";
  }
}

/**
 * Loads an approver's public key for `pravo mcp --approver PATH`: an
 * absolute path, outside the root, to a file `pravo approver-key` wrote.
 * Throws an {@link ApproverKeyError} that says what to change.
 */
export async function loadApproverPublicKey(
  path: string,
  opts: { root: string },
): Promise<ApproverPublicKey & { pem: string }> {
  if (!isAbsolute(path)) {
    throw new ApproverKeyError(
      `--approver "${path}": the server needs an absolute path, such as /etc/pravo/approvers/alice.pub`,
    );
  }
  if (insideRoot(opts.root, path)) {
    throw new ApproverKeyError(
      `--approver "${path}" is inside the root, where the agent could replace it: keep approvers' public keys outside the root`,
    );
  }
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new ApproverKeyError(
      `--approver "${path}" cannot be read (${
        (e as Error).message
      }): give the FILE.pub that \`pravo approver-key FILE\` wrote`,
    );
  }
  return await approverPublicKeyFromPem(text, path);
}

/**
 * An approver's public key from the PEM text of its FILE.pub (`path` names
 * it): what the MCP server read at start, handed to its children.
 */
export async function approverPublicKeyFromPem(
  text: string,
  path: string,
): Promise<ApproverPublicKey & { pem: string }> {
  const der = unpem("PUBLIC KEY", text);
  try {
    if (!der) throw new Error("no PUBLIC KEY block");
    const key = await crypto.subtle.importKey("spki", der, ED25519, false, ["verify"]);
    return { key, fingerprint: approverFingerprint(der), path, pem: text };
  } catch {
    throw new ApproverKeyError(
      `--approver "${path}" is not an approver's public key: give the FILE.pub that \`pravo approver-key FILE\` wrote (an Ed25519 public key in PEM)`,
    );
  }
}
