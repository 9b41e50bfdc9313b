import assert from "node:assert/strict";
import { sentinelString } from "../../cue/unknowns.ts";
import { propagateSensitivity } from "./sensitivity.ts";
import { planned } from "./_testing.ts";

Deno.test("propagateSensitivity() marks sensitive the inputs that hold or wait for a sensitive value", () => {
  const pw = planned("pw", {
    type: "random_password",
    sensitive: ["result"],
    after: { result: "s3cret-value" },
  });
  const holds = planned("holds", { config: { content: "pass=s3cret-value", other: "x" } });
  const waits = planned("waits", { config: {}, templates: { content: `x-${sentinelString(0)}` } });
  const short = planned("short", { sensitive: ["result"], after: { result: "abc" } });
  const plain = planned("plain", { config: { content: "abc" } });
  const sentinels = [{ address: "pw", attr: "result" }];
  propagateSensitivity([pw, holds, waits, short, plain], sentinels);
  assert.deepEqual(holds.sensitive, ["content"]);
  assert.deepEqual(waits.sensitive, ["content"]);
  assert.deepEqual(pw.sensitive, ["result"]);
  assert.deepEqual(plain.sensitive, [], "a value shorter than four characters is not looked for");
});
