/**
 * The PostgreSQL store: the store suite (the same as SQLite's), and what is
 * PostgreSQL's own: roots kept apart, the lock of a dead session, migrations,
 * the append-only log, passwords kept out of messages.
 *
 * These tests need a server: `PRAVO_TEST_PG=postgres://USER:PASSWORD@HOST:PORT/DB`
 * (`.ci/run` starts one). Without it they are reported as ignored, saying so.
 */

import assert from "node:assert/strict";
import { DiagnosticsError } from "../../diag/diag.ts";
import { type PostgresLocation } from "../../config/location.ts";
import { PostgresStore } from "./store.ts";
import { advisoryClass } from "./locks.ts";
import { PG_MIGRATIONS } from "./schema.ts";
import { sensitiveMarker } from "../../secrets/redact.ts";
import { SCHEMA_VERSION, type TxMeta } from "../store.ts";
import { loggedSecret, record, storeSuite, testKey } from "../store_testing.ts";
import {
  dropSchemaTest,
  PG,
  pgAdmin,
  pgWhere,
  postgresHarness,
  testSchema,
} from "../harness_testing.ts";

const SKIP = PG === "";
if (SKIP) {
  console.log(
    "lib/state/postgres/store_test.ts: PostgreSQL tests skipped: PRAVO_TEST_PG names no server " +
      "(set it to postgres://USER:PASSWORD@HOST:PORT/DB, as .ci/run does)",
  );
}

/** This run's schema: the tests' rows go there, and it is dropped at the end. */
const SCHEMA = testSchema();
const META: TxMeta = { actor: "t", reason: "", command: "apply" };

function where(root: string, schema = SCHEMA): PostgresLocation {
  return pgWhere(root, schema);
}

const test = (name: string, fn: () => Promise<void>) =>
  Deno.test({ name, ignore: SKIP, sanitizeResources: false, sanitizeOps: false, fn });

if (SKIP) {
  Deno.test({
    name: "PostgresStore: the store suite (needs PRAVO_TEST_PG)",
    ignore: true,
    fn() {},
  });
} else {
  storeSuite("PostgresStore", (needs) => Promise.resolve(postgresHarness(SCHEMA, needs)));
}

test("PostgresStore keeps many roots in one database apart", async () => {
  const a = await PostgresStore.open(where("apart/a"), { create: true });
  const b = await PostgresStore.open(where("apart/b"), { create: true });
  try {
    assert.notEqual((await a.identity()).lineage, (await b.identity()).lineage);
    await a.transaction(META, async (tx) => {
      await tx.putRecord(record("web", { attributes: { result: 1 }, configDigest: "x" }));
      await tx.logChange({ address: "web", action: "create", before: null, after: { r: 1 } });
    });
    await a.createReservation({
      addresses: ["web"],
      actor: "alice",
      reason: "",
      planId: "p",
      ttlMs: 60_000,
    });
    // A's lock does not hold B back, nor do A's records, log or reservations show in B.
    const lock = await a.acquireLock({
      actor: "alice",
      reason: "",
      command: "apply",
      timeoutMs: 0,
    });
    // With no wait allowed (timeoutMs 0), and a write that refuses another's
    // lock at once: either throws if A's lock reached B (no clock needed).
    const lockB = await b.acquireLock({ actor: "bob", reason: "", command: "apply", timeoutMs: 0 });
    await b.transaction(
      META,
      (tx) => tx.logChange({ address: "other", action: "read", before: null, after: {} }),
    );
    assert.deepEqual(await b.listAddresses(), []);
    assert.equal(await b.getRecord("web"), undefined);
    assert.deepEqual((await b.readLog()).map((e) => e.serial), [1]);
    assert.deepEqual(await b.listReservations(), []);
    assert.deepEqual(await b.findReservationConflicts(["web"], { actor: "bob" }), []);
    assert.deepEqual((await b.listLocks()).map((l) => l.actor), ["bob"]);
    assert.deepEqual((await a.listLocks()).map((l) => l.actor), ["alice"]);
    assert.equal((await a.identity()).serial, 1);
    assert.equal((await b.identity()).serial, 1);
    await a.releaseLock(lock);
    await b.releaseLock(lockB);
  } finally {
    await a.close();
    await b.close();
  }
});

test("PostgresStore: stores racing for the lock hold it one at a time: no update is lost", async () => {
  const key = `race-lock/${crypto.randomUUID()}`;
  await (await PostgresStore.open(where(key), { create: true })).close();
  const n = 6;
  const stores = await Promise.all(
    Array.from({ length: n }, () => PostgresStore.open(where(key))),
  );
  let inside = 0;
  try {
    await Promise.all(stores.map(async (s, i) => {
      const lock = await s.acquireLock({
        actor: `racer-${i}`,
        reason: "",
        command: "apply",
        timeoutMs: 30_000,
      });
      inside++;
      assert.equal(inside, 1, "two holders at once");
      const count = Number((await s.getRecord("counter"))?.attributes.n ?? 0);
      await new Promise((r) => setTimeout(r, 30));
      await s.transaction(META, async (tx) => {
        await tx.putRecord(
          record("counter", {
            type: "t",
            provider: "p",
            attributes: { n: count + 1 },
            configDigest: "x",
          }),
        );
        await tx.logChange({ address: "counter", action: "update", before: null, after: {} });
      });
      inside--;
      await s.releaseLock(lock);
    }));
    assert.equal((await stores[0].getRecord("counter"))?.attributes.n, n);
    assert.equal((await stores[0].identity()).serial, n);
  } finally {
    for (const s of stores) await s.close();
  }
});

