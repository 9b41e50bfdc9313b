/**
 * Views of the state for the commands that read it (`state show`,
 * `state query`, `state dependents`, `state log`, `state locks`, `output`):
 * the JSON documents they print and the human renderings made from those
 * same documents.
 *
 * Sensitive values never reach a document unless asked for: the value at
 * each sensitive path of a record (those the record names and those its
 * type's schema marks) becomes `"(sensitive)"`, and so does any other
 * string that contains a sensitive string value (a value is traced, not
 * declared, as in the plan document).
 *
 * Nothing here loads cue-wasm.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import { DiagnosticsError, didYouMean, error } from "../diag/diag.ts";
import type { LockInfo, LogEntry, Reservation, StateIdentity, StateRecord } from "./store.ts";
import {
  pathText,
  redactAttributes,
  REDACTED,
  SENSITIVE_TEXT,
  sensitivePathsOf,
  sensitiveStrings,
  traceSecrets,
} from "../secrets/paths.ts";
import type { TypeLookup } from "../providers/registry.ts";

/** The `format_version` of every document on this page. */
export const STATE_FORMAT_VERSION = "1.0";

type Json = Record<string, unknown>;

/** When a record is due to be read again: refreshed + refresh age, or null. */
export function refreshDue(rec: Pick<StateRecord, "refreshAge" | "refreshedAt">): string | null {
  if (rec.refreshAge === null) return null;
  const ms = durationMs(rec.refreshAge);
  const from = Date.parse(rec.refreshedAt);
  if (ms === undefined || Number.isNaN(from)) return null;
  return new Date(from + ms).toISOString();
}

/** Milliseconds in `30s`, `1h30m`, `7d`; as the configuration writes refresh ages. */
function durationMs(text: string): number | undefined {
  if (text === "0") return 0;
  const units: Record<string, number> = { ms: 1, s: 1e3, m: 6e4, h: 3.6e6, d: 8.64e7 };
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;
  let total = 0;
  let end = 0;
  let m;
  while ((m = re.exec(text))) {
    total += Number(m[1]) * units[m[2]];
    end = re.lastIndex;
  }
  return end === text.length && end > 0 ? total : undefined;
}

/** The JSON form of a record, sensitive values redacted unless `showSensitive`. */
export function recordDocument(
  rec: StateRecord,
  opts: { showSensitive?: boolean; secrets?: ReadonlySet<string>; types: TypeLookup },
) {
  const paths = sensitivePathsOf(rec, opts.types);
  return {
    address: rec.address,
    mode: rec.mode,
    type: rec.type,
    provider: rec.provider,
    ...(rec.providerInstance ? { provider_instance: rec.providerInstance } : {}),
    attributes: opts.showSensitive
      ? rec.attributes
      : redactAttributes(rec.attributes, paths, opts.secrets ?? new Set()),
    sensitive: paths.map(pathText).sort(),
    dependencies: [...rec.dependencies].sort(),
    config_digest: rec.configDigest,
    created_at: rec.createdAt,
    updated_at: rec.updatedAt,
    refreshed_at: rec.refreshedAt,
    refresh_age: rec.refreshAge,
    refresh_due: refreshDue(rec),
  };
}

export type RecordDocument = ReturnType<typeof recordDocument>;

/**
 * The state document that `state query` evaluates expressions over:
 * `{lineage, serial, nodes: {"<address>": record}}`, sensitive values
 * redacted.
 */
export function stateDocument(
  identity: StateIdentity,
  records: readonly StateRecord[],
  { types }: { types: TypeLookup },
) {
  const secrets = sensitiveStrings(records, types);
  const nodes: Record<string, RecordDocument> = {};
  for (const rec of records) nodes[rec.address] = recordDocument(rec, { secrets, types });
  return { lineage: identity.lineage, serial: identity.serial, nodes };
}

/** The error for an address with no record, with a did-you-mean over the state's. */
export function unknownAddress(address: string, addresses: readonly string[]): DiagnosticsError {
  const hint = didYouMean(address, addresses);
  const what = addresses.length === 0
    ? "The state has no records yet: nothing has been applied in this root."
    : `The state has no record at "${address}"${hint ? `; ${hint}` : "."}`;
  const todo = addresses.length === 0
    ? " Run `pravo plan --out x.plan` and `pravo apply x.plan` first."
    : " Give the address of a node in the state; `pravo state query '[for a, _ in nodes {a}]'` lists them.";
  return new DiagnosticsError(
    [error(`No record for "${address}"`, what + todo)],
    "error",
  );
}

/**
 * Reads a `--limit` value: a whole number, 0 meaning no limit. A bad value
 * is a usage error naming the flag.
 */
export function parseLimit(value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  const text = String(value);
  if (!/^\d+$/.test(text)) {
    throw new DiagnosticsError([
      error(
        `--limit "${text}" is not a whole number`,
        "--limit takes how many to show, such as --limit 50; --limit 0 shows all.",
      ),
    ], "usage");
  }
  return Number(text);
}

/** The names of the attributes that differ between before and after, sorted. */
export function changedAttributes(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): string[] {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  return [...keys].filter((k) => !isDeepStrictEqual(before?.[k], after?.[k])).sort();
}

