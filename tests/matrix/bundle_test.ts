/**
 * The feature matrix's world on the single-file bundle (cells.ts): every
 * row of `_scenario.ts` through `scripts/pravo-bundle` running a
 * `dist/pravo.js` built for this test and copied to a directory of its own
 * (no node_modules, no checkout beside it), on the built-in providers and
 * SQLite state, and the bundle's MCP server through the SDK's client.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundle } from "../../scripts/bundle.ts";
import { BUILTIN } from "./_builtin.ts";
import { runWorld } from "./_scenario.ts";
import { makeWorld } from "./_world.ts";

const LAUNCHER = fileURLToPath(new URL("../../scripts/pravo-bundle", import.meta.url));

Deno.test("feature matrix: the single-file bundle, built-in providers, SQLite state", async (t) => {
  const alone = await Deno.realPath(await Deno.makeTempDir({ prefix: "pravo-matrix-bundle-" }));
  try {
    // Built apart from dist/pravo.js, which tests/bundle_test.ts builds.
    const built = await bundle(join(alone, "pravo.js"));
    assert.ok(built.ok, built.log);
    const w = await makeWorld({
      ...BUILTIN,
      worldId: "bundle-sqlite",
      launcher: LAUNCHER,
      env: { PRAVO_BUNDLE: join(alone, "pravo.js") },
    });
    try {
      await runWorld(t, w);
    } finally {
      await w.cleanup();
    }
  } finally {
    await Deno.remove(alone, { recursive: true });
  }
});
