import assert from "node:assert/strict";
import { StoreBase, TxBase } from "./store_base.ts";
import type { Sealer } from "../secrets/seal.ts";

class Store extends StoreBase {
  constructor() {
    super(() => new Date(0), {} as Sealer, "lineage", "key");
  }
  run<T>(fn: () => T | Promise<T>) {
    return this.exclusive(fn);
  }
  take() {
    this.refuseSecondLock();
    this.heldLock = { id: "l" } as never;
  }
}

class Tx extends TxBase {
  constructor() {
    super(() => new Date(0), {} as Sealer, "lineage");
  }
  use() {
    this.live();
  }
}

Deno.test("StoreBase runs one write at a time, in order, and a failed one does not stop the next", async () => {
  const s = new Store();
  const seen: string[] = [];
  const a = s.run(async () => {
    await new Promise((r) => setTimeout(r, 10));
    seen.push("a");
  });
  const b = s.run(() => {
    seen.push("b");
    throw new Error("b failed");
  });
  const c = s.run(() => seen.push("c"));
  await a;
  await assert.rejects(b, /b failed/);
  await c;
  assert.deepEqual(seen, ["a", "b", "c"]);
});

Deno.test("StoreBase refuses a second lock, and TxBase a transaction used after it ended", () => {
  const s = new Store();
  s.take();
  assert.throws(() => s.take(), /already holds the state lock/);
  const tx = new Tx();
  tx.use();
  tx.finish();
  assert.throws(() => tx.use(), /used after it ended/);
  assert.deepEqual(tx.sensitivePathsOf("a"), []);
});
