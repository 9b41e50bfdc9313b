import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { DiagnosticsError } from "../../diag/diag.ts";
import { SqliteStore } from "./store.ts";
import { MIGRATIONS } from "./schema.ts";
import { sensitiveMarker } from "../../secrets/redact.ts";
import { SCHEMA_VERSION } from "../store.ts";
import { loggedSecret, storeSuite, testKey } from "../store_testing.ts";
import { sqliteHarness } from "../harness_testing.ts";
import { addressOf, attrsFor } from "./testdata/writer.ts";

const WRITER = new URL("./testdata/writer.ts", import.meta.url).pathname;

storeSuite("SqliteStore", sqliteHarness);

async function tempDb(): Promise<{ dir: string; path: string }> {
  const dir = await Deno.makeTempDir({ prefix: "pravo-state-" });
  return { dir, path: join(dir, ".pravo", "state.db") };
}

const META = { actor: "t", reason: "", command: "apply" };

Deno.test("SqliteStore.open() makes the folder 0700 and the files 0600", async () => {
  const { dir, path } = await tempDb();
  const s = await SqliteStore.open(path, { create: true });
  await s.transaction(META, (tx) => tx.markRefreshed([]));
  assert.equal((await Deno.stat(join(dir, ".pravo"))).mode! & 0o777, 0o700);
  assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
  assert.equal((await Deno.stat(path + "-wal")).mode! & 0o777, 0o600);
  await s.close();
  await Deno.remove(dir, { recursive: true });
});

Deno.test("SqliteStore.open() without create refuses a missing file", async () => {
  const { dir, path } = await tempDb();
  await assert.rejects(SqliteStore.open(path), (e: unknown) => {
    assert.ok(e instanceof DiagnosticsError);
    assert.match(e.diagnostics[0].detail, /Run `pravo init`/);
    return true;
  });
  await assert.rejects(Deno.stat(join(dir, ".pravo")), Deno.errors.NotFound);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("SqliteStore.open() migrates an empty file and refuses one that is not a database", async () => {
  const { dir, path } = await tempDb();
  await Deno.mkdir(join(dir, ".pravo"));
  await Deno.writeFile(path, new Uint8Array()); // as left by a crash before the first commit
  await assert.rejects(SqliteStore.open(path), /not initialised/);
  const s = await SqliteStore.open(path, { create: true });
  assert.equal(s.created, true);
  assert.equal((await s.identity()).schemaVersion, SCHEMA_VERSION);
  await s.close();

  const junk = join(dir, "junk.db");
  await Deno.writeTextFile(junk, "this is not SQLite, ".repeat(100));
  await assert.rejects(SqliteStore.open(junk, { create: true }), (e: unknown) => {
    assert.ok(e instanceof DiagnosticsError);
    assert.match(e.diagnostics[0].summary, /The state store is damaged/);
    assert.match(e.diagnostics[0].detail, /not a database/);
    assert.match(e.diagnostics[0].detail, /Restore it from a backup/);
    return true;
  });
  await Deno.remove(dir, { recursive: true });
});

function writer(path: string, ...args: string[]): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-write",
      "--allow-sys=hostname",
      // pravo's key, which seals the state's sensitive values and log key.
      "--allow-env=PRAVO_KEY,PRAVO_KEY_FILE,XDG_CONFIG_HOME,HOME",
      // To see that a dead holder is gone, the writer sends signal 0; the
      // test itself (run with -A) reads /proc instead.
      "--allow-run",
      WRITER,
      path,
      ...args,
    ],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** Reads lines from a child's stdout until `stop` says so; returns them. */
async function readLines(
  child: Deno.ChildProcess,
  stop: (line: string, count: number) => boolean,
): Promise<string[]> {
  const lines: string[] = [];
  let buf = "";
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return lines;
      buf += value;
      let nl;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        lines.push(line);
        if (stop(line, lines.length)) return lines;
      }
    }
  } finally {
    reader.releaseLock();
  }
}

Deno.test("SqliteStore takes over the lock of a process that was killed", async () => {
  const { dir, path } = await tempDb();
  const child = writer(path, "hold");
  await readLines(child, (l) => l === "locked");
  const s = await SqliteStore.open(path);
  await assert.rejects(
    s.acquireLock({ actor: "me", reason: "", command: "apply", timeoutMs: 100 }),
    (e: unknown) => e instanceof DiagnosticsError && e.message.includes(`"writer-${child.pid}"`),
  );
  child.kill("SIGKILL");
  await child.status;
  await child.stdout.cancel().catch(() => {});
  await child.stderr.cancel();
  const [listed] = await s.listLocks();
  assert.equal(listed.stale, `its process ${child.pid} on host "${Deno.hostname()}" is gone`);
  const lock = await s.acquireLock({ actor: "me", reason: "", command: "apply", timeoutMs: 0 });
  assert.equal(lock.tookOver?.actor, `writer-${child.pid}`);
  await s.close();
  await Deno.remove(dir, { recursive: true });
});

