/**
 * The documents that `pravo drift` prints with `--json`, and the human views
 * rendered from those same documents.
 *
 * Sensitive values never reach a document: the value at each sensitive path
 * of a record becomes `"(sensitive)"`, in what the state holds and in what
 * was read, and so does any other string that contains a sensitive value of
 * either (see `lib/state/view.ts`). Attribute names are never secret.
 *
 * @module
 */

import { BUILTIN_REGISTRY, type Registry } from "../providers/registry.ts";
import type { StateRecord } from "../state/store.ts";
import { STATE_FORMAT_VERSION } from "../state/view.ts";
import { redactAttributes, sensitivePathsOf, sensitiveStrings } from "../secrets/paths.ts";
import type { DueBecause, DueRecord } from "./due.ts";
import type { DriftReport, DriftStatus } from "./read.ts";

/** The `format_version` of the drift documents. */
export const DRIFT_FORMAT_VERSION = STATE_FORMAT_VERSION;

type Attrs = Record<string, unknown>;

/** One record that differs from the real world. */
export interface DriftEntry {
  address: string;
  type: string;
  status: DriftStatus;
  /** The attributes whose values differ, sorted; empty when gone. */
  changed: string[];
  /** The attributes in the state, redacted. */
  before: Attrs;
  /** The attributes read now, redacted; null when the object is gone. */
  now: Attrs | null;
}

/** The document of `pravo drift`. */
export interface DriftDocument {
  format_version: string;
  /** The records read that differ (drifted or gone), by address. */
  drift: DriftEntry[];
  /** The types whose records cannot be read, with how many records of each. */
  not_readable: { type: string; count: number }[];
  /** The records whose read failed (the diagnostics say why), by address. */
  failed: { address: string; type: string }[];
  summary: {
    /** Records read, whatever they showed. */
    read: number;
    drifted: number;
    gone: number;
    unchanged: number;
    not_readable: number;
    failed: number;
  };
}

/** The document of a drift run, sensitive values redacted. */
export function driftDocument(
  report: DriftReport,
  records: readonly StateRecord[],
  registry: Registry,
): DriftDocument {
  const read = report.results;
  const nowRecords = read.filter((r) => r.now !== null).map((r) => ({
    ...r.record,
    attributes: r.now!,
  }));
  const secrets = new Set([
    ...sensitiveStrings(records, registry.findType),
    ...sensitiveStrings(nowRecords, registry.findType),
  ]);
  const drift = read.filter((r) => r.status !== "unchanged").map((r): DriftEntry => {
    const paths = sensitivePathsOf(r.record, registry.findType);
    return {
      address: r.record.address,
      type: r.record.type,
      status: r.status,
      changed: r.changed,
      before: redactAttributes(r.record.attributes, paths, secrets),
      now: r.now === null ? null : redactAttributes(r.now, paths, secrets),
    };
  });
  const byType = new Map<string, number>();
  for (const rec of report.notReadable) byType.set(rec.type, (byType.get(rec.type) ?? 0) + 1);
  const count = (s: DriftStatus) => read.filter((r) => r.status === s).length;
  return {
    format_version: DRIFT_FORMAT_VERSION,
    drift,
    not_readable: [...byType].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map((
      [type, count],
    ) => ({ type, count })),
    failed: report.failed.map((r) => ({ address: r.address, type: r.type })),
    summary: {
      read: read.length,
      drifted: count("drifted"),
      gone: count("gone"),
      unchanged: count("unchanged"),
      not_readable: report.notReadable.length,
      failed: report.failed.length,
    },
  };
}

export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The attributes of a managed type that the configuration sets (not computed). */
function inputsOf(type: string, registry: Pick<Registry, "findTypes">): Set<string> | undefined {
  const t = registry.findTypes(type).find((f) => f.type.mode === "managed")?.type;
  if (!t) return undefined;
  return new Set(
    Object.entries(t.attributes).filter(([, a]) => a.required || a.optional).map(([k]) => k),
  );
}

/**
 * What changed in one line: the inputs that changed, and how many computed
 * attributes followed them (a file's digests follow its content); all the
 * names when no input changed.
 */
export function changedText(
  entry: Pick<DriftEntry, "type" | "changed">,
  registry: Pick<Registry, "findTypes"> = BUILTIN_REGISTRY,
): string {
  const inputs = inputsOf(entry.type, registry);
  const named = inputs ? entry.changed.filter((k) => inputs.has(k)) : [];
  if (named.length === 0) return `${entry.changed.join(", ")} changed`;
  const rest = entry.changed.length - named.length;
  return `${named.join(", ")} changed` +
    (rest ? ` (and ${plural(rest, "computed attribute", "computed attributes")})` : "");
}

/** One record due for a refresh, as `drift --due` prints it. */
export interface DueEntry {
  address: string;
  type: string;
  refreshed_at: string;
  refresh_age: string | null;
  due_since: string;
  because: DueBecause[];
}

/** The document of `pravo drift --due`. */
export interface DueDocument {
  format_version: string;
  /** At most `limit` records, the longest overdue first. */
  due: DueEntry[];
  /** How many records are due in all. */
  total_due: number;
  limit: number;
  truncated: boolean;
}

/** The document of `drift --due`: at most `limit` of the due records. */
export function dueDocument(due: readonly DueRecord[], limit: number): DueDocument {
  const shown = due.slice(0, limit).map((d) => ({
    address: d.address,
    type: d.type,
    refreshed_at: d.refreshedAt,
    refresh_age: d.refreshAge,
    due_since: d.dueSince,
    because: d.because,
  }));
  return {
    format_version: DRIFT_FORMAT_VERSION,
    due: shown,
    total_due: due.length,
    limit,
    truncated: shown.length < due.length,
  };
}
