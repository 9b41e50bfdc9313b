import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import {
  CACHE_ENTRIES,
  evaluate,
  GO_ENV,
  goEnvFor,
  LEAN_FROM,
  loadedFrom,
  readRaw,
  rootCache,
  startRaw,
  stats,
} from "./engine.ts";

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
    const cache = rootCache(root, undefined);
    assert.deepEqual([...Deno.readDirSync(`${root}/.pravo/cache`)], []);
    assert.ok(cache === undefined || cache.key.length === 32);
    assert.equal(rootCache(Deno.makeTempDirSync(), undefined), undefined, "no .pravo: no cache");
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("cue-wasm's Go runtime starts with GO_ENV for a large first source, and honours it: collections stop the world, below GOGC=100", async () => {
  // This file's first evaluation was small: Go's defaults.
  assert.deepEqual(await evaluate("a: 1"), { ok: true, json: '{"a":1}' });
  assert.equal(loadedFrom.module, "raw");
  assert.deepEqual(loadedFrom.goEnv, {});
  assert.deepEqual(goEnvFor(LEAN_FROM - 1), {});
  assert.deepEqual(goEnvFor(LEAN_FROM), GO_ENV);
  // Another runtime, with GO_ENV and the collector's trace: the glue passes
  // the environment to Go, and Go 1.18 applies it.
  const raw = readRaw();
  assert.ok(raw, "lib/cue/cue.wasm is there (npm ci writes it)");
  const lines: string[] = [];
  const { log, warn } = console;
  console.log = console.warn = (...args: unknown[]) => void lines.push(args.join(" "));
  try {
    const cue = await startRaw(raw, { ...GO_ENV, GODEBUG: `${GO_ENV.GODEBUG},gctrace=1` });
    const json = cue.toJSON('import "list"\na: [for x in list.Range(0, 20000, 1) {b: x}]');
    assert.equal((JSON.parse(json) as { a: unknown[] }).a.length, 20000);
  } finally {
    console.log = log;
    console.warn = warn;
  }
  // "gc 1 @0.04s 18%: ... ms cpu, 2->2->1 MB, 2 MB goal, ...": the heap at
  // the start of a collection, at the end of its marking, what survived.
  const gcs = lines.flatMap((l) => {
    const m = /^gc \d+ @.* (\d+)->(\d+)->(\d+) MB, (\d+) MB goal/.exec(l);
    return m ? [m.slice(1).map(Number)] : [];
  });
  assert.ok(gcs.length >= 2, lines.join("\n"));
  // Stopping the world: nothing is allocated while a collection marks.
  for (const [start, marked] of gcs) assert.equal(marked, start, lines.join("\n"));
  // GOGC=70: the first goal is 70% of Go's 4 MB minimum heap.
  assert.ok(gcs[0][3] < 4, lines.join("\n"));
});

Deno.test("a process whose first source is large starts cue-wasm's Go runtime with GO_ENV", async () => {
  // A process of its own: the engine's runtime starts once per process.
  const script = `
    import { evaluate, LEAN_FROM, loadedFrom } from ${
    JSON.stringify(new URL("./engine.ts", import.meta.url).href)
  };
    const r = await evaluate("a: 1\\n// " + "x".repeat(LEAN_FROM) + "\\n");
    console.log(JSON.stringify({ r, env: loadedFrom.goEnv }));
  `;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--config", new URL("../../deno.json", import.meta.url).pathname, script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const got = JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").pop()!);
  assert.deepEqual(got, { r: { ok: true, json: '{"a":1}' }, env: GO_ENV });
});
