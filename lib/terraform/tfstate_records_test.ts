import assert from "node:assert/strict";
import type { Node } from "../cue/loader.ts";
import { BUILTIN_REGISTRY } from "../providers/registry.ts";
const { findType } = BUILTIN_REGISTRY;
import { nodeDigest } from "../plan/digest.ts";
import { inputsOf, sensitiveOf } from "../plan/node_values.ts";
import { builtinDigest, sensitiveNames } from "./tfstate_records.ts";

function node(type: string, config: Record<string, unknown>, opts: Partial<Node> = {}): Node {
  const schema = findType("hashicorp/random", "managed", type)!;
  return {
    address: "n",
    mode: "managed",
    type,
    provider: "hashicorp/random",
    config,
    lifecycle: {},
    sensitiveInputs: [],
    secretForms: {},
    dependencies: [],
    schema,
    ...opts,
  } as unknown as Node;
}

/** The digest the planner makes for a node (lib/plan/plan_node.ts), without secret forms. */
function plannerDigest(n: Node): string {
  return nodeDigest(inputsOf(n), n.lifecycle, [...sensitiveOf(n.schema), ...n.sensitiveInputs]);
}

const INTEGER = { id: "3", keepers: null, max: 9, min: 1, result: 3, seed: null };

Deno.test("builtinDigest() equals the planner's digest when the object agrees with the configuration", () => {
  const n = node("random_integer", { min: 1, max: 9 });
  assert.equal(builtinDigest(n, INTEGER), plannerDigest(n));
});

Deno.test("builtinDigest() differs when the object holds another input, or one the configuration leaves out", () => {
  const n = node("random_integer", { min: 1, max: 9 });
  assert.notEqual(builtinDigest(n, { ...INTEGER, min: 2 }), plannerDigest(n));
  assert.notEqual(builtinDigest(n, { ...INTEGER, seed: "s" }), plannerDigest(n));
  assert.notEqual(builtinDigest(n, { ...INTEGER, keepers: { a: "1" } }), plannerDigest(n));
});

Deno.test("builtinDigest() is empty for a node whose inputs are computed from secrets: the next plan asks the provider", () => {
  const n = node("random_integer", { min: 1, max: 9 }, { secretForms: { seed: ["a", "b"] } });
  assert.equal(builtinDigest(n, INTEGER), "");
});

Deno.test("sensitiveNames() seals the schema's, the root's and Terraform's sensitive attributes, and exact copies", () => {
  const n = node("random_password", {}, { sensitiveInputs: ["override_special"] });
  const attrs = {
    result: "pw-123",
    bcrypt_hash: "$2a$hash",
    override_special: "!#",
    keepers: { copy: "pw-123", other: "x" },
    id: "none",
    special: true,
    lower: null,
    min_lower: 0,
  };
  const names = sensitiveNames(n, [["lower"], ["special"], ["min_lower", 0]], attrs);
  assert.deepEqual([...names].sort(), [
    "bcrypt_hash",
    "keepers",
    "min_lower",
    "override_special",
    "result",
    "special",
  ]);
});

Deno.test("sensitiveNames() does not seal an attribute that only contains a secret's text", () => {
  const n = node("random_password", {});
  const names = sensitiveNames(n, [], { result: "west", id: "/params/west", keepers: null });
  assert.deepEqual([...names], ["result"]);
});
