import assert from "node:assert/strict";
import { forgetOnly } from "./_util.ts";

Deno.test("forgetOnly() succeeds at once, with no value and no diagnostics", async () => {
  assert.deepEqual(await forgetOnly(), { value: undefined, diagnostics: [] });
});
