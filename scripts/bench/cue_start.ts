/**
 * What cue-wasm's start is made of, timed in one process. Prints one JSON
 * line: `{mode, phases: [[name, ms], ...], total}`.
 *
 *   deno run -A scripts/bench/cue_start.ts MODE SOURCES.json [RAW.wasm]
 *
 * Modes:
 *
 * - `parts`: the steps of `CUE.init()` one by one, importing the files of
 *   node_modules/cue-wasm/dist by path (they are not in its exports map):
 *   wasm_exec, the inline module (a 6 MB base64 string), base64 decoding,
 *   gunzip (node:zlib here; the package uses pako, see `package`),
 *   WebAssembly.compile, instantiate, the Go runtime's start (`go.run`, which
 *   initialises CUE's Go packages and registers the API), then the first and
 *   a second evaluation of the sources.
 * - `package`: `import("cue-wasm")` and `CUE.init()` as pravo does them, with
 *   `Buffer.from` and `WebAssembly.instantiate` wrapped to split init into
 *   its imports, base64, pako's gunzip, compile + instantiate and the rest.
 * - `raw`: the prototype of a cache file: the module's raw bytes read from
 *   RAW.wasm (written by `write-raw`), compiled, instantiated and started;
 *   no inline module, no base64, no gunzip.
 * - `write-raw`: decodes the inline module and writes RAW.wasm.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { gunzipSync } from "node:zlib";

const DIST = "../../node_modules/cue-wasm/dist/";
const WASM_EXEC = DIST + "wasm_exec.full-4a915ab6.js";
const INLINE = DIST + "cue.wasm.full.inline-41c9b744.js";

interface GoClass {
  new (): { importObject: WebAssembly.Imports; run(i: WebAssembly.Instance): Promise<void> };
}
interface CueApiImpl {
  _toJSONImpl(src: string): { value?: string; error?: string };
}

const [mode, sourcesFile, rawFile] = Deno.args;
const phases: [string, number][] = [["deno start (to the first line of the script)", 0]];
const started = performance.now();
phases[0][1] = started;
let last = started;
const mark = (name: string) => {
  const now = performance.now();
  phases.push([name, now - last]);
  last = now;
};
const sources = sourcesFile ? JSON.parse(Deno.readTextFileSync(sourcesFile)) as string[] : [];
last = performance.now();

function evaluateAll(impl: CueApiImpl, what: string): void {
  for (const src of sources) {
    const r = impl._toJSONImpl(src);
    if (r.error) throw new Error(`${what}: ${r.error}`);
  }
  mark(what);
}

async function startGo(bytes: BufferSource | WebAssembly.Module): Promise<CueApiImpl> {
  const g = globalThis as unknown as { Go: GoClass; CueWasmAPI: CueApiImpl };
  const module = bytes instanceof WebAssembly.Module ? bytes : await WebAssembly.compile(bytes);
  mark("WebAssembly.compile");
  const go = new g.Go();
  const instance = await WebAssembly.instantiate(module, go.importObject);
  mark("WebAssembly.instantiate");
  g.CueWasmAPI = {} as CueApiImpl;
  go.run(instance); // returns when main blocks, its API registered
  mark("Go runtime start (go.run)");
  return g.CueWasmAPI;
}

if (mode === "parts") {
  await import(WASM_EXEC);
  mark("import wasm_exec");
  const inline = await import(INLINE);
  mark("import the inline module (6 MB base64)");
  const gz = Buffer.from(inline.default as string, "base64");
  mark("base64 decode (Buffer.from)");
  const raw = gunzipSync(gz);
  mark("gunzip (node:zlib)");
  const api = await startGo(raw);
  evaluateAll(api, "first evaluation");
  evaluateAll(api, "second evaluation");
} else if (mode === "package") {
  let base64At = 0, base64Ms = 0, instantiateAt = 0, instantiatedAt = 0;
  const from = Buffer.from;
  // deno-lint-ignore no-explicit-any
  (Buffer as any).from = (...args: any[]) => {
    const t = performance.now();
    // deno-lint-ignore no-explicit-any
    const r = (from as any).apply(Buffer, args);
    if (args[1] === "base64" && !base64At) [base64At, base64Ms] = [t, performance.now() - t];
    return r;
  };
  const instantiate = WebAssembly.instantiate;
  // deno-lint-ignore no-explicit-any
  (WebAssembly as any).instantiate = async (...args: any[]) => {
    instantiateAt = performance.now();
    // deno-lint-ignore no-explicit-any
    const r = await (instantiate as any).apply(WebAssembly, args);
    instantiatedAt = performance.now();
    return r;
  };
  const CUE = await import("cue-wasm");
  mark("import cue-wasm (index: pako, openapi)");
  const initAt = last;
  const cue = await CUE.init();
  const end = performance.now();
  if (base64At && instantiateAt) {
    phases.push(["init: import wasm_exec + the inline module", base64At - initAt]);
    phases.push(["init: base64 decode (Buffer.from)", base64Ms]);
    phases.push(["init: gunzip (pako)", instantiateAt - base64At - base64Ms]);
    phases.push([
      "init: WebAssembly.instantiate (compile + instantiate)",
      instantiatedAt - instantiateAt,
    ]);
    phases.push(["init: Go runtime start (go.run) and the rest", end - instantiatedAt]);
  } else {
    phases.push(["init (not split: the wrappers were not called)", end - initAt]);
  }
  last = end;
  for (const src of sources) cue.toJSON(src);
  mark("first evaluation");
  for (const src of sources) cue.toJSON(src);
  mark("second evaluation");
} else if (mode === "raw") {
  await import(WASM_EXEC);
  mark("import wasm_exec");
  const raw = Deno.readFileSync(rawFile);
  mark("read the raw .wasm file");
  const api = await startGo(raw);
  evaluateAll(api, "first evaluation");
  evaluateAll(api, "second evaluation");
} else if (mode === "write-raw") {
  const inline = await import(INLINE);
  Deno.writeFileSync(rawFile, gunzipSync(Buffer.from(inline.default as string, "base64")));
} else {
  throw new Error(`unknown mode "${mode}": parts, package, raw or write-raw`);
}
console.log(JSON.stringify({ mode, phases, total: performance.now() }));
