/**
 * `deno task cue-wasm`: writes lib/cue/cue.wasm, cue-wasm's WebAssembly
 * module raw, from the package in node_modules (which carries it as a
 * base64 string of its gzip). pravo loads the raw file when it is there
 * (lib/cue/engine.ts): ~80 ms less at each start. Run it after upgrading
 * cue-wasm; tests/cue_wasm_test.ts fails until the two are the same.
 *
 *   deno task cue-wasm [--check]
 *
 * `--check` writes nothing, and exits 1 when the file differs from the
 * package's module.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { packageModule } from "./cue_wasm_module.ts";

const out = fileURLToPath(new URL("../lib/cue/cue.wasm", import.meta.url));
const want = await packageModule();
if (Deno.args.includes("--check")) {
  let have: Uint8Array | undefined;
  try {
    have = Deno.readFileSync(out);
  } catch {
    // missing
  }
  const same = have !== undefined && have.length === want.length &&
    have.every((b, i) => b === want[i]);
  console.log(same ? `${out} is the package's module` : `${out} differs from the package's module`);
  Deno.exit(same ? 0 : 1);
}
Deno.writeFileSync(out, want);
console.log(`wrote ${out} (${want.length} bytes)`);
