/**
 * Test helpers for the processes a test starts: find them by their command
 * line, and wait for a condition on them.
 *
 * @module
 */

/** The processes whose command line mentions `needle`, with their argument lists. */
export function processesWith(needle: string): { pid: number; argv: string[] }[] {
  const found: { pid: number; argv: string[] }[] = [];
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    let raw: string;
    try {
      raw = Deno.readTextFileSync(`/proc/${e.name}/cmdline`);
    } catch {
      continue; // ended meanwhile
    }
    const argv = raw.split("\0").filter((w, i, all) => i < all.length - 1 || w !== "");
    if (argv.some((w) => w.includes(needle))) found.push({ pid: Number(e.name), argv });
  }
  return found;
}

/** Waits until `check` is true, at most `ms`. */
export async function waitFor(check: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
