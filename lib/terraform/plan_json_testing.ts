/**
 * Plans, records and a type's schema made in memory, for the tests of
 * Terraform's JSON plan (plan_json*_test.ts): no provider, no CUE.
 *
 * @module
 */

import type { Block } from "../plugin/schema.ts";
import { attr, block, nested } from "../plugin/_testing.ts";
import type { Plan, PlannedNode, SkippedNode } from "../plan/types.ts";
import { planned, record as stepsRecord } from "../plan/steps/_testing.ts";
import type { Mode, TypeSchema } from "../providers/schema.ts";
import type { StateRecord } from "../state/store.ts";
import { terraformPlan, type TerraformPlanInput } from "./plan_json.ts";

/** `test_thing`: a name, a sensitive value, a computed arn, tags, and `rule` blocks with a sensitive `secret`. */
export const THING: Block = block(
  {
    name: attr("string"),
    value: attr("string", { sensitive: true }),
    arn: attr("string", { computed: true, optional: false }),
    tags: attr(["map", "string"]),
    list: attr(["list", "string"], { computed: true }),
  },
  {
    rule: nested(
      "list",
      block({ port: attr("number"), secret: attr("string", { sensitive: true }) }),
    ),
  },
);

/** The schemas of `test_thing` (managed) and `test_info` (data), of provider `hashicorp/test`. */
export function testTypes(_provider: string, mode: Mode, name: string): TypeSchema | undefined {
  if (name !== "test_thing" && name !== "test_info") return undefined;
  return {
    name,
    mode,
    description: "",
    attributes: {},
    plugin: { block: THING, version: name === "test_thing" ? 2 : 0 },
  };
}

/** A node of a plan: `test_thing`, created, unless `over` says otherwise. */
export function node(address: string, over: Partial<PlannedNode> = {}): PlannedNode {
  return planned(address, {
    type: "test_thing",
    provider: "hashicorp/test",
    action: "create",
    before: null,
    after: { name: "n", value: null, tags: null, rule: [] },
    afterUnknown: ["arn", "list"],
    sensitive: ["value"],
    config: { name: "n" },
    providerInstance: "$test",
    ...over,
  });
}

/** A record of the state: a `test_thing` as applied. */
export function record(address: string, over: Partial<StateRecord> = {}): StateRecord {
  return stepsRecord(address, {
    type: "test_thing",
    provider: "hashicorp/test",
    attributes: { name: "n", value: null, arn: `arn:${address}`, tags: null, list: [], rule: [] },
    configDigest: "d",
    ...over,
  });
}

/** A node the plan skipped (an incremental plan's): a `test_thing` whose configuration did not change. */
export function skipped(address: string): SkippedNode {
  const labels = address.split(".");
  return {
    address,
    mode: "managed",
    type: "test_thing",
    name: labels[labels.length - 1],
    reason: "",
  };
}

/** A plan of these nodes, made from `sources` (`main.cue`), skipping `skipped`. */
export function plan(
  nodes: PlannedNode[],
  over: Partial<Plan> & { main?: string } = {},
): Plan {
  const { main, ...rest } = over;
  return {
    formatVersion: "1.0",
    id: "id",
    createdAt: "2026-05-04T09:12:44.201Z",
    root: "/root",
    tags: {},
    actor: "a",
    reason: "",
    lineage: "l",
    serial: 1,
    configDigest: "c",
    destroy: false,
    nodes,
    skipped: [],
    full: false,
    outputs: {},
    outputsUnknown: [],
    outputsBefore: null,
    sentinels: [],
    sources: main === undefined ? [] : [{ name: "main.cue", src: main }],
    providers: [{ address: "$test", source: "hashicorp/test", config: {}, sensitive: [] }],
    ...rest,
  };
}

/** Terraform's JSON plan of `p` with these records and the test's types. */
export function tfPlan(
  p: Plan,
  records: StateRecord[] = [],
  over: Partial<TerraformPlanInput> = {},
) {
  // As printed: fields that are undefined are left out (JSON.parse's any, for the tests).
  return JSON.parse(JSON.stringify(terraformPlan({
    plan: p,
    records,
    types: testTypes,
    provider: () => undefined,
    constraints: { "registry.terraform.io/hashicorp/test": "~> 1.0" },
    version: "0.1.0-dev",
    ...over,
  })));
}
