/**
 * The floor of a command that evaluates CUE: a bare script that imports
 * cue-wasm, starts it and evaluates the sources pravo evaluated (recorded by
 * record.ts), then prints a line.
 *
 *   deno run ... scripts/bench/floor.ts SOURCES.json
 *
 * @module
 */

import * as CUE from "cue-wasm";

const sources = JSON.parse(Deno.readTextFileSync(Deno.args[0])) as string[];
const cue = await CUE.init();
let bytes = 0;
for (const src of sources) bytes += cue.toJSON(src).length;
console.log(`evaluated ${sources.length} sources, ${bytes} bytes of JSON`);
