/**
 * Helpers shared by the built-in provider runtimes: reading configuration
 * with the schema's defaults, building responses, randomness (fresh or
 * seeded), content digests, RFC 3339 timestamps and Go-style durations.
 *
 * Nothing here keeps state between calls.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { type Diagnostic, error } from "../diag/diag.ts";
import type { Attrs, ImportRequest, Response } from "./runtime.ts";
import type { TypeSchema } from "./schema.ts";

// ---------------------------------------------------------------------------
// Configuration and responses

/** True when the attribute has a value (neither absent nor null). */
export function isSet(attrs: Attrs, name: string): boolean {
  return attrs[name] !== undefined && attrs[name] !== null;
}

/** The attribute's value, or the schema's default when it is unset. */
export function valueOf(type: TypeSchema, attrs: Attrs, name: string): unknown {
  if (isSet(attrs, name)) return attrs[name];
  return type.attributes[name]?.default;
}

/** A string attribute (or its default), undefined when unset. */
export function str(type: TypeSchema, attrs: Attrs, name: string): string | undefined {
  const v = valueOf(type, attrs, name);
  return v === undefined || v === null ? undefined : String(v);
}

/** An int attribute (or its default), undefined when unset. */
export function int(type: TypeSchema, attrs: Attrs, name: string): number | undefined {
  const v = valueOf(type, attrs, name);
  return v === undefined || v === null ? undefined : Number(v);
}

/** A bool attribute (or its default), false when unset. */
export function bool(type: TypeSchema, attrs: Attrs, name: string): boolean {
  return valueOf(type, attrs, name) === true;
}

/**
 * The attributes a handler stores: the configuration's declared inputs (with
 * their defaults filled in) and the computed values, nothing undeclared.
 */
export function stateOf(type: TypeSchema, config: Attrs, computed: Attrs): Attrs {
  const out: Attrs = {};
  for (const [name, a] of Object.entries(type.attributes)) {
    if (!a.required && !a.optional) continue;
    const v = valueOf(type, config, name);
    if (v !== undefined && v !== null) out[name] = v;
  }
  for (const [name, v] of Object.entries(computed)) {
    if (!(name in type.attributes)) throw new Error(`bug: ${type.name} has no attribute ${name}`);
    out[name] = v;
  }
  return out;
}

/** A successful response. */
export function ok<T>(value: T, diagnostics: Diagnostic[] = []): Response<T> {
  return { value, diagnostics };
}

/**
 * The delete of an object that lives only in the state (a random value, a
 * timestamp): nothing in the real world to remove, so it succeeds at once.
 */
export function forgetOnly(): Promise<Response<void>> {
  return Promise.resolve(ok(undefined));
}

/** A failed response with one error diagnostic about the node. */
export function fail<T>(address: string, summary: string, detail: string): Response<T> {
  return { diagnostics: [error(summary, detail, { address })] };
}

/** The message of a caught exception, for a diagnostic's detail. */
export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

// ---------------------------------------------------------------------------
// Randomness

/** A source of random bytes: fresh from the platform, or a seeded stream. */
export type ByteSource = (n: number) => Uint8Array;

/** Bytes from `crypto.getRandomValues`. */
export const cryptoBytes: ByteSource = (n) => {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i += 65536) {
    crypto.getRandomValues(out.subarray(i, Math.min(n, i + 65536)));
  }
  return out;
};

/**
 * A deterministic stream of bytes for a seed: SHA-256 of the seed and a
 * block counter, block after block. The same seed always gives the same
 * stream; it is not meant to be unpredictable to whoever knows the seed.
 */
export function seededBytes(seed: string): ByteSource {
  let counter = 0;
  let buffer = new Uint8Array(0);
  let pos = 0;
  return (n) => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      if (pos === buffer.length) {
        buffer = new Uint8Array(
          createHash("sha256").update(`pravo-seed:${seed}:${counter++}`).digest(),
        );
        pos = 0;
      }
      out[i] = buffer[pos++];
    }
    return out;
  };
}

/** A uniform integer in [0, n), n ≥ 1, without modulo bias. */
export function randomBelow(n: bigint, source: ByteSource): bigint {
  if (n <= 1n) return 0n;
  let bytes = 0;
  while (256n ** BigInt(bytes) < n) bytes++;
  const span = 256n ** BigInt(bytes);
  const limit = span - (span % n);
  for (;;) {
    let v = 0n;
    for (const b of source(bytes)) v = (v << 8n) | BigInt(b);
    if (v < limit) return v % n;
  }
}

/** A uniform index in [0, n) for small n. */
export function randomIndex(n: number, source: ByteSource): number {
  return Number(randomBelow(BigInt(n), source));
}

/** Shuffles a copy of `items` (Fisher–Yates). */
export function shuffle<T>(items: readonly T[], source: ByteSource): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomIndex(i + 1, source);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

// ---------------------------------------------------------------------------
// Digests (encodings are in lib/bytes.ts)

/**
 * The digests of a file's content as Terraform's local provider 2.5 gives
 * them: `id` is the SHA1 in hexadecimal.
 */
export function contentDigests(bytes: Uint8Array): Record<string, string> {
  const h = (alg: string) => createHash(alg).update(bytes).digest();
  const sha256 = h("sha256");
  const sha512 = h("sha512");
  const sha1 = h("sha1").toString("hex");
  return {
    content_md5: h("md5").toString("hex"),
    content_sha1: sha1,
    content_sha256: sha256.toString("hex"),
    content_base64sha256: sha256.toString("base64"),
    content_sha512: sha512.toString("hex"),
    content_base64sha512: sha512.toString("base64"),
    id: sha1,
  };
}

