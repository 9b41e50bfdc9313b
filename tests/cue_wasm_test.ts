import assert from "node:assert/strict";
import { packageModule } from "../scripts/cue_wasm_module.ts";
import { evaluate, loadedFrom, RAW_MODULE } from "../lib/cue/engine.ts";

Deno.test("lib/cue/cue.wasm, which npm ci writes (scripts/cue_wasm.mjs), is the module of the cue-wasm package installed", async () => {
  const want = await packageModule();
  const have = Deno.readFileSync(RAW_MODULE);
  assert.equal(
    have.length,
    want.length,
    "run `npm ci` (or `deno task cue-wasm`) after upgrading cue-wasm",
  );
  assert.ok(
    have.every((b, i) => b === want[i]),
    "run `npm ci` (or `deno task cue-wasm`) after upgrading cue-wasm",
  );
});

Deno.test("pravo loads the raw module from the source, and evaluates with it as with the package", async () => {
  const srcs = ['a: 1\nb: a + 1\ns: "x\\(b)"', "a: 1\na: 2", "x: [for i in [1, 2] {i * 2}]"];
  const mine = [];
  for (const src of srcs) mine.push(await evaluate(src));
  assert.equal(loadedFrom.module, "raw");
  assert.deepEqual(JSON.parse((mine[0] as { json: string }).json), { a: 1, b: 2, s: "x2" });
  assert.match((mine[1] as { message: string }).message, /conflicting values 2 and 1/);
  const CUE = await import("cue-wasm");
  const pkg = (await CUE.init()) as { toJSON(src: string): string };
  for (const [i, src] of srcs.entries()) {
    let theirs;
    try {
      theirs = { ok: true, json: pkg.toJSON(src) };
    } catch (e) {
      theirs = { ok: false, message: e };
    }
    assert.deepEqual(mine[i], theirs, src);
  }
});
