/**
 * The V8 flags pravo runs with, wherever it runs: scripts/pravo (and so the
 * bundle's scripts/pravo-bundle) passes them with `--v8-flags`, scripts/compile
 * bakes them into the executable, and `pravo mcp` gives them to each child
 * (mcp/child.ts). tests/pravo_flags_test.ts checks that they agree.
 *
 * `--wasm-tiering-budget`: V8 compiles cue-wasm's 18 MB module with its
 * baseline compiler (Liftoff) and recompiles a function with its optimizing
 * one (TurboFan) once the function has run a budget's worth of code. With
 * the default budget, the Go runtime's start alone sends hundreds of
 * functions to TurboFan on background threads that fight for the cores: on
 * 2 cores the start takes ~170 ms instead of ~60 ms, and a small evaluation
 * twice as long. 77 times the default keeps a short run on Liftoff, while
 * the functions that a large evaluation runs for seconds still tier up: a
 * 10,000-node evaluation is as fast as with the default, where `--liftoff-only`
 * made it 1.6 times slower (docs/performance.md has the figures).
 *
 * `--max-semi-space-size=4`: V8's young generation, where every object is
 * allocated first, may grow to 2 × 4 MB instead of 2 × 32 MB. A large plan
 * allocates fast enough to grow it to the largest size: a 10,000-node plan
 * held 56-64 MB there, 8 MB with the cap, and plans of 100 and 1,000 nodes
 * took as long (docs/performance.md).
 *
 * @module
 */

/** V8's flags for pravo, each a `--flag=value`. */
export const V8_FLAGS: readonly string[] = [
  "--wasm-tiering-budget=1000000000",
  "--max-semi-space-size=4",
];