test("PostgresStore.open() without create refuses a root key it does not hold", async () => {
  await assert.rejects(PostgresStore.open(where("never/made")), (e: unknown) => {
    assert.ok(e instanceof DiagnosticsError);
    assert.equal(e.diagnostics[0].summary, "The root is not initialised");
    assert.match(e.diagnostics[0].detail, /"never\/made".*Run `pravo init`/);
    return true;
  });
});

test("PostgresStore: the lock of a session that ended is stale at once and taken over", async () => {
  const key = `dead/${crypto.randomUUID()}`;
  await (await PostgresStore.open(where(key), { create: true })).close();
  const code = `
    import { postgresLocation } from ${JSON.stringify(import.meta.resolve("../open.ts"))};
    import { PostgresStore } from ${JSON.stringify(import.meta.resolve("./store.ts"))};
    const s = await PostgresStore.open(postgresLocation(Deno.args[0], { root: Deno.args[1], schema: Deno.args[2] }));
    await s.acquireLock({ actor: "doomed", reason: "crash test", command: "apply", timeoutMs: 0, ttlMs: 3_600_000 });
    console.log("locked");
    await new Promise(() => {});
  `;
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      "--config",
      new URL("../../../deno.json", import.meta.url).pathname,
      code,
      PG,
      key,
      SCHEMA,
    ],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("locked")) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += value;
  }
  reader.releaseLock();
  const s = await PostgresStore.open(where(key));
  try {
    await assert.rejects(
      s.acquireLock({ actor: "me", reason: "", command: "apply", timeoutMs: 100 }),
      (e: unknown) => e instanceof DiagnosticsError && e.kind === "locked",
    );
    child.kill("SIGKILL");
    await child.status;
    await child.stdout.cancel().catch(() => {});
    await child.stderr.cancel().catch(() => {});
    // The server notices the closed socket at once; give it a moment.
    let listed = (await s.listLocks())[0];
    for (let i = 0; i < 50 && listed.stale === undefined; i++) {
      await new Promise((r) => setTimeout(r, 100));
      listed = (await s.listLocks())[0];
    }
    assert.equal(listed.actor, "doomed");
    assert.match(listed.stale ?? "", /its session ended/);
    const lock = await s.acquireLock({ actor: "me", reason: "", command: "apply", timeoutMs: 0 });
    assert.equal(lock.tookOver?.actor, "doomed");
  } finally {
    await s.close();
  }
});

test("PostgresStore: a lock whose connection the server ended is stale, and the store works on", async () => {
  const key = `killed/${crypto.randomUUID()}`;
  const s = await PostgresStore.open(where(key), { create: true });
  const other = await PostgresStore.open(where(key));
  const sql = pgAdmin();
  try {
    await s.acquireLock({ actor: "me", reason: "", command: "apply", timeoutMs: 0 });
    await sql`SELECT pg_terminate_backend(pid) FROM pg_locks
              WHERE locktype = 'advisory' AND classid::bigint = ${
      advisoryClass(SCHEMA)
    } AND objsubid = 2
                AND objid::bigint = (SELECT beacon FROM ${sql(SCHEMA)}.locks l
                  JOIN ${sql(SCHEMA)}.roots r ON r.id = l.root_id WHERE r.key = ${key})`;
    let listed = (await other.listLocks())[0];
    for (let i = 0; i < 50 && listed.stale === undefined; i++) {
      await new Promise((r) => setTimeout(r, 100));
      listed = (await other.listLocks())[0];
    }
    assert.match(listed.stale ?? "", /its session ended/);
    const taken = await other.acquireLock({
      actor: "other",
      reason: "",
      command: "apply",
      timeoutMs: 0,
    });
    assert.equal(taken.tookOver?.actor, "me");
    // The first store's writes are refused now: the lock is someone else's.
    await assert.rejects(
      s.transaction(META, (tx) => tx.markRefreshed([])),
      (e: unknown) => e instanceof DiagnosticsError && e.kind === "locked",
    );
  } finally {
    await sql.end();
    await s.close();
    await other.close();
  }
});

test("PostgresStore: processes that open a new database at once migrate it once", async () => {
  const schema = `${SCHEMA}_race`;
  const stores = await Promise.all(
    Array.from(
      { length: 4 },
      (_, i) => PostgresStore.open(where(`race/${i}`, schema), { create: true }),
    ),
  );
  const sql = pgAdmin();
  try {
    for (const s of stores) assert.equal((await s.identity()).schemaVersion, SCHEMA_VERSION);
    const [n] = await sql`SELECT count(*)::int AS n FROM ${sql(schema)}.roots`;
    assert.equal(n.n, 4);
  } finally {
    for (const s of stores) await s.close();
    await sql.unsafe(`DROP SCHEMA "${schema}" CASCADE`);
    await sql.end();
  }
});

