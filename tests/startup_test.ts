/**
 * What every pravo process loads before it knows its command: main.ts's
 * static imports. Commands that need no CUE must not pay for it, and the
 * `node:` modules Deno builds on first use cost milliseconds each (`node:fs`
 * ~20 ms): the static graph holds neither cue-wasm nor the engine, nor
 * `node:fs`. A command loads what it needs through the registry's dynamic
 * imports.
 */

import assert from "node:assert/strict";

interface InfoModule {
  specifier: string;
  dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
}

/** The modules main.ts reaches through static imports of code (not types). */
async function staticGraph(): Promise<string[]> {
  const main = new URL("../main.ts", import.meta.url);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", main.href],
    stdout: "piped",
    stderr: "null",
  }).output();
  const graph = JSON.parse(new TextDecoder().decode(out.stdout)) as { modules: InfoModule[] };
  const bySpec = new Map(graph.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const todo = [main.href];
  while (todo.length) {
    const s = todo.pop()!;
    if (seen.has(s)) continue;
    seen.add(s);
    for (const d of bySpec.get(s)?.dependencies ?? []) {
      if (d.isDynamic || !d.code) continue;
      todo.push(d.code.specifier);
    }
  }
  return [...seen];
}

Deno.test("main.ts's static imports load neither CUE nor node:fs: pravo --version pays for neither", async () => {
  const graph = await staticGraph();
  assert.ok(graph.some((s) => s.endsWith("/lib/cli/args.ts")), "the walk follows static imports");
  assert.ok(graph.includes("node:util"), "the walk reaches node: modules");
  assert.deepEqual(
    graph.filter((s) => s.includes("/lib/cue/") || s.includes("cue-wasm") || s === "node:fs"),
    [],
  );
});
