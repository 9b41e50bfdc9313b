import { strict as assert } from "node:assert";
import { UNKNOWN } from "../program.ts";
import type { Taint } from "../taint.ts";
import { evaluatorOf, firstTree, RANDOM, sourcesOf } from "./evaluate_testing.ts";
import { buildNodes } from "./nodes.ts";
import { compareStandIns } from "./secret_dependence.ts";
import { secretForms } from "./secret_forms.ts";
import { traceUnknowns } from "./trace.ts";

const SOURCES = sourcesOf(
  RANDOM + "pw: $random.#Resource.random_password & {length: 12}\n" +
    "pet: $random.#Resource.random_pet & {prefix: pw.result}\n",
);
const NO_TAINT: Taint = {
  inputs: new Map(),
  outputs: new Set(),
  allOutputs: false,
  diagnostics: [],
};

async function formed(reveal: boolean) {
  const ev = await evaluatorOf(SOURCES, {
    known: new Map([["pw", { result: "s3cret", length: 12 }]]),
    secrets: new Map([["pw", [["result"]]]]),
    reveal,
  });
  const { tree, found } = await firstTree(ev);
  const traced = await traceUnknowns(ev, { found, tree });
  const stood = await compareStandIns(ev, { tree, traced });
  assert.ok(stood.ok);
  const { nodes } = buildNodes(SOURCES, {
    found,
    known: ev.known,
    traced,
    dependence: stood.value.dependence,
  });
  await secretForms(ev, { nodes, tainted: NO_TAINT, tree, stood: stood.value.stood });
  return nodes.find((n) => n.address === "pet")!;
}

Deno.test("secretForms() makes a sensitive input unknown at plan time, with its two forms", async () => {
  const pet = await formed(false);
  assert.deepEqual(pet.sensitiveInputs, ["prefix"]);
  assert.equal(pet.config.prefix, UNKNOWN);
  assert.ok(pet.needsEvaluation.includes("prefix"));
  const [a, b] = pet.secretForms.prefix as [string, string];
  assert.match(a, /^\(sensitive\)/);
  assert.notEqual(a, b);
  assert.ok(!JSON.stringify(pet.secretForms).includes("s3cret"));
});

Deno.test("secretForms() keeps the real value at apply, and makes the forms from the stand-ins", async () => {
  const pet = await formed(true);
  assert.equal(pet.config.prefix, "s3cret");
  const [a, b] = pet.secretForms.prefix as [string, string];
  assert.match(a, /^\(sensitive\)/);
  assert.notEqual(a, b);
  assert.notEqual(b, "s3cret");
});

Deno.test("secretForms() adds the inputs the references say are computed from a secret", async () => {
  const ev = await evaluatorOf(SOURCES, { trace: false });
  const { tree, found } = await firstTree(ev);
  const { nodes } = buildNodes(SOURCES, {
    found,
    known: ev.known,
    traced: await traceUnknowns(ev, { found, tree }),
  });
  const tainted = { ...NO_TAINT, inputs: new Map([["pet", new Set(["prefix"])]]) };
  await secretForms(ev, { nodes, tainted, tree });
  const pet = nodes.find((n) => n.address === "pet")!;
  assert.deepEqual(pet.sensitiveInputs, ["prefix"]);
  // An evaluation that does not trace makes no forms.
  assert.deepEqual(pet.secretForms, {});
});
