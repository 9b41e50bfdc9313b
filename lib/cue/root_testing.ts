/**
 * Temporary roots for the loader's tests: files written to a fresh folder,
 * a function run on it, the folder removed.
 *
 * @module
 */

import { join } from "node:path";

/** Writes the files to a fresh temporary root, runs `fn` on it, removes it. */
export async function withRoot<T>(
  files: Record<string, string>,
  fn: (root: string) => T | Promise<T>,
): Promise<T> {
  const root = await Deno.makeTempDir({ prefix: "pravo-loader-test-" });
  try {
    for (const [name, src] of Object.entries(files)) {
      await Deno.writeTextFile(join(root, name), src);
    }
    return await fn(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}
