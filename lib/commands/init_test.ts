import assert from "node:assert/strict";
import { join } from "node:path";
import { PROVIDERS } from "../providers/registry.ts";
import { SqliteStore } from "../state/sqlite/store.ts";
import { refusal } from "./_testing.ts";
import { pravo } from "./state_testing.ts";

async function tempRoot(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "pravo-init-" });
}

const EXPECTED_PROVIDERS = Object.fromEntries(
  [...PROVIDERS].sort((a, b) => a.source.localeCompare(b.source)).map((
    p,
  ) => [p.source, { version: p.version }]),
);

Deno.test("init creates .pravo/ (0700), the state store (0600) and pravo.lock.json", async () => {
  const root = await tempRoot();
  const { code, stdout, stderr } = await pravo(["-C", root, "init"]);
  assert.equal(stderr, "");
  assert.equal(code, 0);
  assert.equal((await Deno.stat(join(root, ".pravo"))).mode! & 0o777, 0o700);
  assert.equal((await Deno.stat(join(root, ".pravo", "state.db"))).mode! & 0o777, 0o600);
  assert.match(await Deno.readTextFile(join(root, ".pravo", ".gitignore")), /^\*$/m);
  const lock = await Deno.readTextFile(join(root, "pravo.lock.json"));
  assert.deepEqual(JSON.parse(lock), { format_version: "1.0", providers: EXPECTED_PROVIDERS });
  assert.ok(lock.includes('"hashicorp/random": {\n      "version": "0.1.0"\n    }'), lock);
  assert.ok(lock.endsWith("}\n"));

  const store = await SqliteStore.open(join(root, ".pravo", "state.db"));
  const id = await store.identity();
  await store.close();
  assert.equal(id.serial, 0);
  const lines = stdout.split("\n");
  assert.equal(
    lines[0],
    `Created the state store .pravo/state.db (SQLite, lineage ${id.lineage}, serial 0).`,
  );
  assert.match(lines[1], /^(Created pravo's key|pravo's key is) .* \(fingerprint [0-9a-f]{16}\)/);
  assert.equal(lines[2], `Wrote pravo.lock.json with ${PROVIDERS.length} providers:`);
  assert.equal(lines[3], "  hashicorp/local   0.1.0");
  assert.equal(lines[lines.length - 2], "The root is ready.");
  await Deno.remove(root, { recursive: true });
});

Deno.test("init twice keeps the lineage and says the root was already initialised", async () => {
  const root = await tempRoot();
  const first = JSON.parse((await pravo(["-C", root, "init", "--json"])).stdout);
  const lockBefore = await Deno.readTextFile(join(root, "pravo.lock.json"));
  const again = await pravo(["-C", root, "init"]);
  assert.equal(again.code, 0);
  assert.match(
    again.stdout,
    new RegExp(
      `^The root was already initialised: kept the state store \\.pravo/state\\.db ` +
        `\\(SQLite, lineage ${first.state.lineage}, serial 0\\)\\.\\n` +
        `pravo's key is .* \\(fingerprint ${first.key.fingerprint}\\)\\.\\n` +
        `pravo\\.lock\\.json is up to date with ${PROVIDERS.length} providers:\\n`,
    ),
  );
  const second = JSON.parse((await pravo(["-C", root, "init", "--json"])).stdout);
  assert.equal(second.state.lineage, first.state.lineage);
  assert.equal(second.state.created, false);
  assert.equal(second.lock_file.status, "unchanged");
  assert.equal(await Deno.readTextFile(join(root, "pravo.lock.json")), lockBefore);
  await Deno.remove(root, { recursive: true });
});

