/**
 * Provider versions (semantic versions) and version constraints in
 * Terraform's syntax, with Terraform's meaning:
 *
 * - conditions separated by commas, all of which must hold:
 *   `">= 1.2, < 2.0"`;
 * - `=` (or no operator) one exact version, `!=` all but one, `>`, `>=`,
 *   `<`, `<=` comparisons, `~>` the rightmost given part may grow
 *   (`~> 5.100` is `>= 5.100.0, < 6.0.0`; `~> 1.2.3` is `>= 1.2.3, < 1.3.0`);
 * - omitted parts are zero (`>= 1.2` is `>= 1.2.0`);
 * - a pre-release (`2.0.0-beta1`) is chosen only when a `=` condition names
 *   it exactly: `>= 1.0` never selects `2.0.0-beta1`;
 * - build metadata (`+abc`) counts only for `=` and `!=`.
 *
 * {@link constraintsString} gives the canonical form that lock files record,
 * as Terraform writes it (`~> 5.100`, `>= 1.2.0, < 2.0.0`).
 *
 * @module
 */

/** A version: `5.100.0`, `2.0.0-beta.1`, `1.0.0+build.7`. */
export interface Version {
  major: number;
  minor: number;
  patch: number;
  /** The pre-release part without its dash; `""` for a release. */
  prerelease: string;
  /** The build metadata without its plus; usually `""`. */
  metadata: string;
}

const EXTRA = "[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*";
const VERSION = new RegExp(`^(\\d+)\\.(\\d+)\\.(\\d+)(?:-(${EXTRA}))?(?:\\+(${EXTRA}))?$`);

/** Parses an exact version, or returns undefined. */
export function parseVersion(text: string): Version | undefined {
  const m = VERSION.exec(text);
  if (!m) return undefined;
  const nums = [m[1], m[2], m[3]].map(Number);
  if (nums.some((n) => !Number.isSafeInteger(n))) return undefined;
  return {
    major: nums[0],
    minor: nums[1],
    patch: nums[2],
    prerelease: m[4] ?? "",
    metadata: m[5] ?? "",
  };
}

/** `1.2.3-beta+meta`. */
export function versionString(v: Version): string {
  return `${v.major}.${v.minor}.${v.patch}` + (v.prerelease ? `-${v.prerelease}` : "") +
    (v.metadata ? `+${v.metadata}` : "");
}

/**
 * Semantic-version precedence: negative, zero or positive. Build metadata is
 * ignored, as semver says.
 */
export function compareVersions(a: Version, b: Version): number {
  for (const k of ["major", "minor", "patch"] as const) {
    if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
  }
  return comparePrerelease(a.prerelease, b.prerelease);
}

function comparePrerelease(a: string, b: string): number {
  if (a === b) return 0;
  if (a === "") return 1; // a release ranks above its pre-releases
  if (b === "") return -1;
  const x = a.split(".");
  const y = b.split(".");
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const xn = /^\d+$/.test(x[i]);
    const yn = /^\d+$/.test(y[i]);
    if (xn && yn) {
      const d = Number(x[i]) - Number(y[i]);
      if (d !== 0) return d < 0 ? -1 : 1;
    } else if (xn !== yn) {
      return xn ? -1 : 1; // numeric identifiers rank below alphanumeric ones
    } else if (x[i] !== y[i]) {
      return x[i] < y[i] ? -1 : 1;
    }
  }
  return x.length === y.length ? 0 : x.length < y.length ? -1 : 1;
}

/** The same version, metadata included. */
export function sameVersion(a: Version, b: Version): boolean {
  return compareVersions(a, b) === 0 && a.metadata === b.metadata;
}

/** The operators of a condition. `~>` comes in two kinds, by how many parts it names. */
export type Operator = "=" | "!=" | ">" | ">=" | "<" | "<=" | "~>minor" | "~>patch";

/** One condition: an operator and a version whose omitted parts are zero. */
export interface Condition {
  op: Operator;
  version: Version;
}

/** Why a constraint string was refused. */
export class ConstraintError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConstraintError";
  }
}

