import { strict as assert } from "node:assert";
import { NODE_MARKER } from "../provider_cue.ts";
import { dependsOnErrors } from "./depends_on.ts";

const NODE = {
  [NODE_MARKER]: { mode: "managed", type: "random_pet", provider: "hashicorp/random" },
};
const AT = { address: "b", range: { file: "main.cue", line: 4, column: 1 } };

Deno.test("dependsOnErrors() accepts null and a list of nodes or structs of nodes", () => {
  assert.deepEqual(dependsOnErrors(null, AT), []);
  assert.deepEqual(dependsOnErrors([NODE, { x: NODE }], AT), []);
});

Deno.test("dependsOnErrors() refuses what is no list, and each element that holds no node", () => {
  assert.deepEqual(dependsOnErrors("a", AT).map((d) => d.summary), [
    "depends_on of b is not a list",
  ]);
  const d = dependsOnErrors([NODE, 3, { y: 1 }], AT);
  assert.deepEqual(d.map((x) => [x.summary, x.address, x.range]), [
    ["depends_on[1] of b is not a node", "b", AT.range],
    ["depends_on[2] of b is not a node", "b", AT.range],
  ]);
  assert.match(d[1].detail, /a struct with no node in it/);
});
