import assert from "node:assert/strict";
import { emptyPlan, PLAN_FORMAT_VERSION } from "./types.ts";

Deno.test("emptyPlan() is a plan of the current format with nothing in it, new each time", () => {
  const plan = emptyPlan();
  assert.equal(plan.formatVersion, PLAN_FORMAT_VERSION);
  assert.deepEqual([plan.nodes, plan.skipped, plan.sources, plan.providers], [[], [], [], []]);
  assert.equal(plan.destroy, false);
  plan.nodes.push({} as never);
  assert.deepEqual(emptyPlan().nodes, []);
});
