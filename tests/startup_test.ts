/**
 * What every pravo process loads before it knows its command: main.ts's
 * static imports. Commands that need no CUE must not pay for it, and the
 * `node:` modules Deno builds on first use cost milliseconds each (`node:fs`
 * ~20 ms, `node:crypto` ~15 ms, `node:path` and `node:os` a few each): the
 * static graph holds neither cue-wasm nor the engine, nor any `node:` module
 * but `node:util` (argument parsing). A command loads what it needs through
 * the registry's dynamic imports, and the commands that need no CUE load no
 * more than they use (docs/performance.md, "Commands that need no CUE").
 */

import assert from "node:assert/strict";

interface InfoModule {
  specifier: string;
  dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
}

/** The modules `file` (from the checkout's top) reaches through static imports of code (not types). */
async function staticGraph(file = "main.ts"): Promise<string[]> {
  const main = new URL(`../${file}`, import.meta.url);
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

Deno.test("--version and --help load no node: module but node:util, nor the pinned document's or the actor's modules", async () => {
  const graph = await staticGraph();
  assert.deepEqual(graph.filter((s) => s.startsWith("node:")), ["node:util"]);
  assert.deepEqual(
    graph.filter((s) =>
      /\/lib\/cli\/(pinned|actor)\.ts$/.test(s) || s.includes("jsonc-parser") ||
      s.includes("/lib/state/") || s.includes("/lib/keys/")
    ),
    [],
  );
});

Deno.test("main.ts's PINNED_FLAG is lib/workspace/pinned.ts's (main.ts keeps a copy so as not to load pinned.ts)", async () => {
  const main = await import("../main.ts");
  const pinned = await import("../lib/workspace/pinned.ts");
  assert.equal(main.PINNED_FLAG, pinned.PINNED_FLAG);
});

Deno.test("the actor's module loads node:os only when it asks the user database", async () => {
  const graph = await staticGraph("lib/cli/actor.ts");
  assert.deepEqual(graph.filter((s) => s.startsWith("node:")), []);
});

for (const command of ["providers", "schema"]) {
  Deno.test(`pravo ${command} loads neither the installer nor node:crypto or node:fs`, async () => {
    // The command, and the workspace main.ts opens for it (which builds the catalog).
    const graph = [
      ...await staticGraph(`lib/commands/${command}.ts`),
      ...await staticGraph("lib/workspace/workspace.ts"),
    ];
    assert.ok(graph.some((s) => s.endsWith("/lib/providers/catalog.ts")), "the walk follows");
    assert.deepEqual(
      graph.filter((s) =>
        s.includes("/lib/providers/install/installer.ts") ||
        s.includes("/lib/providers/plugin/launch.ts") ||
        s.includes("/lib/providers/install/executable.ts") ||
        s === "node:crypto" || s === "node:fs" || s.includes("/lib/cue/")
      ),
      [],
    );
  });
}

for (const command of ["state_show", "state_log", "state_list"]) {
  Deno.test(`pravo ${command.replace("_", " ")} loads no cryptography, node:fs, node:process or jsonc-parser until it needs them`, async () => {
    const graph = await staticGraph(`lib/commands/${command}.ts`);
    assert.ok(graph.some((s) => s.endsWith("/lib/state/sqlite/store.ts")), "the walk follows");
    assert.ok(graph.includes("node:sqlite"), "the walk reaches node: modules");
    assert.deepEqual(
      graph.filter((s) =>
        s === "node:crypto" || s === "node:fs" || s === "node:process" ||
        s.includes("jsonc-parser") || /\/lib\/keys\/(key|seal)\.ts$/.test(s) ||
        /\/lib\/state\/config\.ts$/.test(s) || s.includes("/lib/files/regular.ts")
      ),
      [],
    );
  });
}

Deno.test("the state's modules load the cryptography and pravo.jsonc's reader only by import()", async () => {
  for (const file of ["lib/state/sqlite/store.ts", "lib/state/open.ts", "lib/secrets/seal.ts"]) {
    const graph = await staticGraph(file);
    assert.deepEqual(
      graph.filter((s) =>
        s === "node:crypto" || s === "node:fs" || s === "node:process" ||
        s.includes("jsonc-parser")
      ),
      [],
      file,
    );
  }
});
