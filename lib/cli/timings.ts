/**
 * Where a command's time went, for benchmarks (`scripts/bench/aws.ts`): with
 * `PRAVO_TIMINGS` set (and the permission to read it), pravo writes one line
 * of JSON to stderr when a command ends. Times in milliseconds.
 *
 * - `cue_load`, `cue_evaluate`: loading cue-wasm, and its evaluations;
 * - `provider_start`: starting provider processes, spawn to connected;
 * - `schema_fetch`: fetching schemas that were not cached (the start of the
 *   provider that gives one is counted here, not in `provider_start`);
 * - `provider_configure`: validating and configuring providers;
 * - `provider_calls`: the calls of the run (their durations added: calls in
 *   flight together count each);
 * - `evaluations`, `cached_evaluations`, `provider_calls_count`.
 *
 * @module
 */

/** The report, from the modules this process loaded. */
export async function timingsReport(): Promise<Record<string, number>> {
  const [{ stats }, { startTimings }, { pluginTimings }, { catalogTimings }] = await Promise.all([
    import("../cue/engine.ts"),
    import("../providers/plugin/processes.ts"),
    import("../providers/plugin/adapter.ts"),
    import("../providers/catalog.ts"),
  ]);
  const round = (n: number) => Math.round(n);
  const starts = startTimings.reduce((a, t) => a + t.ms, 0);
  return {
    cue_load: round(stats.loadMs),
    cue_evaluate: round(stats.evaluateMs),
    evaluations: stats.evaluated,
    cached_evaluations: stats.cached,
    provider_start: round(
      catalogTimings.fetched ? Math.max(0, starts - (startTimings[0]?.ms ?? 0)) : starts,
    ),
    schema_fetch: round(catalogTimings.fetchMs),
    provider_configure: round(pluginTimings.configureMs),
    provider_calls: round(pluginTimings.callsMs),
    provider_calls_count: pluginTimings.calls,
  };
}
