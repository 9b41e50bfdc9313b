/**
 * Runs the examples of every page in `docs/`, in order, each page in a fresh
 * temporary directory, with `pravo` on PATH as the source run with the same
 * narrow permissions as `scripts/pravo`. Each example is a test step named
 * by its page and line. The format of a page is described in
 * `docs_examples.ts`.
 *
 * @module
 */

import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { judge, parsePage, runBlock, type RunExample, writeExampleFile } from "./docs_examples.ts";

const PROJECT = fileURLToPath(new URL("..", import.meta.url));
const DOCS = join(PROJECT, "docs");

async function markdownFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(dir));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return found;
    throw e;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory) found.push(...await markdownFiles(path));
    else if (e.isFile && e.name.endsWith(".md")) found.push(path);
  }
  return found.sort();
}

/** A folder with `pravo`: runs scripts/pravo, so the flags are the same. */
async function pravoBinDir(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "pravo-docs-bin-" });
  const script = join(PROJECT, "scripts", "pravo");
  await Deno.writeTextFile(
    join(dir, "pravo"),
    `#!/usr/bin/env bash\nexec ${JSON.stringify(script)} "$@"\n`,
  );
  await Deno.chmod(join(dir, "pravo"), 0o755);
  return dir;
}

function firstLine(example: RunExample): string {
  const line = example.script.split("\n").find((l) => l.trim() !== "") ?? "";
  return line.length > 60 ? line.slice(0, 57) + "..." : line;
}

const pages = await markdownFiles(DOCS);
const binDir = await pravoBinDir();
globalThis.addEventListener("unload", () => Deno.removeSync(binDir, { recursive: true }));

for (const file of pages) {
  const name = relative(PROJECT, file);
  Deno.test(`docs: ${name}`, async (t) => {
    try {
      const markdown = await Deno.readTextFile(file);
      const page = parsePage(markdown);
      // A page on a Terraform provider runs against moto_server ($MOTO), with
      // a cache folder of its own.
      let motoServer: { url: string; stop(): Promise<void> } | undefined;
      if (markdown.includes("$MOTO")) {
        const { moto } = await import("./plugin/_aws.ts");
        const m = motoServer = await moto();
        const cache = await Deno.makeTempDir({ prefix: "pravo-docs-cache-" });
        for (const e of page.examples) {
          if (e.kind === "run") e.env = { MOTO: m.url, XDG_CACHE_HOME: cache, ...e.env };
        }
      }
      const base = await Deno.makeTempDir({ prefix: "pravo-docs-" });
      const cwd = join(base, page.dir ?? "work");
      await Deno.mkdir(cwd);
      try {
        for (const example of page.examples) {
          if (example.kind === "file") {
            await writeExampleFile(example, cwd);
            continue;
          }
          await t.step(`${name}:${example.line} ${firstLine(example)}`, async () => {
            const result = await runBlock(example, { cwd, binDir });
            const problem = judge(name, example, result);
            if (problem) {
              const error = new Error(problem);
              error.stack = `Error: ${problem}`; // the runner's frames would only hide the diff
              throw error;
            }
          });
        }
      } finally {
        await Deno.remove(base, { recursive: true });
        await motoServer?.stop();
      }
    } catch (e) {
      if (e instanceof Error && e.name === "DocsSyntaxError") {
        throw new Error(`${name}: ${e.message}`);
      }
      throw e;
    }
  });
}
