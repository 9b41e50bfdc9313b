import assert from "node:assert/strict";
import { ADVISORY_CLASS, advisoryClass } from "./locks.ts";

Deno.test("advisoryClass() is ADVISORY_CLASS for pravo's schema, and another positive integer for each other", () => {
  assert.equal(advisoryClass("pravo"), ADVISORY_CLASS);
  const others = ["team_a", "team_b", "pravo_test_1234abcd"].map(advisoryClass);
  assert.equal(new Set([ADVISORY_CLASS, ...others]).size, 4);
  for (const k of others) assert.ok(Number.isInteger(k) && k > 0 && k <= 0x7fffffff, String(k));
  assert.equal(advisoryClass("team_a"), others[0], "the same for the same schema");
});
