/**
 * Helpers shared by the unit tests of several folders of lib/: which
 * modules a file loads, as `deno info --json` tells. Not used by pravo
 * itself.
 *
 * @module
 */

import assert from "node:assert/strict";

/** One module of `deno info --json`. */
export interface ModuleInfo {
  specifier: string;
  dependencies?: {
    code?: { specifier: string };
    type?: { specifier: string };
    isDynamic?: boolean;
  }[];
}

/** Which imports to follow from a module, beyond its static imports of code. */
export interface Follow {
  /** Type-only imports (`import type`, erased at run time); not followed unless true. */
  types?: boolean;
  /** Dynamic imports (loaded only on the path that needs them); followed unless false. */
  dynamic?: boolean;
}

/** The modules that the roots of a `deno info --json` document load, directly or not. */
export function reachable(
  info: { roots: string[]; modules: ModuleInfo[] },
  follow: Follow = {},
): string[] {
  const bySpec = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const todo = [...info.roots];
  while (todo.length > 0) {
    const s = todo.pop()!;
    if (seen.has(s)) continue;
    seen.add(s);
    for (const d of bySpec.get(s)?.dependencies ?? []) {
      if (d.isDynamic && follow.dynamic === false) continue;
      if (d.code) todo.push(d.code.specifier);
      if (d.type && follow.types) todo.push(d.type.specifier);
    }
  }
  return [...seen];
}

/** The modules that `file` loads, directly or not; fails the test if `deno info` fails. */
export async function loadedModules(file: URL, follow: Follow = {}): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", file.pathname],
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  return reachable(JSON.parse(new TextDecoder().decode(out.stdout)), follow);
}
