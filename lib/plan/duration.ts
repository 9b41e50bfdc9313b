/**
 * Durations as written in configurations: `30s`, `1h30m`, `24h`, `7d`.
 *
 * @module
 */

const UNITS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** Milliseconds in a duration, or undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;
  let total = 0;
  let at = 0;
  let m;
  if (text === "0") return 0;
  while ((m = re.exec(text))) {
    total += Number(m[1]) * UNITS[m[2]];
    at = re.lastIndex;
  }
  return at === text.length && at > 0 ? total : undefined;
}
