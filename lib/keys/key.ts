/**
 * pravo's key: 32 random bytes kept outside every root, from which the keys
 * that protect what pravo leaves inside a root are derived (HKDF-SHA256):
 *
 * - `plan`: seals saved plan files (AES-256-GCM), so that a plan file that
 *   pravo did not write, or that was edited, is refused, and the secrets it
 *   carries for apply cannot be read from it;
 * - `state`: seals sensitive values in the state store and the log;
 * - `cache`: seals the evaluation cache under `.pravo/cache/`.
 *
 * An agent that can read and write every file of a root cannot read this
 * key, so it can neither forge a plan nor read a secret at rest.
 *
 * Where the key comes from, first to last:
 *
 * 1. `$PRAVO_KEY`: the key itself, base64 (CI runners; `pravo mcp` passes
 *    its key to its children this way, so that they need no access to the
 *    key file);
 * 2. `$PRAVO_KEY_FILE`: a file holding it;
 * 3. `$XDG_CONFIG_HOME/pravo/key`, else `$HOME/.config/pravo/key`.
 *
 * A key file that does not exist is created (0600, in a 0700 folder) by the
 * commands that need the key; a key file inside the root is refused.
 *
 * @module
 */

import { createHash, hkdfSync, randomBytes } from "node:crypto";
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { DiagnosticsError, error } from "../diag/diag.ts";
import { isInside, realish } from "../files/real.ts";
import { fromBase64, toBase64 } from "../bytes.ts";

/** What a derived key is for. */
export type KeyPurpose = "plan" | "state" | "cache";

/** The environment variables that say where the key is. */
export const KEY_ENV_VARS: readonly string[] = ["PRAVO_KEY", "PRAVO_KEY_FILE", "XDG_CONFIG_HOME"];

/** pravo's key, loaded. */
export interface PravoKey {
  /** A short public name of the key: 16 hex digits. It reveals nothing of the key. */
  fingerprint: string;
  /** Where it came from, for messages: `$PRAVO_KEY` or the file's path. */
  source: string;
  /** True when this process created the key file. */
  created: boolean;
  /** The 32-byte key for one purpose. */
  derive(purpose: KeyPurpose): Uint8Array;
  /**
   * The key itself as `$PRAVO_KEY` holds it: for `pravo mcp` to pass to its
   * children. Never print it.
   */
  encoded(): string;
}

type Env = (name: string) => string | undefined;

function defaultEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined; // no permission to read it: as if unset
  }
}

/**
 * The key file's path from the environment: `$PRAVO_KEY_FILE`, else the
 * user's configuration folder. Undefined when none can be told (no HOME).
 */
export function keyFilePath(env: Env = defaultEnv): string | undefined {
  const file = env("PRAVO_KEY_FILE");
  if (file) return resolve(file);
  const xdg = env("XDG_CONFIG_HOME");
  if (xdg && isAbsolute(xdg)) return join(xdg, "pravo", "key");
  const home = env("HOME");
  if (home && isAbsolute(home)) return join(home, ".config", "pravo", "key");
  return undefined;
}

const KEY_BYTES = 32;

function keyBytesOf(text: string): Uint8Array | undefined {
  const bytes = fromBase64(text.trim());
  return bytes?.length === KEY_BYTES ? bytes : undefined;
}

/** Makes a key from its 32 bytes. */
export function keyFromBytes(bytes: Uint8Array, source: string, created = false): PravoKey {
  if (bytes.length !== KEY_BYTES) throw new Error(`bug: a key has ${KEY_BYTES} bytes`);
  const ikm = new Uint8Array(bytes);
  const derive = (purpose: string) =>
    new Uint8Array(hkdfSync("sha256", ikm, new Uint8Array(0), `pravo ${purpose} v1`, 32));
  const fingerprint = createHash("sha256").update(derive("key id")).digest("hex").slice(0, 16);
  const cache = new Map<KeyPurpose, Uint8Array>();
  return {
    fingerprint,
    source,
    created,
    encoded: () => encodeKey(ikm),
    derive(purpose) {
      let k = cache.get(purpose);
      if (!k) cache.set(purpose, k = derive(purpose));
      return k;
    },
  };
}

/** A key from its text (what {@link PravoKey.encoded} gives); throws when it is not one. */
export function keyFromEncoded(text: string, source = "$PRAVO_KEY"): PravoKey {
  const bytes = keyBytesOf(text);
  if (!bytes) throw new Error("bug: not an encoded pravo key");
  return keyFromBytes(bytes, source);
}

/** The key as text: what `$PRAVO_KEY` and a key file hold. */
export function encodeKey(bytes: Uint8Array): string {
  return toBase64(bytes);
}