Deno.test("init --json prints one document with the root, the state and the providers", async () => {
  const root = await tempRoot();
  const { code, stdout, stderr } = await pravo(["init", "--json", "-C", root]);
  assert.equal(code, 0);
  assert.equal(stderr, "");
  const doc = JSON.parse(stdout);
  assert.match(doc.state.lineage, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  assert.deepEqual(doc, {
    format_version: "1.0",
    root,
    state: {
      backend: "sqlite",
      path: join(root, ".pravo", "state.db"),
      lineage: doc.state.lineage,
      serial: 0,
      created: true,
    },
    key: doc.key,
    providers: EXPECTED_PROVIDERS,
    installed: [],
    removed: [],
    warnings: [],
    lock_file: { path: join(root, "pravo.lock.json"), status: "created" },
  });
  assert.match(doc.key.fingerprint, /^[0-9a-f]{16}$/);
  assert.equal(typeof doc.key.source, "string");
  // Keys sorted at every level, two-space indent: the shared --json form.
  assert.ok(
    stdout.startsWith('{\n  "format_version": "1.0",\n  "installed": [],\n  "key": {'),
    stdout,
  );
  await Deno.remove(root, { recursive: true });
});

Deno.test("init brings an outdated pravo.lock.json up to date", async () => {
  const root = await tempRoot();
  await Deno.writeTextFile(
    join(root, "pravo.lock.json"),
    JSON.stringify({
      format_version: "1.0",
      providers: { "hashicorp/random": { version: "0.0.1" } },
    }),
  );
  const { code, stdout } = await pravo(["-C", root, "init"]);
  assert.equal(code, 0);
  assert.match(
    stdout,
    new RegExp(`\\nUpdated pravo\\.lock\\.json to ${PROVIDERS.length} providers:\\n`),
  );
  const lock = JSON.parse(await Deno.readTextFile(join(root, "pravo.lock.json")));
  assert.deepEqual(lock.providers, EXPECTED_PROVIDERS);
  assert.deepEqual([...Deno.readDirSync(root)].map((e) => e.name).sort(), [
    ".pravo",
    "pravo.lock.json",
  ], "no temporary file is left behind");
  await Deno.remove(root, { recursive: true });
});

Deno.test("init with --state sqlite:PATH puts the state there, relative to the root", async () => {
  const root = await tempRoot();
  const { code, stdout } = await pravo(["-C", root, "init", "--json", "--state", "sqlite:db/s.db"]);
  assert.equal(code, 0);
  assert.equal(JSON.parse(stdout).state.path, join(root, "db", "s.db"));
  assert.equal((await Deno.stat(join(root, "db", "s.db"))).mode! & 0o777, 0o600);
  await assert.rejects(Deno.stat(join(root, ".pravo")), Deno.errors.NotFound);
  await Deno.remove(root, { recursive: true });
});

Deno.test("init refuses a PostgreSQL URL without a root key, without showing the password", async () => {
  const root = await tempRoot();
  const env = { PRAVO_STATE: "postgres://pravo:hunter2@db.example:5432/state" };
  const stderr = refusal(await pravo(["-C", root, "init"], { env }), 64);
  assert.match(stderr, /^Error: The PostgreSQL state location names no root key\n/);
  assert.ok(!stderr.includes("hunter2"));
  assert.deepEqual([...Deno.readDirSync(root)], [], "nothing was created");
  await Deno.remove(root, { recursive: true });
});

Deno.test("init refuses a root that does not exist or is a file", async () => {
  const root = await tempRoot();
  const missing = await pravo(["-C", join(root, "nope"), "init"]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /The root directory does not exist/);
  assert.match(missing.stderr, /-C DIR\.\n$/);
  await Deno.writeTextFile(join(root, "file"), "");
  const file = await pravo(["-C", join(root, "file"), "init"]);
  assert.equal(file.code, 1);
  assert.match(file.stderr, /The root is not a directory/);
  await Deno.remove(root, { recursive: true });
});

Deno.test("init makes pravo's key when it is missing, outside the root, and says where it is and its fingerprint", async () => {
  const { pravo: run } = await import("../../tests/_pravo.ts");
  const root = await tempRoot();
  const home = await Deno.makeTempDir({ prefix: "pravo-init-home-" });
  const env = { PRAVO_KEY: "", PRAVO_KEY_FILE: join(home, "keys", "key") };
  const first = await run(root, ["init"], { env });
  assert.equal(first.code, 0, first.stderr);
  const made =
    /^Created pravo's key (.*) \(fingerprint ([0-9a-f]{16})\): it seals plan files; keep it outside every root, and back it up\.$/m
      .exec(first.stdout);
  assert.ok(made, first.stdout);
  assert.equal(made[1], join(home, "keys", "key"));
  assert.equal((await Deno.stat(join(home, "keys", "key"))).mode! & 0o777, 0o600);
  // Again: the same key, not made again; --json says so.
  const again = JSON.parse((await run(root, ["init", "--json"], { env })).stdout);
  assert.deepEqual(again.key, {
    fingerprint: made[2],
    source: join(home, "keys", "key"),
    created: false,
  });
  // A key file inside the root is refused, and nothing is made.
  const inside = await run(root, ["init"], {
    env: { PRAVO_KEY: "", PRAVO_KEY_FILE: join(root, "k") },
  });
  assert.equal(inside.code, 1);
  assert.match(inside.stderr, /is inside the root/);
  await assert.rejects(Deno.stat(join(root, "k")), Deno.errors.NotFound);
  await Deno.remove(root, { recursive: true });
  await Deno.remove(home, { recursive: true });
});