const CONDITION =
  /^([^0-9A-Za-z\s.*]*)(\s*v?\s*)([0-9*xX]+(?:\.[0-9*xX]+)*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?/;

/**
 * Parses a constraint string: conditions separated by commas. An empty
 * string allows every version.
 *
 * @example
 * ```ts
 * import { constraintsString, parseConstraints } from "./version.ts";
 * if (constraintsString(parseConstraints(">=1.2,<2")) !== ">= 1.2.0, < 2.0.0") throw new Error();
 * ```
 */
export function parseConstraints(text: string): Condition[] {
  const out: Condition[] = [];
  let rest = text.trim();
  while (rest !== "") {
    const m = CONDITION.exec(rest);
    if (!m) {
      if (/^[^0-9A-Za-z\s.*]*\s*v/.test(rest)) {
        throw new ConstraintError('a "v" prefix should not be used when specifying versions');
      }
      throw new ConstraintError(`invalid condition "${rest.split(",")[0].trim()}"`);
    }
    const consumed = m[0];
    out.push(parseCondition(m, consumed));
    rest = rest.slice(consumed.length).trim();
    if (rest === "") break;
    if (!rest.startsWith(",")) {
      if (rest.startsWith("v")) {
        throw new ConstraintError('a "v" prefix should not be used when specifying versions');
      }
      throw new ConstraintError(`missing comma after "${consumed.trim()}"`);
    }
    rest = rest.slice(1).trim();
    if (rest === "") throw new ConstraintError(`nothing after the last comma in "${text}"`);
  }
  return out;
}

function parseCondition(m: RegExpExecArray, consumed: string): Condition {
  const [, rawOp, sep, numsText, pre, meta] = m;
  let op: Operator;
  const nums = numsText.split(".");
  switch (rawOp) {
    case "":
    case "=":
      op = "=";
      break;
    case "!=":
    case ">":
    case ">=":
    case "<":
    case "<=":
      op = rawOp;
      break;
    case "~>":
      op = nums.length === 3 ? "~>patch" : "~>minor";
      break;
    case "=<":
      throw new ConstraintError(
        `invalid operator "=<" in "${consumed.trim()}": did you mean "<="?`,
      );
    case "=>":
      throw new ConstraintError(
        `invalid operator "=>" in "${consumed.trim()}": did you mean ">="?`,
      );
    default:
      throw new ConstraintError(`invalid operator "${rawOp}" in "${consumed.trim()}"`);
  }
  if (sep.includes("v")) {
    throw new ConstraintError('a "v" prefix should not be used when specifying versions');
  }
  if (sep !== "" && rawOp === "") {
    throw new ConstraintError(`extraneous spaces at the start of "${consumed.trim()}"`);
  }
  if (sep.length > 1) {
    throw new ConstraintError(`only one space is expected after the operator "${rawOp}"`);
  }
  if (nums.length > 3) {
    throw new ConstraintError(
      `too many parts in "${consumed.trim()}": only three are allowed (major, minor, patch)`,
    );
  }
  const names = ["major", "minor", "patch"];
  nums.forEach((n, i) => {
    if (!/^\d+$/.test(n)) {
      throw new ConstraintError(
        `a wildcard cannot stand for the ${names[i]} number in "${consumed.trim()}": ` +
          "omit the parts that may vary",
      );
    }
  });
  const [major, minor, patch] = [0, 1, 2].map((i) => Number(nums[i] ?? "0"));
  return {
    op,
    version: {
      major,
      minor,
      patch,
      prerelease: pre ? pre.slice(1) : "",
      metadata: meta ? meta.slice(1) : "",
    },
  };
}

/** True when `v` meets the condition, before the pre-release rule. */
function meets(v: Version, c: Condition): boolean {
  const b = c.version;
  const cmp = compareVersions(v, b);
  switch (c.op) {
    case "=":
      return sameVersion(v, b);
    case "!=":
      return !sameVersion(v, b);
    case ">":
      return cmp > 0;
    case ">=":
      return cmp >= 0;
    case "<":
      return cmp < 0;
    case "<=":
      return cmp <= 0;
    case "~>minor":
      return cmp >= 0 &&
        compareVersions(v, { ...b, major: b.major + 1, minor: 0, patch: 0, prerelease: "" }) < 0;
    case "~>patch":
      return cmp >= 0 &&
        compareVersions(v, { ...b, minor: b.minor + 1, patch: 0, prerelease: "" }) < 0;
  }
}

/**
 * True when `v` is acceptable under the conditions: it meets every one, and
 * is a release or a pre-release that a `=` condition names.
 */
export function acceptable(v: Version, conditions: readonly Condition[]): boolean {
  if (!conditions.every((c) => meets(v, c))) return false;
  if (v.prerelease === "") return true;
  return conditions.some((c) => c.op === "=" && sameVersion(c.version, v));
}

/** The newest acceptable version of these, if any. */
export function newestAcceptable(
  versions: readonly Version[],
  conditions: readonly Condition[],
): Version | undefined {
  let best: Version | undefined;
  for (const v of versions) {
    if (acceptable(v, conditions) && (!best || compareVersions(v, best) > 0)) best = v;
  }
  return best;
}

const OP_TEXT: Record<Operator, string> = {
  ">": "> ",
  ">=": ">= ",
  "=": "",
  "~>patch": "~> ",
  "~>minor": "~> ",
  "<=": "<= ",
  "<": "< ",
  "!=": "!= ",
};
const OP_ORDER: Operator[] = [">", ">=", "=", "~>patch", "~>minor", "<=", "<", "!="];

/**
 * The canonical form of conditions: each once, lower bounds first, as
 * Terraform writes them in its lock file.
 */
export function constraintsString(conditions: readonly Condition[]): string {
  const seen = new Map<string, Condition>();
  for (const c of conditions) seen.set(conditionText(c), c);
  const list = [...seen.values()].sort((a, b) => {
    const d = compareVersions(a.version, b.version);
    if (d !== 0) return d;
    if (a.version.metadata !== b.version.metadata) {
      return a.version.metadata < b.version.metadata ? -1 : 1;
    }
    return OP_ORDER.indexOf(a.op) - OP_ORDER.indexOf(b.op);
  });
  return list.map(conditionText).join(", ");
}

function conditionText(c: Condition): string {
  const v = c.version;
  const nums = c.op === "~>minor" ? `${v.major}.${v.minor}` : `${v.major}.${v.minor}.${v.patch}`;
  return OP_TEXT[c.op] + nums + (v.prerelease ? `-${v.prerelease}` : "") +
    (v.metadata ? `+${v.metadata}` : "");
}

/** Sorts versions newest first. */
export function newestFirst(versions: readonly Version[]): Version[] {
  return [...versions].sort((a, b) => compareVersions(b, a));
}
