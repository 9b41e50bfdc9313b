import assert from "node:assert/strict";
import { Sealer } from "../secrets/seal.ts";
import type { Row } from "./rows.ts";
import type { RecordInput, StateRecord } from "./store.ts";
import { pathsOfRow, TxBase } from "./tx_base.ts";

const SEALER = new Sealer(() => {
  throw new Error("no key in these tests");
}, "test");

/** A transaction over one stored row: the password `pw`, its `result` sensitive. */
class OneRowTx extends TxBase {
  reads = 0;
  constructor() {
    super({ now: () => new Date(0), sealer: SEALER, lineage: "lineage" });
  }
  protected storedPaths(address: string): Row | undefined {
    this.reads++;
    if (address !== "pw") return undefined;
    return {
      sensitive_paths: '[["result"]]',
      provider: "hashicorp/random",
      type: "random_password",
      mode: "managed",
    };
  }
  getRecord(): Promise<StateRecord | undefined> {
    return Promise.resolve(undefined);
  }
  putRecord(r: RecordInput): Promise<void> {
    this.addPaths(r);
    return Promise.resolve();
  }
  deleteRecord(): Promise<boolean> {
    return Promise.resolve(false);
  }
  markRefreshed(): Promise<void> {
    return Promise.resolve();
  }
  setOutputs(): Promise<void> {
    return Promise.resolve();
  }
}

const RECORD: RecordInput = {
  address: "n",
  mode: "managed",
  type: "random_integer",
  provider: "hashicorp/random",
  attributes: { result: 1 },
  sensitivePaths: [["keepers", "k"]],
  dependencies: [],
  configDigest: "d",
  refreshAge: null,
};

Deno.test("TxBase.logChange() keeps a copy of the change and the paths the record had before, read once", async () => {
  const tx = new OneRowTx();
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
  const tx = new OneRowTx();
  await tx.putRecord(RECORD);
  assert.deepEqual(tx.sensitivePathsOf("n"), [["keepers", "k"]]);
  assert.deepEqual(
    pathsOfRow({ sensitive_paths: "[]", provider: "p", type: "t", mode: "data" }),
    [],
  );
  tx.finish();
  await assert.rejects(
    tx.logChange({ address: "n", action: "read", before: null, after: null }),
    /used after it ended/,
  );
});
