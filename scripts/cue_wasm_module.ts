/**
 * cue-wasm's WebAssembly module as the package in node_modules carries it,
 * decoded, as Deno reads it: for tests/cue_wasm_test.ts (scripts/cue_wasm.mjs, run by
 * `npm ci`, writes lib/cue/cue.wasm from it the same way).
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { gunzipSync } from "node:zlib";

/** The inline module of the package's `full` variant, which `CUE.init()` loads. */
const INLINE = "../node_modules/cue-wasm/dist/cue.wasm.full.inline-41c9b744.js";

/** The package's module, raw. */
export async function packageModule(): Promise<Uint8Array> {
  const inline = await import(INLINE);
  return new Uint8Array(gunzipSync(Buffer.from(inline.default as string, "base64")));
}
