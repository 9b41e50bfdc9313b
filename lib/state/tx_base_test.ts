import assert from "node:assert/strict";
import { pathsOfRow } from "./tx_base.ts";
import { BUILTIN_REGISTRY } from "../providers/registry.ts";
import { MemoryTx } from "./memory_testing.ts";
import { record } from "./store_testing.ts";

/** The stored password `pw`, its `result` sensitive. */
const STORED = {
  pw: {
    sensitive_paths: '[["result"]]',
    provider: "hashicorp/random",
    type: "random_password",
    mode: "managed",
  },
};

Deno.test("TxBase.logChange() keeps a copy of the change and the paths the record had before, read once", async () => {
  const tx = new MemoryTx(STORED);
  const change = { address: "pw", action: "update" as const, before: { a: 1 }, after: null };
  await tx.logChange(change);
  await tx.logChange({ ...change, action: "delete" });
  change.before.a = 2;
  assert.equal(tx.reads, 1);
  assert.equal(tx.wrote, true);
  assert.deepEqual(tx.changes.map((c) => [c.action, c.before]), [["update", { a: 1 }], [
    "delete",
    { a: 1 },
  ]]);
  // random_password's schema marks bcrypt_hash and result sensitive too.
  assert.deepEqual(tx.sensitivePathsOf("pw").map((p) => p.join(".")).sort(), [
    "bcrypt_hash",
    "result",
  ]);
  await tx.logChange({ ...change, address: "new" });
  assert.deepEqual(tx.sensitivePathsOf("new"), []);
});

Deno.test("TxBase.addPaths() adds the paths a written record names, pathsOfRow() those a row names, and an ended transaction refuses use", async () => {
  const tx = new MemoryTx();
  await tx.putRecord(record("n", { sensitivePaths: [["keepers", "k"]] }));
  assert.deepEqual(tx.sensitivePathsOf("n"), [["keepers", "k"]]);
  assert.deepEqual(
    pathsOfRow(
      { sensitive_paths: "[]", provider: "p", type: "t", mode: "data" },
      BUILTIN_REGISTRY.findType,
    ),
    [],
  );
  tx.finish();
  await assert.rejects(
    tx.logChange({ address: "n", action: "read", before: null, after: null }),
    /used after it ended/,
  );
});
