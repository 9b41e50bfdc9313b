import assert from "node:assert/strict";
import { DiagnosticsError } from "../../diag/diag.ts";
import { evaluateRound } from "./evaluate.ts";
import { sourcesOf } from "./_testing.ts";

const BODY = "base: $random.#Resource.random_integer & {min: 1, max: 9}";

Deno.test("evaluateRound() evaluates the root with the round's known values", async () => {
  const got = await evaluateRound(sourcesOf(BODY), {
    tags: {},
    known: new Map([["base", { result: 4, id: "4" }]]),
    secrets: new Map(),
    knownKinds: new Map([["base", {
      provider: "hashicorp/random",
      mode: "managed",
      type: "random_integer",
    }]]),
  });
  assert.equal(got.declared, undefined);
  assert.equal(got.spec.nodes.find((n) => n.address === "base")?.config.result, 4);
});

Deno.test("evaluateRound() gives only the values of declared nodes when the others clash", async () => {
  // `gone` was a node; the configuration now holds a string there.
  const got = await evaluateRound(sourcesOf(`${BODY}\ngone: "a string now"`), {
    tags: {},
    known: new Map([["base", { result: 4, id: "4" }], ["gone", { result: 4, id: "4" }]]),
    secrets: new Map(),
    knownKinds: new Map(),
  });
  assert.deepEqual([...got.declared ?? []], ["base"]);
  assert.equal(got.spec.nodes.find((n) => n.address === "base")?.config.result, 4);
});

Deno.test("evaluateRound() throws an invalid root's diagnostics", async () => {
  await assert.rejects(
    evaluateRound(sourcesOf('base: $random.#Resource.random_integer & {min: 1, max: "x"}'), {
      tags: {},
      known: new Map(),
      secrets: new Map(),
      knownKinds: new Map(),
    }),
    (e) => e instanceof DiagnosticsError && e.kind === "invalid",
  );
});