/** A new random key's bytes. */
export function newKeyBytes(): Uint8Array {
  return new Uint8Array(randomBytes(KEY_BYTES));
}

function keyError(summary: string, detail: string): DiagnosticsError {
  return new DiagnosticsError([error(summary, detail)], "error");
}

let loadedKey: PravoKey | undefined;

/**
 * Loads pravo's key, creating the key file when it does not exist and
 * `create` is not false. `root`, when given, is where the key must not be.
 * Throws a DiagnosticsError that says what to do when there is no usable key.
 */
export function loadKey(
  opts: { root?: string; create?: boolean; env?: Env } = {},
): PravoKey {
  if (loadedKey && opts.env === undefined) return loadedKey;
  const env = opts.env ?? defaultEnv;
  const inline = env("PRAVO_KEY");
  let key: PravoKey;
  if (inline !== undefined && inline !== "") {
    const bytes = keyBytesOf(inline);
    if (!bytes) {
      throw keyError(
        "$PRAVO_KEY is not a pravo key",
        `It must hold ${KEY_BYTES} bytes in base64 (44 characters), as a key file does. Copy the content of the key file (pravo prints its path with \`pravo init\`), or unset $PRAVO_KEY to use the key file.`,
      );
    }
    key = keyFromBytes(bytes, "$PRAVO_KEY");
  } else {
    const path = keyFilePath(env);
    if (!path) {
      throw keyError(
        "pravo cannot tell where its key is",
        "Neither $PRAVO_KEY, $PRAVO_KEY_FILE, $XDG_CONFIG_HOME nor $HOME is set. Set $PRAVO_KEY_FILE to a file outside the root, such as /etc/pravo/key.",
      );
    }
    if (opts.root) {
      let root = opts.root;
      try {
        root = realpathSync(opts.root);
      } catch {
        // a root that does not exist yet holds nothing
      }
      if (isInside(root, realish(path))) {
        throw keyError(
          `The key file "${path}" is inside the root`,
          `Whoever can read the root could read the key, and with it forge plan files and read the secrets in the state. Move it outside "${opts.root}" and point $PRAVO_KEY_FILE at it.`,
        );
      }
    }
    key = readOrCreate(path, opts.create !== false);
  }
  if (opts.env === undefined) loadedKey = key;
  return key;
}

/** Forgets the key loaded in this process (tests). */
export function forgetLoadedKey(): void {
  loadedKey = undefined;
}

function readOrCreate(path: string, create: boolean): PravoKey {
  const read = (): PravoKey | undefined => {
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (e) {
      if ((e as { code?: string }).code === "ENOENT") return undefined;
      throw keyError(
        `Cannot read pravo's key "${path}"`,
        `${
          (e as Error).message
        }. Make the file readable by this user, or set $PRAVO_KEY_FILE to another key file.`,
      );
    }
    const bytes = keyBytesOf(text);
    if (!bytes) {
      throw keyError(
        `The key file "${path}" does not hold a pravo key`,
        `It must hold ${KEY_BYTES} bytes in base64 on one line. Restore it from its backup; if it is lost, plan files made with it cannot be applied and the secrets it sealed in the state must be read again (\`pravo apply\` with --replace).`,
      );
    }
    return keyFromBytes(bytes, path);
  };
  const found = read();
  if (found) return found;
  if (!create) {
    throw keyError(
      `pravo's key "${path}" does not exist`,
      "Run `pravo init` to create it, or set $PRAVO_KEY or $PRAVO_KEY_FILE to the key of whoever made the plan or the state.",
    );
  }
  const bytes = newKeyBytes();
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // Written beside it, then linked into place: the link fails if another
    // process made the key meanwhile, and that key is the one used.
    const tmp = `${path}.${Deno.pid}.${Date.now()}.tmp`;
    const fd = openSync(tmp, "wx", 0o600);
    try {
      writeSync(fd, encodeKey(bytes) + "\n");
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(tmp, path);
    } catch (e) {
      if ((e as { code?: string }).code !== "EEXIST") throw e;
    } finally {
      unlinkSync(tmp);
    }
  } catch (e) {
    throw keyError(
      `Cannot create pravo's key "${path}"`,
      `${
        (e as Error).message
      }. Make its folder writable, or set $PRAVO_KEY_FILE to a key file elsewhere outside the root.`,
    );
  }
  const now = read();
  if (!now) throw keyError(`pravo's key "${path}" vanished`, "Run the command again.");
  return now.fingerprint === keyFromBytes(bytes, path).fingerprint
    ? keyFromBytes(bytes, path, true)
    : now;
}
