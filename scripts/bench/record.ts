/**
 * Records the CUE sources a pravo command evaluates, so that the floor
 * (floor.ts) evaluates exactly the same. It watches the engine's evaluations
 * (`observers` of lib/cue/engine.ts), then runs pravo in this process.
 * The root's evaluation cache is removed first, so that every evaluation
 * reaches cue-wasm.
 *
 *   deno run -A scripts/bench/record.ts OUT.json ROOT [--stop-after K] -- PRAVO ARGS...
 *
 * With `--stop-after K`, the recording ends as soon as the K-th evaluation
 * is asked for, without waiting for pravo to finish: for roots so large that
 * pravo's own work after evaluating takes longer than the benchmark can
 * wait (the bench takes K from a smaller root of the same shape).
 *
 * @module
 */

import { observers } from "../../lib/cue/engine.ts";
import { run } from "../../main.ts";

const [out, root, ...rest] = Deno.args;
const stopAfter = rest[0] === "--stop-after" ? Number(rest[1]) : undefined;
const sep = rest.indexOf("--");
if (!out || !root || sep < 0) {
  throw new Error("usage: record.ts OUT.json ROOT [--stop-after K] -- PRAVO ARGS...");
}
const args = rest.slice(sep + 1);
try {
  Deno.removeSync(`${root}/.pravo/cache`, { recursive: true });
} catch {
  // no cache yet
}
const sources: string[] = [];
observers.beforeEvaluate = (src: string) => {
  sources.push(src);
  if (sources.length === stopAfter) {
    Deno.writeTextFileSync(out, JSON.stringify(sources));
    console.log(JSON.stringify({ code: null, sources: sources.length, stopped: true }));
    Deno.exit(0);
  }
};
Deno.chdir(root);
const code = await run(["-C", root, ...args], {
  stdout: () => {},
  stderr: (t) => console.error(t),
  isTerminal: false,
}, (name) => Deno.env.get(name));
Deno.writeTextFileSync(out, JSON.stringify(sources));
console.log(JSON.stringify({ code, sources: sources.length }));
