// Writes lib/cue/cue.wasm, cue-wasm's WebAssembly module raw, from the
// package in node_modules, which carries it as a base64 string of its gzip
// (decoding that costs ~80 ms at each start). `npm ci` runs this (the
// package's postinstall), and so does `deno task cue-wasm`; pravo loads the
// raw file when it is there (lib/cue/engine.ts) and the package's module
// otherwise. The file is not in git: it is made from the package installed,
// and tests/cue_wasm_test.ts checks that the two are the same module.
//
//   node scripts/cue_wasm.mjs [--check]
//
// `--check` writes nothing, and exits 1 when the file differs from the
// package's module. Plain Node, no Deno: it runs inside `npm ci`.

import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";

const INLINE = new URL(
  "../node_modules/cue-wasm/dist/cue.wasm.full.inline-41c9b744.js",
  import.meta.url,
);
const OUT = fileURLToPath(new URL("../lib/cue/cue.wasm", import.meta.url));

const text = readFileSync(INLINE, "utf8");
const m = /"(H4sI[A-Za-z0-9+/=]+)"/.exec(text);
if (!m) {
  console.error(
    `${fileURLToPath(INLINE)} holds no gzip in base64: cue-wasm changed its layout. ` +
      "Update scripts/cue_wasm.mjs and lib/cue/engine.ts for it.",
  );
  process.exit(1);
}
const want = gunzipSync(Buffer.from(m[1], "base64"));

if (process.argv.includes("--check")) {
  let have;
  try {
    have = readFileSync(OUT);
  } catch {
    // missing
  }
  const same = have !== undefined && Buffer.compare(have, want) === 0;
  console.log(same ? `${OUT} is the package's module` : `${OUT} differs from the package's module`);
  process.exit(same ? 0 : 1);
}
// Written whole, then renamed: a half-written module is never loaded.
writeFileSync(`${OUT}.tmp`, want);
renameSync(`${OUT}.tmp`, OUT);
console.log(`wrote ${OUT} (${want.length} bytes)`);
