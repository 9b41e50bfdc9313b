/**
 * The product code (main.ts, lib/, mcp/, policy/; test code aside), read for
 * the tests that hold it to rules: its floors (layers_test.ts) and its sizes
 * (sizes_test.ts).
 *
 * @module
 */

import { join, resolve } from "node:path";

/** The repository's root. */
export const ROOT = resolve(new URL("..", import.meta.url).pathname);

/** A product source file: its path from the repository's root, and its text. */
export interface Source {
  path: string;
  text: string;
}

/** Whether a path is test code, which the floors do not bind. */
export function isTestCode(path: string): boolean {
  return /_test(ing)?\.ts$/.test(path);
}

/** Every product file under the repository's root. */
export function productSources(root = ROOT): Source[] {
  const out: Source[] = [];
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(join(root, dir))) {
      const path = dir === "" ? e.name : `${dir}/${e.name}`;
      if (e.isDirectory) walk(path);
      else if (path.endsWith(".ts") && !isTestCode(path)) {
        out.push({ path, text: Deno.readTextFileSync(join(root, path)) });
      }
    }
  };
  for (const d of ["lib", "mcp", "policy"]) walk(d);
  out.push({ path: "main.ts", text: Deno.readTextFileSync(join(root, "main.ts")) });
  return out.sort((a, b) => a.path < b.path ? -1 : 1);
}
