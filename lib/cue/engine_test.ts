import assert from "node:assert/strict";
import { CACHE_ENTRIES, evaluate, stats } from "./engine.ts";

Deno.test("evaluate() answers a source it evaluated before from the cache, without CUE", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const before = { ...stats };
    const first = await evaluate("a: 1 + 1", { cacheDir: dir });
    assert.deepEqual(first, { ok: true, json: '{"a":2}' });
    assert.equal(stats.evaluated, before.evaluated + 1);
    const again = await evaluate("a: 1 + 1", { cacheDir: dir });
    assert.deepEqual(again, first);
    assert.equal(stats.evaluated, before.evaluated + 1, "the second answer came from the cache");
    assert.equal(stats.cached, before.cached + 1);
    // Errors are cached too; another source is evaluated.
    const bad = await evaluate("a: 1 & 2", { cacheDir: dir });
    assert.equal(bad.ok, false);
    assert.deepEqual(await evaluate("a: 1 & 2", { cacheDir: dir }), bad);
    assert.equal(stats.evaluated, before.evaluated + 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("evaluate() keeps at most CACHE_ENTRIES results, dropping the oldest", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (let i = 0; i < CACHE_ENTRIES + 5; i++) await evaluate(`a: ${i}`, { cacheDir: dir });
    const files = [...Deno.readDirSync(dir)].filter((e) => e.name.startsWith("eval-"));
    assert.equal(files.length, CACHE_ENTRIES);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