/** Checks that records and log agree, and that each record is whole. */
async function checkConsistent(path: string): Promise<number> {
  const s = await SqliteStore.open(path);
  const records = await s.listRecords();
  const log = await s.readLog();
  const id = await s.identity();
  for (const r of records) {
    const i = Number(r.address.slice(1));
    assert.equal(r.address, addressOf(i));
    assert.deepEqual(r.attributes, attrsFor(i), `record ${r.address} is not whole`);
    assert.equal(r.configDigest, `sha256:${i}`);
  }
  const logged = log.flatMap((e) => e.changes.map((c) => c.address)).sort();
  assert.deepEqual(logged, records.map((r) => r.address), "the log and the records disagree");
  for (const e of log) {
    assert.equal(e.changes.length, 1);
    assert.deepEqual(e.changes[0].after, attrsFor(Number(e.changes[0].address.slice(1))));
  }
  assert.equal(id.serial, log.length, "one serial per log entry");
  assert.deepEqual(log.map((e) => e.serial), log.map((_, k) => log.length - k));
  await s.close();
  return records.length;
}

Deno.test("SqliteStore: a writer killed at any instant leaves whole records that agree with the log", async () => {
  const { dir, path } = await tempDb();
  const total = 200;
  let previous = 0;
  for (const killAfter of [1, 37, 90, 151]) {
    const child = writer(path, "write", String(total));
    // Kill a little after the killAfter-th commit: at a random instant inside
    // the next transactions.
    const lines = await readLines(
      child,
      (l, n) => l.startsWith("committed") && n >= killAfter - previous,
    );
    await new Promise((r) => setTimeout(r, Math.random() * 15));
    child.kill("SIGKILL");
    const status = await child.status;
    await child.stdout.cancel().catch(() => {});
    const stderr = new TextDecoder().decode(
      (await new Response(child.stderr).arrayBuffer()) as ArrayBuffer,
    );
    assert.equal(status.signal, "SIGKILL", `the writer ended before it was killed: ${stderr}`);
    const acknowledged = lines.filter((l) => l.startsWith("committed")).map((l) =>
      Number(l.split(" ")[1])
    );
    const count = await checkConsistent(path);
    // Every commit the writer reported is there (durability), in order.
    assert.ok(count >= previous + acknowledged.length, `${count} < ${previous} + ${acknowledged}`);
    assert.ok(count < total, "the kill came too late to test anything");
    previous = count;
  }
  // A new run takes over the dead writer's lock and finishes the work.
  const child = writer(path, "write", String(total));
  const lines = await readLines(child, () => false);
  const status = await child.status;
  await child.stderr.cancel();
  assert.equal(status.code, 0);
  assert.match(lines[0], /^took over writer-\d+: its process \d+ on host ".*" is gone$/);
  assert.equal(lines[lines.length - 1], "done");
  assert.equal(await checkConsistent(path), total);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("SqliteStore.open() migrates a state of version 1: plain values and the log's key sealed, no page left in the clear", async () => {
  const { dir, path } = await tempDb();
  const secret = "v1-plain-" + crypto.randomUUID();
  const hmacKey = "cd".repeat(32);
  // What pravo before version 3 wrote: the first migration, values in clear.
  Deno.mkdirSync(join(dir, ".pravo"));
  const db = new DatabaseSync(path);
  db.exec("PRAGMA journal_mode = WAL");
  db.exec(MIGRATIONS[0].sql);
  const meta = db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)");
  for (
    const [k, v] of [["schema_version", "1"], ["lineage", crypto.randomUUID()], ["serial", "1"], [
      "redaction_key",
      hmacKey,
    ], ["created_at", new Date().toISOString()]]
  ) meta.run(k, v);
  db.prepare(
    `INSERT INTO records (address, mode, type, provider, attributes, sensitive_paths, dependencies,
       config_digest, created_at, updated_at, refreshed_at, refresh_age)
     VALUES ('pw', 'managed', 'random_password', 'hashicorp/random', ?, '[["result"]]', '[]', 'd',
       'x', 'x', 'x', NULL)`,
  ).run(JSON.stringify({ length: 40, result: secret, bcrypt_hash: `hash-${secret}` }));
  db.close();

  const key = testKey("A");
  const s = await SqliteStore.open(path, { key: () => key });
  assert.equal((await s.identity()).schemaVersion, SCHEMA_VERSION);
  const rec = await s.getRecord("pw");
  assert.equal(rec?.attributes.result, secret);
  assert.equal(rec?.attributes.bcrypt_hash, `hash-${secret}`, "sealed by the schema's path too");
  assert.deepEqual(await loggedSecret(s, secret), { result: sensitiveMarker(secret, hmacKey) });
  await s.close();
  let bytes = "";
  for (const suffix of ["", "-wal", "-shm"]) {
    try {
      bytes += new TextDecoder("latin1").decode(Deno.readFileSync(path + suffix));
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
  }
  assert.ok(!bytes.includes(secret), "a page keeps the secret in the clear");
  assert.ok(!bytes.includes(hmacKey), "the log's key is in the clear");
  // Opened again: nothing more to do, and the values read back.
  const again = await SqliteStore.open(path, { key: () => key });
  assert.equal((await again.getRecord("pw"))?.attributes.result, secret);
  await again.close();
  await Deno.remove(dir, { recursive: true });
});
