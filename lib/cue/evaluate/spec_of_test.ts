import { strict as assert } from "node:assert";
import { PROVIDER_MARKER } from "../provider_cue.ts";
import type { Node } from "../spec.ts";
import { specDigest } from "../sources/sources.ts";
import { RANDOM, sourcesOf } from "./evaluate_testing.ts";
import { specOf } from "./spec_of.ts";

Deno.test("specOf() sorts the nodes, lists the provider instances and the sensitive outputs", () => {
  const sources = sourcesOf(RANDOM);
  const nodes = [{ address: "b" }, { address: "a" }] as Node[];
  const spec = specOf(sources, {
    nodes,
    found: {
      nodes: [],
      providers: [{ path: ["$random"], value: { [PROVIDER_MARKER]: "hashicorp/random", x: 1 } }],
      inLists: [],
    },
    outputs: { o: 1, p: 2, q: 3 },
    sentinels: [],
    moved: [],
    tainted: { inputs: new Map(), outputs: new Set(["p"]), allOutputs: false, diagnostics: [] },
    dependence: {
      attributes: new Map([["$random", new Set(["x"])]]),
      outputs: new Set(["o"]),
      diagnostics: [],
    },
    tags: { env: "dev" },
  });
  assert.deepEqual(spec.nodes.map((n) => n.address), ["a", "b"]);
  assert.deepEqual(spec.providers, [
    { address: "$random", source: "hashicorp/random", config: { x: 1 }, sensitive: ["x"] },
  ]);
  assert.deepEqual(spec.outputsSensitive, ["o", "p"]);
  assert.equal(spec.configDigest, specDigest(sources.digest, { env: "dev" }));
  assert.equal(spec.packageName, "demo");
});
