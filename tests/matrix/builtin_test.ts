/**
 * The feature matrix's worlds on the built-in providers (cells.ts): every
 * row of `_scenario.ts` through scripts/pravo (the narrow permissions a
 * user runs with) and its MCP server through the SDK's client, on SQLite
 * state and on PostgreSQL state (`PRAVO_TEST_PG`, which `.ci/run` starts).
 *
 * @module
 */

import { BUILTIN } from "./_builtin.ts";
import { runWorld } from "./_scenario.ts";
import { HAS_PG, makeWorld, pgState } from "./_world.ts";

Deno.test("feature matrix: built-in providers on SQLite state", async (t) => {
  const w = await makeWorld({ ...BUILTIN, worldId: "builtin-sqlite" });
  try {
    await runWorld(t, w);
  } finally {
    await w.cleanup();
  }
});

if (!HAS_PG) {
  console.log(
    "tests/matrix/builtin_test.ts: the PostgreSQL world skipped: PRAVO_TEST_PG names no server (.ci/run starts one)",
  );
}

Deno.test({
  name: "feature matrix: built-in providers on PostgreSQL state",
  ignore: !HAS_PG,
  async fn(t) {
    const w = await makeWorld({
      ...BUILTIN,
      worldId: "builtin-postgres",
      state: pgState("builtin"),
    });
    try {
      await runWorld(t, w);
    } finally {
      await w.cleanup();
    }
  },
});
