/**
 * Commands that read a root without changing it (`output`, `why`) need a
 * tag only where what they show depends on it. The tags the root declares
 * and the command line leaves out are filled with two different stand-ins;
 * what comes out the same both times does not depend on them, and what
 * differs does.
 *
 * @module
 */

import type { Sources, TagDecl } from "./sources/sources.ts";

/** The two stand-ins of each missing tag, as `-t` values, and the names left out. */
export interface StandIns {
  missing: string[];
  a: Record<string, string>;
  b: Record<string, string>;
}

function standIn(t: TagDecl, which: 0 | 1): string {
  switch (t.type) {
    case "string":
      return `⟦pravo:tag:${t.name}:${which ? "b" : "a"}⟧`;
    case "int":
    case "number":
      return String(7_100_000_000_000_000 + which * 1_000_003);
    case "bool":
      return which ? "true" : "false";
  }
}

/** The stand-ins for the declared tags that `given` leaves out; none when it gives them all. */
export function standInTags(sources: Sources, given: Record<string, string>): StandIns {
  const a = { ...given };
  const b = { ...given };
  const missing: string[] = [];
  for (const t of sources.tags) {
    if (t.name in given || missing.includes(t.name)) continue;
    missing.push(t.name);
    a[t.name] = standIn(t, 0);
    b[t.name] = standIn(t, 1);
  }
  return { missing: missing.sort(), a, b };
}

/** `-t env=VALUE -t zone=VALUE`: what to pass for the missing tags. */
export function tagFlags(missing: readonly string[]): string {
  return missing.map((m) => `-t ${m}=VALUE`).join(" ");
}
