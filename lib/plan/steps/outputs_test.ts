import assert from "node:assert/strict";
import { UNKNOWN, type Value } from "../../cue/program.ts";
import { REDACTED } from "../document.ts";
import { planOutputs } from "./outputs.ts";
import { planned } from "./_testing.ts";

const outputs: Record<string, Value> = {
  z: UNKNOWN,
  a: { later: UNKNOWN },
  plain: "hello",
  leaks: "pw is hunter22",
  marked: "nothing secret in sight",
};
const spec = { outputs, outputsSensitive: ["marked"] };
const pw = planned("pw", { sensitive: ["result"], after: { result: "hunter22" } });

Deno.test("planOutputs() lists the outputs known only after apply, and redacts the sensitive ones", () => {
  assert.deepEqual(planOutputs(spec, { planned: [pw] }), {
    outputs: { plain: "hello", leaks: REDACTED, marked: REDACTED },
    outputsUnknown: ["a", "z"],
  });
});

Deno.test("planOutputs() gives a plan that destroys no outputs", () => {
  assert.deepEqual(planOutputs(spec, { planned: [pw], destroy: true }), {
    outputs: {},
    outputsUnknown: [],
  });
});
