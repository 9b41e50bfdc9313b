/**
 * Which records are due to be read again, from the state alone: those past
 * their refresh age, and those whose value has expired. Nothing here reads
 * the real world or writes the state; `drift --due` is a listing.
 *
 * @module
 */

import { parseDuration } from "../plan/duration.ts";
import { handlerFor } from "../providers/runtimes.ts";
import type { StateRecord } from "../state/store.ts";

/** Why a record is due: its refresh age has passed, or its value expired. */
export type DueBecause = "refresh_age" | "expired";

/** A record that is due to be read, and since when. */
export interface DueRecord {
  address: string;
  type: string;
  /** When the real world was last read for it (ISO 8601, UTC). */
  refreshedAt: string;
  refreshAge: string | null;
  /** When it became due: the earlier of refreshed + refresh age and the expiry. */
  dueSince: string;
  /** What made it due, the earlier first when both did. */
  because: DueBecause[];
}

/**
 * The record's due time, or undefined when it is not due at `now`. A record
 * with no refresh age (or one that cannot be read as a duration) is never
 * due by age; one whose type tells an expiry (`time_rotating`) is due once
 * that time has come. Only managed records are considered: data sources are
 * read again by every plan.
 *
 * @example
 * ```ts
 * import { strict as assert } from "node:assert";
 * import { dueOf } from "./due.ts";
 * const rec = {
 *   address: "notes", mode: "managed", type: "local_file", provider: "hashicorp/local",
 *   attributes: {}, refreshAge: "1h", refreshedAt: "2030-01-01T00:00:00.000Z",
 * } as const;
 * assert.equal(dueOf(rec, new Date("2030-01-01T00:30:00Z")), undefined);
 * assert.equal(dueOf(rec, new Date("2030-01-01T02:00:00Z"))?.dueSince, "2030-01-01T01:00:00.000Z");
 * ```
 */
export function dueOf(
  rec: Pick<
    StateRecord,
    "address" | "mode" | "type" | "provider" | "attributes" | "refreshAge" | "refreshedAt"
  >,
  now: Date,
): DueRecord | undefined {
  if (rec.mode !== "managed") return undefined;
  const times: { at: number; because: DueBecause }[] = [];
  const refreshed = Date.parse(rec.refreshedAt);
  const age = rec.refreshAge === null ? undefined : parseDuration(rec.refreshAge);
  if (age !== undefined && !Number.isNaN(refreshed) && now.getTime() - refreshed >= age) {
    times.push({ at: refreshed + age, because: "refresh_age" });
  }
  // expiresAt is a pure function of the recorded attributes: it reads nothing.
  const expires = handlerFor(rec.provider, "managed", rec.type)?.expiresAt?.(rec.attributes);
  const exp = expires === undefined ? NaN : Date.parse(expires);
  if (!Number.isNaN(exp) && exp <= now.getTime()) times.push({ at: exp, because: "expired" });
  if (times.length === 0) return undefined;
  times.sort((a, b) => a.at - b.at);
  return {
    address: rec.address,
    type: rec.type,
    refreshedAt: rec.refreshedAt,
    refreshAge: rec.refreshAge,
    dueSince: new Date(times[0].at).toISOString(),
    because: times.map((t) => t.because),
  };
}

/**
 * Every record due at `now`, the longest overdue first (the earliest due
 * time), then the least recently read, then by address.
 */
export function dueRecords(
  records: readonly Parameters<typeof dueOf>[0][],
  now: Date,
): DueRecord[] {
  const due = records.map((r) => dueOf(r, now)).filter((d): d is DueRecord => d !== undefined);
  return due.sort((a, b) =>
    cmp(a.dueSince, b.dueSince) ||
    (Date.parse(a.refreshedAt) - Date.parse(b.refreshedAt) || 0) ||
    cmp(a.address, b.address)
  );
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
