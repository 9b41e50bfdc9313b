/**
 * The behaviour every state store must have, as tests: the SQLite store
 * runs them in `sqlite/store_test.ts`, the PostgreSQL store in
 * `postgres/store_test.ts`, each over its harness (harness_testing.ts). Also
 * the records and the writes the tests of the state and its commands make.
 *
 * @module
 */

import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { DiagnosticsError } from "../diag/diag.ts";
import { keyFromBytes, type PravoKey } from "../keys/key.ts";
import type { KeySource } from "../secrets/seal.ts";
import {
  type LockRequest,
  type RecordInput,
  SCHEMA_VERSION,
  type StateStore,
  type StateTx,
  type TxMeta,
} from "./store.ts";

/** One store's state, fresh for each test, and ways to reach it. */
export interface StoreHarness {
  /**
   * Opens a store on this harness's state: a new connection each call, as
   * another process would have. The first call creates the state, unless
   * `create` is false.
   */
  open(opts?: { now?: () => Date; key?: KeySource; create?: boolean }): Promise<StateStore>;
  /** Every byte the backend keeps for this state (call after closing). */
  rawBytes(): Promise<Uint8Array>;
  /** Runs a statement on the rows underneath the store, as one who can reach them could. */
  exec(sql: string): Promise<void>;
  /** The schema version the rows underneath say. */
  schemaVersion(): Promise<string>;
  /** Sets the schema version underneath the store, as a newer pravo would have. */
  setSchemaVersion(version: number): Promise<void>;
  /** Writes the state as a pravo of schema 1 left it, with one log entry of `entry`. */
  writeSchema1(entry: { actor: string; reason: string; planId: string }): Promise<void>;
  /** Statements that would change the log, each of which the backend refuses. */
  logTampering: string[];
  /** Removes what the harness made. */
  cleanup(): Promise<void>;
}

/** What a harness is made for: `alone`, a test that changes the schema itself. */
export interface HarnessNeeds {
  alone?: boolean;
}

/** A clock that stands still until moved. */
export function fakeClock(start = "2030-01-02T03:04:05.000Z") {
  let t = Date.parse(start);
  return {
    now: () => new Date(t),
    advance(ms: number) {
      t += ms;
    },
    iso: () => new Date(t).toISOString(),
  };
}

const META: TxMeta = {
  actor: "alice",
  reason: "testing",
  command: "apply",
  planId: "plan-1",
  planActor: "carol",
  planReason: "rotate the key",
  run: "run-1",
};

/** A record of a `random_integer` at `address`, as `extra` changes it. */
export function record(address: string, extra: Partial<RecordInput> = {}): RecordInput {
  return {
    address,
    mode: "managed",
    type: "random_integer",
    provider: "hashicorp/random",
    attributes: { min: 1, max: 9, result: address.length, tags: { a: [1, 2, { b: null }] } },
    sensitivePaths: [],
    dependencies: [],
    configDigest: `sha256:${address}`,
    refreshAge: null,
    ...extra,
  };
}

/** Writes a record and logs its change (create or update) in one transaction step. */
export async function put(tx: StateTx, r: RecordInput): Promise<void> {
  const before = await tx.getRecord(r.address);
  await tx.putRecord(r);
  await tx.logChange({
    address: r.address,
    action: before ? "update" : "create",
    before: before?.attributes ?? null,
    after: r.attributes,
    sensitivePaths: r.sensitivePaths,
  });
}

/** Removes a record and logs its delete, naming no sensitive path. */
async function remove(tx: StateTx, address: string): Promise<void> {
  const before = await tx.getRecord(address);
  await tx.deleteRecord(address);
  await tx.logChange({ address, action: "delete", before: before!.attributes, after: null });
}

/** The request of `actor` for the state lock, by `apply`, waiting not at all unless `extra` says. */
export function lockFor(actor: string, extra: Partial<LockRequest> = {}): LockRequest {
  return { actor, reason: "", command: "apply", timeoutMs: 0, ...extra };
}

/**
 * Logs an update of `pw` whose result is `secret` (a sensitive path), and
 * gives back what the log holds of its `after`.
 */
