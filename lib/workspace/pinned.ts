/**
 * What `pravo mcp` pins when it starts, and hands to each tool's process.
 *
 * An agent can edit every file inside the root, so a child of the server
 * must not decide from those files where the state lives, which policies
 * judge a plan, or which settings apply. The server reads all of that once,
 * at start: the state location (from `--state`, `$PRAVO_STATE` or
 * `pravo.jsonc`), `pravo.jsonc` itself, `pravo.lock.json`, the bytes of each
 * `--policy`, and its global flags (`-t`, `--actor`, `--reason`). It writes
 * that document to each child's standard input, and starts the child with
 * {@link PINNED_FLAG} as its first argument; `main.ts` reads the document
 * before anything else and opens the command's workspace with it
 * (workspace.ts: `Workspace.pinned`), which hands it down.
 * Standard input is a channel the agent cannot touch, and unlike the command
 * line it has no size limit and is not shown by `ps`, so a password in a
 * `--state` URL stays out of sight.
 *
 * Code that reads one of these files is given the pinned document and uses
 * it first: the state location (`lib/state/open.ts`), `pravo.jsonc`
 * (config.ts), the policies (`policy/load.ts`), the lock file (lock.ts) and
 * the modules (`lib/cue/module_cache.ts`). A
 * setting added to `pravo.jsonc` (such as `providers`) is pinned with the
 * rest, since the whole parsed file travels; plugin binaries named in
 * `pravo.lock.json` are read from {@link lockFileText}.
 *
 * @module
 */

import { resolve } from "node:path";
import type { PravoConfig } from "../config/types.ts";
import type { StateLocation } from "../config/location.ts";
import { fromBase64 } from "../bytes.ts";
import type { PinnedPlugin } from "../providers/plugin/inputs.ts";

export type { PinnedPlugin };

/** The first argument of a child of `pravo mcp`: read the pinned document from stdin. */
export const PINNED_FLAG = "--pinned-stdin";

/** The largest pinned document a child reads (policies included). */
export const MAX_PINNED_BYTES = 64 * 1024 * 1024;

/** One policy, as the server read it at start. */
export interface PinnedPolicy {
  /** The absolute path given to `--policy`. */
  path: string;
  /** The file's bytes, base64. */
  bytes: string;
}

/** What the server read at start. */
export interface Pinned {
  /** The document's format. */
  pinned: 1;
  /** The root the server serves, absolute. */
  root: string;
  /** Where the state lives, resolved at start (a password in the URL included). */
  state: StateLocation;
  /** `pravo.jsonc` as it was parsed at start (`{}` when the root has none). */
  config: PravoConfig;
  /** The path of `pravo.jsonc`, when the root has one. */
  configPath?: string;
  /** The text of `pravo.lock.json` at start, when the root has one. */
  lockFile?: string;
  /** The plugin providers of that lock, verified at start. */
  plugins?: PinnedPlugin[];
  /**
   * The CUE dependency modules of that lock, as the server read them from
   * pravo's cache at start and checked against the lock's digests: the zip
   * of each, base64 (lib/cue/module_cache.ts).
   */
  modules?: { module: string; version: string; digest: string; zip: string }[];
  /** Every `--policy` of the server, in order. */
  policies: PinnedPolicy[];
  /** The server's `-t` tags: they win over an agent's. */
  tags: Record<string, string>;
  actor: string;
  reason: string;
  /**
   * `pravo mcp --read-only`: the child writes nothing, the state included
   * (a drift does not record refresh times, the evaluation cache in the
   * root is not written). The state is opened read-only.
   */
  readOnly?: true;
  /**
   * The approvers' public keys the server trusts (`--approver`), as the PEM
   * text it read at start: `show` says whether a plan is approved by one.
   */
  approvers?: { path: string; pem: string }[];
}

/** True in a child of `pravo mcp --read-only` (`doc` its pinned document): nothing is to be written. */
export function readOnlyRun(doc: Pinned | undefined): boolean {
  return doc?.readOnly === true;
}

