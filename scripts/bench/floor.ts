/**
 * The floor of a command that evaluates CUE: a bare script that starts
 * cue-wasm as pravo does (lib/cue/engine.ts: the raw module when it is
 * there) and evaluates the sources pravo evaluated (recorded by record.ts),
 * with no cache, then prints a line.
 *
 *   deno run ... scripts/bench/floor.ts SOURCES.json
 *
 * @module
 */

import { evaluate } from "../../lib/cue/engine.ts";

const sources = JSON.parse(Deno.readTextFileSync(Deno.args[0])) as string[];
let bytes = 0;
for (const src of sources) {
  const r = await evaluate(src);
  if (!r.ok) throw new Error(r.message);
  bytes += r.json.length;
}
console.log(`evaluated ${sources.length} sources, ${bytes} bytes of JSON`);
