import assert from "node:assert/strict";
import { nodeDocument, nodeHead } from "./document.ts";
import { planned } from "./steps/_testing.ts";

Deno.test("nodeHead() names a planned node and its action, and heads its document", () => {
  const n = planned("net.base", { action: "update" });
  const head = nodeHead(n);
  assert.deepEqual(head, {
    address: "net.base",
    mode: "managed",
    type: "random_integer",
    name: "base",
    provider: "hashicorp/random",
    action: "update",
  });
  assert.deepEqual(Object.keys(nodeDocument(n)).slice(0, 6), Object.keys(head));
});