/** `doc` when it is the pinned document of `root` (the root the server serves), else undefined. */
export function pinnedFor(doc: Pinned | undefined, root: string): Pinned | undefined {
  return doc !== undefined && resolve(root) === doc.root ? doc : undefined;
}

/**
 * Reads a pinned document; throws an Error naming what is wrong (a bug in the
 * server, or a process started by hand with {@link PINNED_FLAG}).
 */
export function parsePinned(text: string): Pinned {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new Error(`the pinned document on standard input is not JSON: ${(e as Error).message}`);
  }
  const d = doc as Partial<Pinned>;
  const fail = (what: string) => {
    throw new Error(`the pinned document on standard input ${what}`);
  };
  if (!d || typeof d !== "object" || d.pinned !== 1) fail("is not of format 1");
  if (typeof d.root !== "string" || !d.root.startsWith("/")) fail("names no absolute root");
  if (!d.state || typeof d.state !== "object" || typeof d.state.backend !== "string") {
    fail("names no state location");
  }
  if (!d.config || typeof d.config !== "object") fail("has no configuration");
  if (
    !Array.isArray(d.policies) ||
    d.policies.some((p) => typeof p?.path !== "string" || typeof p?.bytes !== "string")
  ) {
    fail("has no list of policies");
  }
  if (
    !d.tags || typeof d.tags !== "object" ||
    Object.values(d.tags).some((v) => typeof v !== "string")
  ) {
    fail("has no tags");
  }
  if (typeof d.actor !== "string" || typeof d.reason !== "string") fail("has no actor or reason");
  if (
    d.plugins !== undefined &&
    (!Array.isArray(d.plugins) ||
      d.plugins.some((p) =>
        typeof p?.address !== "string" || typeof p?.version !== "string" ||
        typeof p?.packageDir !== "string" || !p.packageDir.startsWith("/") ||
        typeof p?.executable !== "string" || !p.executable.startsWith("/") ||
        !Array.isArray(p?.hashes) || p.hashes.some((h) => typeof h !== "string")
      ))
  ) {
    fail("has a malformed list of plugin providers");
  }
  if (
    d.modules !== undefined &&
    (!Array.isArray(d.modules) ||
      d.modules.some((m) =>
        typeof m?.module !== "string" || typeof m?.version !== "string" ||
        typeof m?.digest !== "string" || typeof m?.zip !== "string"
      ))
  ) {
    fail("has a malformed list of modules");
  }
  if (d.readOnly !== undefined && d.readOnly !== true) fail("has a readOnly that is not true");
  if (
    d.approvers !== undefined &&
    (!Array.isArray(d.approvers) ||
      d.approvers.some((a) => typeof a?.path !== "string" || typeof a?.pem !== "string"))
  ) {
    fail("has a malformed list of approvers");
  }
  return d as Pinned;
}

/** The bytes of a pinned policy, or undefined when `file` (absolute) was not pinned. */
export function pinnedPolicyBytes(doc: Pinned, file: string): Uint8Array | undefined {
  const p = doc.policies.find((x) => resolve(x.path) === file);
  if (!p) return undefined;
  return fromBase64(p.bytes);
}

/** The most bytes of `pravo.lock.json` pravo reads. */
export const MAX_LOCK_FILE_BYTES = 16 * 1024 * 1024;

/**
 * Tags for a pinned run: the server's (the operator's) and the agent's. The
 * operator's win: an agent tag that gives one of their keys another value is
 * refused, so that what the agent asked for is never silently changed.
 * Returns the merged tags, or the key that conflicts.
 */
export function mergeTags(
  operator: Record<string, string>,
  agent: Record<string, string>,
): { tags: Record<string, string> } | { conflict: string } {
  const tags: Record<string, string> = { ...agent };
  for (const [k, v] of Object.entries(operator)) {
    if (Object.hasOwn(agent, k) && agent[k] !== v) return { conflict: k };
    tags[k] = v;
  }
  return { tags };
}
