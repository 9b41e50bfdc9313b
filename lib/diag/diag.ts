/**
 * Diagnostics: problems reported as data, not exceptions.
 *
 * A diagnostic has a severity, a summary that names the problem, a detail
 * whose last sentence says what to do, and where known the node address and
 * the source range it concerns. Commands gather diagnostics and return them
 * with their result; exceptions are for bugs.
 *
 * @module
 */

/** A position in a source file; line and column count from 1. */
export interface SourcePos {
  file: string;
  line: number;
  column: number;
}

export type Severity = "error" | "warning";

/**
 * A step into a node's value: an attribute by name, a map element by key, a
 * list element by index. A provider names the attribute a diagnostic is
 * about with these; the engine maps them to the CUE declaration.
 */
export type AttributeStep = { name: string } | { key: string } | { index: number };

/** Where a diagnostic points. */
export interface Where {
  address?: string;
  range?: SourcePos;
  attribute?: AttributeStep[];
}

export interface Diagnostic {
  severity: Severity;
  summary: string;
  detail: string;
  /** The node address the problem concerns, when there is one. */
  address?: string;
  /** Where in the sources the problem is, when known. */
  range?: SourcePos;
  /** The attribute of the node the problem is about, when known. */
  attribute?: AttributeStep[];
}

/** Makes an error diagnostic. */
export function error(summary: string, detail: string, where: Where = {}): Diagnostic {
  return { severity: "error", summary, detail, ...clean(where) };
}

/** Makes a warning diagnostic. */
export function warning(summary: string, detail: string, where: Where = {}): Diagnostic {
  return { severity: "warning", summary, detail, ...clean(where) };
}

function clean(where: Where): Where {
  const out: Where = {};
  if (where.address !== undefined) out.address = where.address;
  if (where.range !== undefined) out.range = where.range;
  if (where.attribute !== undefined) out.attribute = where.attribute;
  return out;
}

/** True when any diagnostic is an error. */
export function hasErrors(diags: readonly Diagnostic[]): boolean {
  return diags.some((d) => d.severity === "error");
}

/**
 * What kind of failure ended a command. The engine says what went wrong;
 * only the commands turn a kind into an exit code (`lib/cli/exit.ts` holds
 * the one table, documented in `docs/reference/exit-codes.md`).
 */
export type FailureKind =
  /** Something failed that is none of the kinds below. */
  | "error"
  /** The specification is invalid. */
  | "invalid"
  /** A lock or a reservation is held by someone else. */
  | "locked"
  /** Refused by a policy, or a policy could not be used. */
  | "policy"
  /** The saved plan is stale: the state moved since it was made. */
  | "stale"
  /** The plan file is damaged, truncated or not a plan file. */
  | "plan_damaged"
  /** The plan file was made for another root. */
  | "plan_other_root"
  /** The plan file has a newer format than this pravo reads. */
  | "plan_newer"
  /** The command line is wrong: an unknown command, flag or value. */
  | "usage"
  /** Stopped by SIGINT or SIGHUP. */
  | "interrupted"
  /** Stopped by SIGTERM. */
  | "terminated";

/**
 * An error that carries diagnostics and the kind of failure they are.
 * Thrown from deep inside a command to end it cleanly; the command maps the
 * kind to its exit code and renders the diagnostics.
 */
export class DiagnosticsError extends Error {
  readonly diagnostics: Diagnostic[];
  readonly kind: FailureKind;
  constructor(diagnostics: Diagnostic[], kind: FailureKind) {
    super(diagnostics.map((d) => d.summary).join("; "));
    this.name = "DiagnosticsError";
    this.diagnostics = diagnostics;
    this.kind = kind;
  }
}

/** The Levenshtein distance between two strings. */
export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(
        prev[j] + 1,
        prev[j - 1] + 1,
        diag + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      diag = tmp;
    }
  }
  return prev[b.length];
}

/**
 * The candidate nearest to `given`, when it is near enough to be a likely
 * typo (Terraform's rule of thumb: distance under a third of the length, at
 * least 2).
 */
export function nearest(
  given: string,
  candidates: Iterable<string>,
): string | undefined {
  let best: string | undefined;
  let bestDist = Infinity;
  for (const c of candidates) {
    const d = editDistance(given.toLowerCase(), c.toLowerCase());
    if (d < bestDist) {
      best = c;
      bestDist = d;
    }
  }
  const limit = Math.max(2, Math.floor(given.length / 3));
  return bestDist <= limit ? best : undefined;
}

/** "did you mean X?" or "", ready to add to a detail. */
export function didYouMean(
  given: string,
  candidates: Iterable<string>,
): string {
  const n = nearest(given, candidates);
  return n === undefined ? "" : `did you mean "${n}"?`;
}