export async function loggedSecret(s: StateStore, secret: string): Promise<unknown> {
  await s.transaction({ actor: "t", reason: "", command: "apply" }, (tx) =>
    tx.logChange({
      address: "pw",
      action: "update",
      before: null,
      after: { result: secret },
      sensitivePaths: [["result"]],
    }));
  return (await s.readLog({ limit: 1 }))[0].changes[0].after;
}

/** A new random key, as pravo's key for a test. */
export function testKey(name: string): PravoKey {
  return keyFromBytes(new Uint8Array(randomBytes(32)), name);
}

/** Registers the suite's tests under `name`, each with a fresh harness. */
export function storeSuite(
  name: string,
  makeHarness: (needs: HarnessNeeds) => Promise<StoreHarness>,
): void {
  const test = (what: string, fn: (h: StoreHarness) => Promise<void>, needs: HarnessNeeds = {}) =>
    Deno.test(`${name}: ${what}`, async () => {
      const h = await makeHarness(needs);
      try {
        await fn(h);
      } finally {
        await h.cleanup();
      }
    });

  test("a new state has a lineage, serial 0 and the current schema", async (h) => {
    const a = await h.open();
    const id = await a.identity();
    assert.match(id.lineage, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.equal(id.serial, 0);
    assert.equal(id.schemaVersion, SCHEMA_VERSION);
    assert.equal(a.created, true);
    await a.close();
    const b = await h.open();
    assert.equal(b.created, false);
    assert.deepEqual(await b.identity(), id);
    await b.close();
  });

  test("records round-trip, keep their creation time and are listed by address", async (h) => {
    const clock = fakeClock();
    const s = await h.open({ now: clock.now });
    const web = record("net.web", {
      mode: "data",
      type: "local_file",
      provider: "hashicorp/local",
      attributes: { filename: "/x", content: "hi", n: 1.5, ok: true, list: ["a", { b: [] }] },
      sensitivePaths: [["content"], ["list", 1, "b"]],
      dependencies: ["base", "net.cert"],
      refreshAge: "24h",
    });
    const created = clock.iso();
    await s.transaction(META, async (tx) => {
      await put(tx, record("base"));
      await put(tx, web);
    });
    assert.deepEqual(await s.getRecord("net.web"), {
      ...web,
      createdAt: created,
      updatedAt: created,
      refreshedAt: created,
    });
    assert.equal(await s.getRecord("nothing"), undefined);
    assert.deepEqual(await s.listAddresses(), ["base", "net.web"]);

    clock.advance(60_000);
    const refreshed = "2029-12-31T00:00:00.000Z";
    await s.transaction(META, async (tx) => {
      await put(tx, record("base", { attributes: { result: 7 }, refreshedAt: refreshed }));
      await put(tx, record("a.first"));
    });
    const base = await s.getRecord("base");
    assert.equal(base?.createdAt, created);
    assert.equal(base?.updatedAt, clock.iso());
    assert.equal(base?.refreshedAt, refreshed);
    assert.deepEqual(base?.attributes, { result: 7 });
    assert.deepEqual((await s.listRecords()).map((r) => r.address), ["a.first", "base", "net.web"]);

    clock.advance(1000);
    await s.transaction(META, async (tx) => {
      await tx.markRefreshed(["net.web"]);
      assert.equal(await tx.deleteRecord("a.first"), true);
      assert.equal(await tx.deleteRecord("a.first"), false);
    });
    assert.equal((await s.getRecord("net.web"))?.refreshedAt, clock.iso());
    assert.equal((await s.getRecord("net.web"))?.updatedAt, created);
    assert.deepEqual(await s.listAddresses(), ["base", "net.web"]);
    await s.close();

    const again = await h.open();
    assert.deepEqual((await again.getRecord("net.web"))?.attributes, web.attributes);
    await again.close();
  });

  test("a record keeps the provider configuration that made its object, beside its schema version and private data", async (h) => {
    const s = await h.open();
    const west = record("west", { providerInstance: "$aws_west" });
    const full = record("full", {
      providerInstance: "$aws_west",
      schemaVersion: 2,
      private: "cHJpdg==",
    });
    await s.transaction(META, async (tx) => {
      await put(tx, west);
      await put(tx, full);
      await put(tx, record("older"));
    });
    await s.close();
    const again = await h.open();
    assert.equal((await again.getRecord("west"))?.providerInstance, "$aws_west");
    const got = await again.getRecord("full");
    assert.deepEqual(
      [got?.providerInstance, got?.schemaVersion, got?.private],
      ["$aws_west", 2, "cHJpdg=="],
    );
    const older = await again.getRecord("older");
    assert.ok(older && !("providerInstance" in older), JSON.stringify(older));
    // Rewritten without one (as an older pravo writes it), the record has none.
    await again.transaction(META, (tx) => put(tx, record("west")));
    assert.equal((await again.getRecord("west"))?.providerInstance, undefined);
    await again.close();
  });

  test("the outputs of the last apply are kept, without moving the serial or making a log entry", async (h) => {
    const s = await h.open();
    assert.equal(await s.readOutputs(), null);
    await s.transaction(META, async (tx) => {
      await put(tx, record("n0"));
    });
    const before = await s.identity();
    const log = (await s.readLog()).length;
    await s.transaction(META, (tx) => tx.setOutputs({ n: 3, name: "x", pw: "(sensitive)" }));
    assert.equal((await s.identity()).serial, before.serial);
    assert.equal((await s.readLog()).length, log);
    // Another connection reads them; a later apply's replace them whole.
    const other = await h.open();
    assert.deepEqual(await other.readOutputs(), { n: 3, name: "x", pw: "(sensitive)" });
    await other.transaction(META, (tx) => tx.setOutputs({}));
    assert.deepEqual(await s.readOutputs(), {});
    await other.close();
    await s.close();
  });

  test("marking records refreshed neither moves the serial nor makes a log entry", async (h) => {
    const s = await h.open();
    await s.transaction(META, async (tx) => {
      await put(tx, record("n0"));
    });
    const before = await s.identity();
    const log = (await s.readLog()).length;
    await s.transaction(META, async (tx) => {
      await tx.markRefreshed(["n0"], "2030-01-01T00:00:00.000Z");
    });
    assert.equal((await s.identity()).serial, before.serial);
    assert.equal((await s.readLog()).length, log);
    assert.equal((await s.getRecord("n0"))?.refreshedAt, "2030-01-01T00:00:00.000Z");
    await s.close();
  });

  test("the serial moves once per transaction that writes, and not for one that does not", async (h) => {
    const s = await h.open();
    await s.transaction(META, async (tx) => {
      for (let i = 0; i < 10; i++) await put(tx, record(`n${i}`));
    });
    assert.equal((await s.identity()).serial, 1);
    for (let i = 0; i < 3; i++) {
      await s.transaction(META, (tx) => put(tx, record(`m${i}`)));
    }
    assert.equal((await s.identity()).serial, 4);
    const value = await s.transaction(META, async (tx) => (await tx.getRecord("n1"))?.address);
    assert.equal(value, "n1");
    assert.equal((await s.identity()).serial, 4);
    assert.equal((await s.readLog()).length, 4);
    assert.deepEqual((await s.readLog()).map((e) => e.serial), [4, 3, 2, 1]);
    await s.close();
  });

  test("concurrent transactions of one store run one after another", async (h) => {
    const s = await h.open();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => s.transaction(META, (tx) => put(tx, record(`p${i}`)))),
    );
    assert.equal((await s.identity()).serial, 20);
    assert.equal((await s.listAddresses()).length, 20);
    assert.equal((await s.readLog()).length, 20);
    await s.close();
  });

  test("the log is newest first, limited, filtered by address, with who and why", async (h) => {
    const clock = fakeClock();
    const s = await h.open({ now: clock.now });
    await s.transaction(META, (tx) => put(tx, record("a")));
    clock.advance(1000);
    await s.transaction(
      { actor: "bob", reason: "", command: "drift" },
      async (tx) => {
        await put(tx, record("b"));
        await put(tx, record("a", { attributes: { result: 2 } }));
      },
    );
    clock.advance(1000);
    await s.transaction(META, (tx) => remove(tx, "b"));
    const log = await s.readLog();
    assert.deepEqual(log.map((e) => e.serial), [3, 2, 1]);
    assert.deepEqual(log[1], {
      id: log[1].id,
      serial: 2,
      at: "2030-01-02T03:04:06.000Z",
      actor: "bob",
      reason: "",
      command: "drift",
      planId: null,
      planActor: null,
      planReason: null,
      run: null,
      changes: [
        { address: "b", action: "create", before: null, after: record("b").attributes },
        { address: "a", action: "update", before: record("a").attributes, after: { result: 2 } },
      ],
    });
    assert.equal(log[0].planId, "plan-1");
    // Who made the plan the apply carried out, and why: kept with the entry.
    assert.equal(log[0].planActor, "carol");
    assert.equal(log[0].planReason, "rotate the key");
    // The run that wrote it, so that the log shows a run's transactions as one entry.
    assert.equal(log[0].run, "run-1");
    assert.deepEqual(log[0].changes, [
      { address: "b", action: "delete", before: record("b").attributes, after: null },
    ]);
    assert.ok(log[0].id > log[1].id && log[1].id > log[2].id);
    assert.deepEqual((await s.readLog({ limit: 2 })).map((e) => e.serial), [3, 2]);
    const forA = await s.readLog({ address: "a" });
    assert.deepEqual(forA.map((e) => e.serial), [2, 1]);
    assert.deepEqual(forA[0].changes.map((c) => c.address), ["a"]);
    await s.close();
  });

  test("the log never holds a sensitive value in the clear", async (h) => {
    const secret = "s3cr3t-Zq8wXv-" + crypto.randomUUID();
    const other = "0th3r-Pk2-" + crypto.randomUUID();
    const s = await h.open();
    // A record whose sensitive value is in the log's after, then in its before.
    await s.transaction(META, async (tx) => {
      await put(
        tx,
        record("pw", { attributes: { length: 40, result: secret }, sensitivePaths: [["result"]] }),
      );
    });
    assert.equal((await s.getRecord("pw"))?.attributes.result, secret, "the record keeps it");
    // The caller forgets to say which paths are sensitive: the record said so.
    await s.transaction(META, (tx) => remove(tx, "pw"));
    // A value that only passes through the log (a data source read).
    await s.transaction(META, async (tx) => {
      await tx.logChange({
        address: "d",
        action: "read",
        before: null,
        after: { nested: { token: other }, same: secret },
        sensitivePaths: [["nested", "token"], ["same"]],
      });
    });
    const log = await s.readLog();
    const created = log[2].changes[0].after as Record<string, unknown>;
    const deleted = log[1].changes[0].before as Record<string, unknown>;
    const read = log[0].changes[0].after as { nested: { token: unknown }; same: unknown };
    assert.equal(created.length, 40);
    assert.match(
      (created.result as { $sensitive: string }).$sensitive,
      /^hmac-sha256:[0-9a-f]{32}$/,
    );
    assert.deepEqual(deleted.result, created.result, "one value, one marker");
    assert.deepEqual(read.same, created.result);
    assert.notDeepEqual(read.nested.token, created.result, "another value, another marker");
    assert.ok(!JSON.stringify(log).includes(secret));
    assert.ok(!JSON.stringify(log).includes(other));
    await s.close();
    const bytes = new TextDecoder("latin1").decode(await h.rawBytes());
    assert.ok(bytes.length > 0);
    assert.ok(!bytes.includes(secret), "the secret is stored somewhere in the clear");
    assert.ok(!bytes.includes(other), "the log-only secret is stored in the clear");
  });

  test("sensitive values are sealed at rest with pravo's key and read back opened", async (h) => {
    const secret = "Zq8w-" + crypto.randomUUID();
    const hash = "$2a$10$" + crypto.randomUUID();
    const key = testKey("key A");
    const s = await h.open({ key: () => key });
    await s.transaction(META, async (tx) => {
      // `result` named by the record; `bcrypt_hash` only by the type's schema.
      await put(tx, {
        ...record("pw"),
        type: "random_password",
        attributes: { length: 40, result: secret, bcrypt_hash: hash, nested: { token: secret } },
        sensitivePaths: [["result"], ["nested", "token"]],
      });
      await tx.putRecord({ ...record("none"), attributes: { result: null } });
    });
    const got = await s.getRecord("pw");
    assert.deepEqual(got?.attributes, {
      length: 40,
      result: secret,
      bcrypt_hash: hash,
      nested: { token: secret },
    });
    assert.deepEqual(
      (await s.listRecords()).find((r) => r.address === "pw")?.attributes,
      got?.attributes,
    );
    await s.transaction(META, async (tx) => {
      assert.equal(
        (await tx.getRecord("pw"))?.attributes.result,
        secret,
        "a transaction reads it opened",
      );
    });
    assert.deepEqual((await s.getRecord("none"))?.attributes, { result: null });
    await s.close();
    const bytes = new TextDecoder("latin1").decode(await h.rawBytes());
    for (const form of [secret, secret.toUpperCase(), btoa(secret), hash]) {
      assert.ok(!bytes.includes(form), `"${form}" is stored in the clear`);
    }
    assert.match(bytes, /\$sealed\\?":\\?"v1:[0-9a-f]{16}:/);
    // Opened again, by another connection with the same key.
    const again = await h.open({ key: () => key });
    assert.equal((await again.getRecord("pw"))?.attributes.result, secret);
    await again.close();
  });

  test("a state sealed with another key names the key it needs and how to give it", async (h) => {
    const a = testKey("key A");
    const s = await h.open({ key: () => a });
    await s.transaction(
      META,
      (tx) =>
        put(tx, { ...record("pw"), attributes: { result: "x" }, sensitivePaths: [["result"]] }),
    );
    await s.close();
    const other = await h.open({ key: () => testKey("key B") });
    for (const read of [() => other.listRecords(), () => other.getRecord("pw")]) {
      await assert.rejects(read(), (e: unknown) => {
        assert.ok(e instanceof DiagnosticsError);
        assert.equal(e.kind, "error");
        const text = e.diagnostics.map((d) => `${d.summary}\n${d.detail}`).join("\n");
        assert.match(text, new RegExp(`fingerprint ${a.fingerprint}`));
        assert.match(text, /\$PRAVO_KEY_FILE/);
        assert.match(text, /\$PRAVO_KEY\b/);
        return true;
      });
    }
    // Reads that need no secret work; a write that logs needs the log's key.
    assert.deepEqual(await other.listAddresses(), ["pw"]);
    await assert.rejects(
      other.transaction(
        META,
        (tx) => tx.logChange({ address: "pw", action: "update", before: null, after: { x: 1 } }),
      ),
      /another key/,
    );
    await other.close();
  });

  test("a transaction that throws leaves nothing", async (h) => {
    const s = await h.open();
    await s.transaction(META, (tx) => put(tx, record("kept")));
    const before = await s.identity();
    await assert.rejects(
      s.transaction(META, async (tx) => {
        await put(tx, record("lost"));
        await put(tx, record("kept", { attributes: { changed: true } }));
        await tx.deleteRecord("kept");
        throw new Error("provider failed");
      }),
      /provider failed/,
    );
    assert.deepEqual(await s.identity(), before);
    assert.deepEqual(await s.listAddresses(), ["kept"]);
    assert.deepEqual((await s.getRecord("kept"))?.attributes, record("kept").attributes);
    assert.equal((await s.readLog()).length, 1);
    // The store is still usable.
    await s.transaction(META, (tx) => put(tx, record("next")));
    assert.equal((await s.identity()).serial, before.serial + 1);
    await s.close();
  });

  test("reads outside a transaction see only committed data", async (h) => {
    const s = await h.open();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const running = s.transaction(META, async (tx) => {
      await put(tx, record("pending"));
      await gate;
    });
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(await s.getRecord("pending"), undefined);
    assert.equal((await s.identity()).serial, 0);
    release();
    await running;
    assert.ok(await s.getRecord("pending"));
    await s.close();
  });

  test("a second writer waits for the lock, then fails naming the holder", async (h) => {
    const clock = fakeClock();
    const a = await h.open({ now: clock.now });
    const b = await h.open({ now: clock.now });
    const lock = await a.acquireLock(lockFor("alice", { reason: "rotate keys" }));
    assert.equal(lock.since, clock.iso());
    assert.equal(lock.tookOver, undefined);
    const started = performance.now();
    const err = await b.acquireLock(lockFor("bob", { timeoutMs: 300 })).then(
      () => undefined,
      (e) => e,
    );
    const waited = performance.now() - started;
    assert.ok(err instanceof DiagnosticsError, `not a DiagnosticsError: ${err}`);
    assert.equal(err.kind, "locked");
    assert.ok(waited >= 290, `gave up after ${waited} ms`);
    const text = err.diagnostics.map((d) => d.summary + "\n" + d.detail).join("\n");
    assert.match(text, /"alice"/);
    assert.match(text, /"apply"/);
    assert.match(text, /rotate keys/);
    assert.ok(text.includes(clock.iso()), text);

    // While the lock is held, the other store's writes are refused too.
    const txErr = await b.transaction(META, (tx) => put(tx, record("x"))).then(
      () => undefined,
      (e) => e,
    );
    assert.ok(txErr instanceof DiagnosticsError);
    assert.equal(txErr.kind, "locked");
    assert.match(txErr.diagnostics[0].detail, /"alice"/);
    // The holder writes.
    await a.transaction(META, (tx) => put(tx, record("y")));

    const locks = await b.listLocks();
    assert.equal(locks.length, 1);
    assert.equal(locks[0].id, lock.id);
    assert.equal(locks[0].actor, "alice");
    assert.equal(locks[0].stale, undefined);

    // A waiter gets the lock once the holder lets go.
    const waiting = b.acquireLock(lockFor("bob", { timeoutMs: 5000 }));
    await new Promise((r) => setTimeout(r, 100));
    await a.releaseLock(lock);
    const got = await waiting;
    assert.equal(got.actor, "bob");
    assert.equal(got.tookOver, undefined);
    await b.transaction(META, (tx) => put(tx, record("z")));
    await b.releaseLock(got);
    assert.deepEqual(await a.listLocks(), []);
    await a.close();
    await b.close();
  });

  test("an expired lock is taken over, and its old holder cannot release the new one", async (h) => {
    const clock = fakeClock();
    const a = await h.open({ now: clock.now });
    const b = await h.open({ now: clock.now });
    const old = await a.acquireLock(lockFor("alice", { ttlMs: 60_000 }));
    clock.advance(61_000);
    assert.match((await b.listLocks())[0].stale ?? "", /expired/);
    const lock = await b.acquireLock(lockFor("bob"));
    assert.equal(lock.tookOver?.id, old.id);
    assert.match(lock.tookOver?.stale ?? "", /expired at 2030-01-02T03:05:05.000Z/);
    await a.releaseLock(old);
    assert.deepEqual((await a.listLocks()).map((l) => l.actor), ["bob"]);
    await b.close(); // closing releases the lock
    assert.deepEqual(await a.listLocks(), []);
    await a.close();
  });

  test("unlock() removes another holder's lock and records who did it and why, in one transaction", async (h) => {
    const a = await h.open();
    const b = await h.open();
    const held = await a.acquireLock(lockFor("alice", { reason: "long" }));
    const serial = (await b.identity()).serial;
    assert.equal(
      await b.unlock(crypto.randomUUID(), { actor: "ops", reason: "x", command: "state unlock" }),
      undefined,
      "no lock with that id: nothing done",
    );
    assert.equal((await b.identity()).serial, serial);
    const removed = await b.unlock(held.id, {
      actor: "ops",
      reason: "its run was killed",
      command: "state unlock",
    });
    assert.equal(removed?.id, held.id);
    assert.equal(removed?.actor, "alice");
    assert.deepEqual(await b.listLocks(), []);
    assert.equal((await b.identity()).serial, serial + 1);
    const [entry] = await b.readLog({ limit: 1 });
    assert.equal(entry.actor, "ops");
    assert.equal(entry.reason, "its run was killed");
    assert.equal(entry.command, "state unlock");
    assert.deepEqual(entry.changes.map((c) => [c.address, c.action, c.before?.id, c.after]), [
      ["(state lock)", "unlock", held.id, null],
    ]);
    // Free now: another writer takes it at once.
    const next = await b.acquireLock(lockFor("bob"));
    assert.equal(next.tookOver, undefined);
    await b.close();
    await a.close();
  });

  test("reservations: made, listed, found for others, expired, released", async (h) => {
    const clock = fakeClock();
    const s = await h.open({ now: clock.now });
    const r1 = await s.createReservation({
      addresses: ["web", "db", "web"],
      actor: "alice",
      reason: "migration",
      planId: "plan-a",
      ttlMs: 3_600_000,
    });
    assert.deepEqual(r1.addresses, ["db", "web"]);
    assert.equal(r1.created, clock.iso());
    assert.equal(r1.expires, "2030-01-02T04:04:05.000Z");
    clock.advance(1000);
    const r2 = await s.createReservation({
      addresses: ["cache"],
      actor: "carol",
      reason: "",
      planId: "plan-c",
      ttlMs: 60_000,
    });
    assert.deepEqual(await s.listReservations(), [r1, r2]);

    const bob = await s.findReservationConflicts(["web", "cache", "other"], { actor: "bob" });
    assert.deepEqual(bob, [
      { reservation: r1, addresses: ["web"] },
      { reservation: r2, addresses: ["cache"] },
    ]);
    assert.deepEqual(
      (await s.findReservationConflicts(["web", "db", "cache"], { actor: "alice" })).map((c) =>
        c.reservation.id
      ),
      [r2.id],
      "one's own reservations do not conflict",
    );
    assert.deepEqual(
      await s.findReservationConflicts(["web"], { actor: "ci", planId: "plan-a" }),
      [],
      "the reserving plan, applied by anyone, does not conflict",
    );

    clock.advance(61_000);
    assert.deepEqual(await s.listReservations(), [r1]);
    assert.deepEqual(await s.listReservations({ includeExpired: true }), [r1, r2]);
    assert.deepEqual(await s.findReservationConflicts(["cache"], { actor: "bob" }), []);

    assert.equal(await s.releaseReservation(r1.id), true);
    assert.equal(await s.releaseReservation(r1.id), false);
    assert.deepEqual(await s.findReservationConflicts(["web"], { actor: "bob" }), []);
    assert.equal((await s.identity()).serial, 0, "reservations do not move the serial");
    await s.close();
  });

  test("a state written by a newer pravo is refused, changing nothing", async (h) => {
    await (await h.open()).close();
    await h.setSchemaVersion(SCHEMA_VERSION + 41);
    for (const create of [false, true]) {
      await assert.rejects(h.open({ create }), (e: unknown) => {
        assert.ok(e instanceof DiagnosticsError);
        assert.equal(e.kind, "error");
        const d = e.diagnostics[0];
        assert.equal(d.summary, "The state store was written by a newer pravo");
        assert.ok(d.detail.includes(`schema version ${SCHEMA_VERSION + 41}`), d.detail);
        assert.ok(d.detail.includes(`up to ${SCHEMA_VERSION}`), d.detail);
        assert.match(d.detail, /Upgrade pravo/);
        return true;
      });
    }
    assert.equal(await h.schemaVersion(), String(SCHEMA_VERSION + 41));
  }, { alone: true });

  test(
    "a schema 1 state is migrated: its log is kept, without a plan's actor and reason",
    async (h) => {
      await h.writeSchema1({ actor: "old", reason: "why", planId: "p-0" });
      const s = await h.open({ create: false });
      try {
        assert.equal((await s.identity()).schemaVersion, SCHEMA_VERSION);
        await s.transaction(
          {
            actor: "t",
            reason: "",
            command: "apply",
            planId: "p-1",
            planActor: "carol",
            planReason: "because",
          },
          (tx) => tx.logChange({ address: "x", action: "forget", before: null, after: null }),
        );
        const log = await s.readLog();
        assert.deepEqual(
          log.map((e) => [e.actor, e.planId, e.planActor, e.planReason]),
          [["t", "p-1", "carol", "because"], ["old", "p-0", null, null]],
        );
      } finally {
        await s.close();
      }
    },
    { alone: true },
  );

  test("the log is append-only even against direct SQL", async (h) => {
    const s = await h.open();
    await s.transaction(META, async (tx) => {
      await tx.logChange({ address: "a", action: "read", before: null, after: { x: 1 } });
    });
    await s.close();
    for (const stmt of h.logTampering) {
      await assert.rejects(h.exec(stmt), /append-only/, stmt);
    }
  });
}