/**
 * The log as an operator reads it: the transactions of one run (an apply
 * records each node in a transaction of its own, so that a crash keeps what
 * was done) as one entry, newest first like the log. The entry has the id,
 * serial and time of the run's last transaction, `firstSerial` and
 * `startedAt` of its first, and the changes in the order they were made.
 */
export function entriesByRun(log: readonly LogEntry[]): RunEntry[] {
  const out: RunEntry[] = [];
  for (const e of log) {
    const last = out[out.length - 1];
    if (last && e.run !== null && last.run === e.run) {
      last.changes = [...e.changes, ...last.changes];
      last.firstSerial = e.serial;
      last.startedAt = e.at;
      continue;
    }
    out.push({ ...e, firstSerial: e.serial, startedAt: e.at });
  }
  return out;
}

/** A log entry for one run: one transaction or several ({@linkcode entriesByRun}). */
export interface RunEntry extends LogEntry {
  /** The serial the state reached with the run's first transaction. */
  firstSerial: number;
  /** When the run's first transaction was committed. */
  startedAt: string;
}

/**
 * The JSON form of a log entry. Sensitive values are the store's markers;
 * any other string that contains one of `secrets` (the sensitive values of
 * the records now) is redacted too.
 */
export function logEntryDocument(
  entry: LogEntry & Partial<RunEntry>,
  secrets: ReadonlySet<string> = new Set(),
) {
  return {
    id: entry.id,
    at: entry.at,
    serial: entry.serial,
    started_at: entry.startedAt ?? entry.at,
    first_serial: entry.firstSerial ?? entry.serial,
    actor: entry.actor,
    reason: entry.reason,
    command: entry.command,
    plan_id: entry.planId,
    plan_actor: entry.planActor,
    plan_reason: entry.planReason,
    changes: entry.changes.map((c) => ({
      address: c.address,
      action: c.action,
      changed: changedAttributes(c.before, c.after),
      before: traceSecrets(c.before, secrets) as Record<string, unknown> | null,
      after: traceSecrets(c.after, secrets) as Record<string, unknown> | null,
    })),
  };
}

export type LogEntryDocument = ReturnType<typeof logEntryDocument>;

/** The JSON form of the state lock. */
export function lockDocument(lock: LockInfo) {
  return {
    id: lock.id,
    actor: lock.actor,
    reason: lock.reason,
    command: lock.command,
    pid: lock.pid,
    hostname: lock.hostname,
    since: lock.since,
    expires: lock.expires,
    stale: lock.stale ?? null,
  };
}

/** The JSON form of a reservation. */
export function reservationDocument(r: Reservation) {
  return {
    id: r.id,
    addresses: [...r.addresses].sort(),
    actor: r.actor,
    reason: r.reason,
    plan_id: r.planId,
    created: r.created,
    expires: r.expires,
  };
}

/** A node that depends on another, and how far from it. */
export interface Dependent {
  address: string;
  mode: string;
  type: string;
  /** 1 for a direct dependent, 2 for a dependent of one, and so on (the shortest way). */
  depth: number;
  /** The nodes one step nearer to the target that this one depends on, sorted. */
  via: string[];
}

/**
 * The records that depend on `address`, directly or through others, from
 * the records' dependencies: nearest first, then by address.
 */
export function dependentsOf(records: readonly StateRecord[], address: string): Dependent[] {
  const dependents = new Map<string, StateRecord[]>();
  for (const rec of records) {
    for (const d of rec.dependencies) {
      dependents.set(d, [...(dependents.get(d) ?? []), rec]);
    }
  }
  const depth = new Map<string, number>([[address, 0]]);
  const out: Dependent[] = [];
  let frontier = [address];
  for (let level = 1; frontier.length > 0; level++) {
    const next = new Map<string, Dependent>();
    for (const a of frontier) {
      for (const rec of dependents.get(a) ?? []) {
        if (depth.has(rec.address) && !next.has(rec.address)) continue;
        const d = next.get(rec.address) ??
          { address: rec.address, mode: rec.mode, type: rec.type, depth: level, via: [] };
        d.via.push(a);
        next.set(rec.address, d);
      }
    }
    for (const d of next.values()) {
      depth.set(d.address, level);
      d.via.sort();
      out.push(d);
    }
    frontier = [...next.keys()];
  }
  return out.sort((a, b) =>
    a.depth - b.depth || (a.address < b.address ? -1 : a.address > b.address ? 1 : 0)
  );
}

// Human renderings, each from the JSON document the command prints.

/** A value for one line: strings quoted, structures as compact JSON. */
export function inlineValue(v: unknown): string {
  if (v === REDACTED) return SENSITIVE_TEXT;
  return JSON.stringify(v) ?? "null";
}

/**
 * Whether a view may show sensitive values: `--show-sensitive` is honoured
 * only when standard output is a terminal, and refused (exit 64) otherwise.
 */
export function showSensitive(flag: unknown, isTerminal: boolean): boolean {
  if (!flag) return false;
  if (!isTerminal) {
    throw new DiagnosticsError([
      error(
        "--show-sensitive needs a terminal",
        "Sensitive values are shown only when standard output is a terminal, so that they do " +
          "not end up in a file, a pipe or a log. Run the command in a terminal without " +
          "redirecting its output, or leave out --show-sensitive.",
      ),
    ], "usage");
  }
  return true;
}
