import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { CACHE_ENTRIES, evaluate, rootCache, stats } from "./engine.ts";

const KEY = new Uint8Array(randomBytes(32));

Deno.test("evaluate() answers a source it evaluated before from the cache, without CUE", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const before = { ...stats };
    const first = await evaluate("a: 1 + 1", { cacheDir: dir, cacheKey: KEY });
    assert.deepEqual(first, { ok: true, json: '{"a":2}' });
    assert.equal(stats.evaluated, before.evaluated + 1);
    const again = await evaluate("a: 1 + 1", { cacheDir: dir, cacheKey: KEY });
    assert.deepEqual(again, first);
    assert.equal(stats.evaluated, before.evaluated + 1, "the second answer came from the cache");
    assert.equal(stats.cached, before.cached + 1);
    // Errors are cached too; another source is evaluated.
    const bad = await evaluate("a: 1 & 2", { cacheDir: dir, cacheKey: KEY });
    assert.equal(bad.ok, false);
    assert.deepEqual(await evaluate("a: 1 & 2", { cacheDir: dir, cacheKey: KEY }), bad);
    assert.equal(stats.evaluated, before.evaluated + 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("evaluate() keeps at most CACHE_ENTRIES results, dropping the oldest", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (let i = 0; i < CACHE_ENTRIES + 5; i++) {
      await evaluate(`a: ${i}`, { cacheDir: dir, cacheKey: KEY });
    }
    const files = [...Deno.readDirSync(dir)].filter((e) => e.name.startsWith("ev-"));
    assert.equal(files.length, CACHE_ENTRIES);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("evaluate() seals its cache: neither names nor contents show the source or the result, and another key misses", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const secret = "hunter2-TOPSECRET";
    const src = `pw: ${JSON.stringify(secret)}, up: "\\(pw)-x"`;
    await evaluate(src, { cacheDir: dir, cacheKey: KEY });
    const files = [...Deno.readDirSync(dir)].map((e) => e.name);
    assert.equal(files.length, 1);
    assert.match(files[0], /^ev-[0-9a-f]{64}\.sealed$/);
    const raw = Deno.readTextFileSync(`${dir}/${files[0]}`);
    assert.ok(!raw.includes(secret) && !raw.includes("TOPSECRET"), raw);
    assert.ok(!raw.includes(btoa(secret)));
    // The name is an HMAC under the key: the SHA-256 of the source is not it.
    const sha = Array.from(
      new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(src))),
    ).map((b) => b.toString(16).padStart(2, "0")).join("");
    assert.ok(!files[0].includes(sha));
    // Another key neither reads this entry nor finds it.
    const before = stats.evaluated;
    const other = new Uint8Array(randomBytes(32));
    assert.equal((await evaluate(src, { cacheDir: dir, cacheKey: other })).ok, true);
    assert.equal(stats.evaluated, before + 1);
    // An entry swapped for another's content does not open: evaluated again.
    const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    Deno.writeTextFileSync(
      `${dir}/${files[0]}`,
      Deno.readTextFileSync(`${dir}/${names.find((n) => n !== files[0])}`),
    );
    const again = stats.evaluated;
    await evaluate(src, { cacheDir: dir, cacheKey: KEY });
    assert.equal(stats.evaluated, again + 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("rootCache() removes the clear entries of older versions, and gives no cache without a key", () => {
  const root = Deno.makeTempDirSync();
  try {
    Deno.mkdirSync(`${root}/.pravo/cache`, { recursive: true });
    Deno.writeTextFileSync(
      `${root}/.pravo/cache/eval-${"a".repeat(64)}.json`,
      '{"ok":true,"json":"{}"}',
    );
    const cache = rootCache(root);
    assert.deepEqual([...Deno.readDirSync(`${root}/.pravo/cache`)], []);
    assert.ok(cache === undefined || cache.key.length === 32);
    assert.equal(rootCache(Deno.makeTempDirSync()), undefined, "no .pravo: no cache");
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});