// ---------------------------------------------------------------------------
// Time

/** A timestamp and the UTC offset (in minutes) it was written with. */
export interface Timestamp {
  /** Milliseconds since the Unix epoch. */
  ms: number;
  /** The offset from UTC in minutes (`+02:00` is 120). */
  offset: number;
}

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$/;

/** Parses an RFC 3339 timestamp, keeping its offset; undefined when invalid. */
export function parseRfc3339(s: string): Timestamp | undefined {
  const m = RFC3339.exec(s);
  if (!m) return undefined;
  const [y, mo, d, h, mi, se] = m.slice(1, 7).map(Number);
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || se > 59) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d); // not Date.UTC, which reads years 0 to 99 as 1900 to 1999
  if (date.getUTCDate() !== d) return undefined; // 31 February
  date.setUTCHours(h, mi, se, m[7] ? Math.floor(Number(m[7]) * 1000) : 0);
  const wall = date.getTime();
  const offset = m[9] ? (m[9] === "-" ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11])) : 0;
  return { ms: wall - offset * 60_000, offset };
}

/** Formats as Go's `time.RFC3339` does: whole seconds, `Z` or `±hh:mm`. */
export function formatRfc3339(t: Timestamp): string {
  const w = new Date(t.ms + t.offset * 60_000);
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  const date = `${p(w.getUTCFullYear(), 4)}-${p(w.getUTCMonth() + 1)}-${p(w.getUTCDate())}`;
  const time = `${p(w.getUTCHours())}:${p(w.getUTCMinutes())}:${p(w.getUTCSeconds())}`;
  if (t.offset === 0) return `${date}T${time}Z`;
  const a = Math.abs(t.offset);
  return `${date}T${time}${t.offset < 0 ? "-" : "+"}${p(Math.floor(a / 60))}:${p(a % 60)}`;
}

/** Now, in UTC, to the second. */
export function now(): Timestamp {
  return { ms: Math.floor(Date.now() / 1000) * 1000, offset: 0 };
}

/**
 * The parts of a timestamp in its own offset (as Go's `Time.Year()` and so
 * on give them) and its Unix time.
 */
export function timeParts(t: Timestamp): Record<string, number> {
  const w = new Date(t.ms + t.offset * 60_000);
  return {
    year: w.getUTCFullYear(),
    month: w.getUTCMonth() + 1,
    day: w.getUTCDate(),
    hour: w.getUTCHours(),
    minute: w.getUTCMinutes(),
    second: w.getUTCSeconds(),
    unix: Math.floor(t.ms / 1000),
  };
}

export interface CalendarOffset {
  years?: number;
  months?: number;
  days?: number;
  hours?: number;
  minutes?: number;
  seconds?: number;
}

/**
 * Adds years, months and days on the calendar (normalising as Go's
 * `AddDate` does: 31 January plus one month is 2 or 3 March), then hours,
 * minutes and seconds as elapsed time.
 */
export function addCalendar(t: Timestamp, o: CalendarOffset): Timestamp {
  const w = new Date(t.ms + t.offset * 60_000);
  const date = new Date(0);
  date.setUTCFullYear(
    w.getUTCFullYear() + (o.years ?? 0),
    w.getUTCMonth() + (o.months ?? 0),
    w.getUTCDate() + (o.days ?? 0),
  );
  date.setUTCHours(w.getUTCHours(), w.getUTCMinutes(), w.getUTCSeconds(), w.getUTCMilliseconds());
  const elapsed = ((o.hours ?? 0) * 3600 + (o.minutes ?? 0) * 60 + (o.seconds ?? 0)) * 1000;
  return { ms: date.getTime() - t.offset * 60_000 + elapsed, offset: t.offset };
}

const UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  "µs": 1e-3,
  "μs": 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/**
 * Parses a duration as Go's `time.ParseDuration` does (`"30s"`, `"1m30s"`,
 * `"1.5h"`, `"250ms"`) into milliseconds; undefined when invalid. A sign is
 * accepted as Go accepts it.
 */
export function parseDuration(s: string): number | undefined {
  const m = /^([+-]?)(.*)$/.exec(s)!;
  const body = m[2];
  if (body === "0") return 0;
  if (body === "") return undefined;
  const re = /(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;
  let total = 0;
  let at = 0;
  while (at < body.length) {
    re.lastIndex = at;
    const part = re.exec(body);
    if (!part) return undefined;
    total += Number(part[1]) * UNITS[part[2]];
    at = re.lastIndex;
  }
  return m[1] === "-" ? -total : total;
}

/**
 * Waits `ms` milliseconds; resolves true when the time passed, false as soon
 * as the signal aborts.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  const end = performance.now() + ms;
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout>;
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    // Timers may fire a little early by this clock: wait again for the rest.
    const arm = () => {
      timer = setTimeout(() => {
        if (performance.now() < end) return arm();
        signal?.removeEventListener("abort", onAbort);
        resolve(true);
      }, Math.max(1, end - performance.now()));
    };
    arm();
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The refusal of an import ID that is not in its type's format, with an example of one that is. */
export function badId(
  req: ImportRequest,
  format: string,
  why: string,
  example: string,
): Promise<Response<Attrs | null>> {
  return Promise.resolve(
    fail<Attrs | null>(
      req.address,
      `Invalid import ID for ${req.type.name}`,
      `${why}. A ${req.type.name} is imported with an ID of the form ${format}; write it as, ` +
        `for example, \`pravo import ${req.address} ${example}\`.`,
    ),
  );
}