test("PostgresStore never shows the password: not in its location, nor in a refused login", async () => {
  const good = where("pw");
  assert.ok(good.password, "PRAVO_TEST_PG has a password");
  const s = await PostgresStore.open(good, { create: true });
  assert.ok(!s.location.path.includes(good.password!), s.location.path);
  await s.close();
  const wrong = "Wr0ng-" + crypto.randomUUID();
  const bad: PostgresLocation = { ...good, password: wrong };
  await assert.rejects(PostgresStore.open(bad), (e: unknown) => {
    assert.ok(e instanceof DiagnosticsError, String(e));
    const text = JSON.stringify(e.diagnostics) + e.message;
    assert.match(e.diagnostics[0].summary, /refused the login/);
    assert.ok(!text.includes(wrong), text);
    assert.ok(!text.includes(good.password!), text);
    return true;
  });
  const nowhere: PostgresLocation = { ...good, hosts: [{ host: "127.0.0.1", port: 1 }] };
  await assert.rejects(PostgresStore.open(nowhere), (e: unknown) => {
    assert.ok(e instanceof DiagnosticsError, String(e));
    assert.match(e.diagnostics[0].summary, /Cannot reach the PostgreSQL state store/);
    assert.ok(!JSON.stringify(e.diagnostics).includes(good.password!));
    return true;
  });
});

test("PostgresStore: a schema of version 1 is migrated, and each root's plain values are sealed when it is first opened, by its own key", async () => {
  const schema = `${SCHEMA}_v1`;
  const secret = "v1-plain-" + crypto.randomUUID();
  const other = "other-root-" + crypto.randomUUID();
  const sql = pgAdmin();
  const hmacKey = "ab".repeat(32);
  try {
    // What pravo before version 3 wrote: the first migration, values in clear.
    await sql.unsafe(`CREATE SCHEMA "${schema}"`);
    await sql.unsafe(`SET search_path = "${schema}"`);
    await sql.unsafe(`CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL)`);
    await sql.unsafe(PG_MIGRATIONS[0].sql);
    await sql`INSERT INTO meta (key, value) VALUES ('schema_version', '1')`;
    const roots = [["v1/a", secret], ["v1/b", other]] as const;
    for (const [key, value] of roots) {
      const [r] = await sql`
        INSERT INTO roots (key, lineage, serial, redaction_key, created_at)
        VALUES (${key}, ${crypto.randomUUID()}, 1, ${hmacKey}, now()) RETURNING id`;
      await sql`
        INSERT INTO records (root_id, address, mode, type, provider, attributes, sensitive_paths,
          dependencies, config_digest, created_at, updated_at, refreshed_at, refresh_age)
        VALUES (${r.id}, 'pw', 'managed', 'random_password', 'hashicorp/random',
          ${JSON.stringify({ length: 40, result: value })}, '[["result"]]', '[]', 'd', now(),
          now(), now(), NULL)`;
    }
    const keyA = testKey("A");
    const a = await PostgresStore.open(where("v1/a", schema), { key: () => keyA });
    try {
      assert.equal((await a.identity()).schemaVersion, SCHEMA_VERSION);
      assert.equal((await a.getRecord("pw"))?.attributes.result, secret);
      // The log's markers go on being comparable: the same key, sealed.
      assert.deepEqual(await loggedSecret(a, secret), {
        result: sensitiveMarker(secret, hmacKey),
      });
    } finally {
      await a.close();
    }
    const rows = JSON.stringify(
      await sql`SELECT r.key, r.redaction_key, r.sealed, x.attributes FROM roots r
                JOIN records x ON x.root_id = r.id ORDER BY r.key`,
    );
    assert.ok(!rows.includes(secret), "root a's secret is sealed");
    // Root b, of another team and key, is left as it was until its own key opens it.
    assert.ok(rows.includes(other), "root b is not sealed with root a's key");
    const [b0] = await sql`SELECT sealed FROM roots WHERE key = 'v1/b'`;
    assert.equal(b0.sealed, false);
    const keyB = testKey("B");
    const b = await PostgresStore.open(where("v1/b", schema), { key: () => keyB });
    assert.equal((await b.getRecord("pw"))?.attributes.result, other);
    await b.close();
    const after = JSON.stringify(await sql`SELECT * FROM records`) +
      JSON.stringify(await sql`SELECT * FROM roots`);
    assert.ok(!after.includes(secret) && !after.includes(other), after);
    assert.ok(!after.includes(hmacKey), "the log's key is sealed too");
  } finally {
    await sql.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await sql.end();
  }
});

if (!SKIP) dropSchemaTest("PostgreSQL tests: drop this run's schema", SCHEMA);
