/**
 * The real `pravo` on a PostgreSQL state: four processes applying to one
 * root at once, two roots in one database at once, the server stopped in the
 * middle of a 200-node apply, and the password kept out of every output,
 * plan file and the log.
 *
 * Needs `PRAVO_TEST_PG` (a server; `.ci/run` starts one); the server-stop
 * test needs a server of its own, which no other test uses while it is
 * stopped: `PRAVO_TEST_PG_STOPPABLE` (its URL) and `PRAVO_TEST_PG_CTL` (a
 * pg_ctl wrapper for it: `$PRAVO_TEST_PG_CTL stop -m immediate`,
 * `$PRAVO_TEST_PG_CTL start`). `.ci/run` starts both servers.
 */

import assert from "node:assert/strict";
import { countFiles, fileRoot as fileSpec, MAIN, makeRoot, pravo } from "./_pravo.ts";
import { openStore } from "../lib/state/open.ts";
import { PostgresStore } from "../lib/state/postgres/store.ts";
import { postgresLocation } from "../lib/state/open.ts";

const PG = Deno.env.get("PRAVO_TEST_PG") ?? "";
const STOPPABLE = Deno.env.get("PRAVO_TEST_PG_STOPPABLE") ?? "";
const PG_CTL = Deno.env.get("PRAVO_TEST_PG_CTL") ?? "";
if (PG === "") {
  console.log("tests/pg_apply_test.ts: skipped: PRAVO_TEST_PG names no PostgreSQL server");
} else if (STOPPABLE === "" || PG_CTL === "") {
  console.log(
    "tests/pg_apply_test.ts: the server-stop test skipped: PRAVO_TEST_PG_STOPPABLE and " +
      "PRAVO_TEST_PG_CTL name no server of its own to stop",
  );
}
const PASSWORD = PG ? decodeURIComponent(new URL(PG).password) : "";

/** A state URL for a new root key in the test database (of `server`: the shared one by default). */
function stateUrl(what: string, server = PG): string {
  return `${server}${server.includes("?") ? "&" : "?"}root=test/${what}/${crypto.randomUUID()}`;
}

function randomSpec(n: number): string {
  const lines = [
    "package demo",
    "",
    'import rnd "pravo.dev/providers/hashicorp/random"',
    "",
    "$random: rnd.#Provider",
    "",
  ];
  for (let i = 0; i < n; i++) {
    lines.push(`n${i}: $random.#Resource.random_integer & {min: 1, max: 1000, seed: "n${i}"}`);
  }
  return lines.join("\n") + "\n";
}

/** Neither server's password (the shared one's, and the stoppable one's when set) is in `text`. */
function noPassword(text: string, where: string): void {
  assert.ok(PASSWORD !== "", "PRAVO_TEST_PG has a password to look for");
  const passwords = [PASSWORD];
  if (STOPPABLE) passwords.push(decodeURIComponent(new URL(STOPPABLE).password));
  for (const p of passwords) assert.ok(!text.includes(p), `a password appears in ${where}`);
}

const pgTest = (name: string, fn: () => Promise<void>, ignore = PG === "") =>
  Deno.test({ name, ignore, sanitizeResources: false, sanitizeOps: false, fn });

pgTest(
  "four processes applying to one root at once on PostgreSQL: they serialise, no update is lost, the log has each once",
  async () => {
    const root = await makeRoot({ "main.cue": randomSpec(4) });
    const env = { PRAVO_STATE: stateUrl("four") };
    try {
      const init = await pravo(root, ["init"], { env });
      assert.equal(init.code, 0, init.stderr);
      noPassword(init.stdout + init.stderr, "init's output");
      // Each process applies its own node; the four plans all see every node
      // missing, so only a serialised apply keeps every update.
      // apply waits 10 s for the lock, which it holds from planning on; on a
      // slow machine the fourth in line may give up (exit 4, nothing done)
      // and, as a CI job would, runs again.
      const runs = await Promise.all(
        [0, 1, 2, 3].map(async (i) => {
          for (let attempt = 0;; attempt++) {
            const r = await pravo(root, ["apply", "-auto-approve", "--only", `n${i}`, "--json"], {
              env: { ...env, PRAVO_ACTOR: `proc-${i}` },
            });
            if (r.code !== 4 || attempt === 3) return r;
            assert.match(r.stderr, /The state is locked by \\"proc-\d\\"/);
          }
        }),
      );
      for (const [i, r] of runs.entries()) {
        assert.equal(r.code, 0, `process ${i}: ${r.stderr}`);
        noPassword(r.stdout + r.stderr, `process ${i}'s output`);
      }
      const serials = runs.map((r) => JSON.parse(r.stdout).serial).sort();
      assert.deepEqual(serials, [1, 2, 3, 4], "each apply saw the ones before it");
      const store = await openStore({ root, state: env.PRAVO_STATE });
      try {
        assert.deepEqual(await store.listAddresses(), ["n0", "n1", "n2", "n3"]);
        const log = await store.readLog();
        assert.equal(log.length, 4);
        assert.equal((await store.identity()).serial, 4);
        const creates = log.flatMap((e) => e.changes.map((c) => `${c.action} ${c.address}`)).sort();
        assert.deepEqual(creates, ["create n0", "create n1", "create n2", "create n3"]);
        for (const e of log) {
          assert.equal(e.actor, `proc-${e.changes[0].address.slice(1)}`, "who did it");
        }
        assert.deepEqual(await store.listLocks(), [], "every lock was released");
        noPassword(JSON.stringify(log), "the state log");
      } finally {
        await store.close();
      }
      // Nothing left to do, and the password is in no plan file nor log view.
      const plan = await pravo(root, ["plan", "--out", "p.plan"], { env });
      assert.equal(plan.code, 0, plan.stderr);
      noPassword(await Deno.readTextFile(`${root}/p.plan`), "the plan file");
      const log = await pravo(root, ["state", "log", "--json"], { env });
      noPassword(log.stdout + log.stderr, "state log's output");
      const locks = await pravo(root, ["state", "locks", "--json"], { env });
      noPassword(locks.stdout + locks.stderr, "state locks' output");
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
);

pgTest(
  "two roots in one PostgreSQL database, applied at once: neither waits for the other",
  async () => {
    const a = await makeRoot({ "main.cue": randomSpec(30) });
    const b = await makeRoot({ "main.cue": randomSpec(30) });
    const urlA = stateUrl("two-a");
    const urlB = stateUrl("two-b");
    try {
      assert.equal((await pravo(a, ["--state", urlA, "init"])).code, 0);
      assert.equal((await pravo(b, ["--state", urlB, "init"])).code, 0);
      // While A's lock is held (for an hour), B applies at once; and the other way round.
      for (const [held, heldRoot, other, otherUrl] of [[urlA, a, b, urlB], [urlB, b, a, urlA]]) {
        const holder = await openStore({ root: heldRoot, state: held });
        const lock = await holder.acquireLock({
          actor: "someone-else",
          reason: "a long change",
          command: "apply",
          timeoutMs: 0,
          ttlMs: 3_600_000,
        });
        try {
          // Held back by that lock, it would wait 10 s and exit 4 (no clock needed).
          const r = await pravo(other, ["--state", otherUrl, "apply", "-auto-approve"]);
          assert.equal(r.code, 0, r.stderr);
          assert.ok(!/lock|wait/i.test(r.stderr), r.stderr);
          const blocked = await pravo(heldRoot, ["--state", held, "state", "locks", "--json"]);
          assert.match(blocked.stdout, /someone-else/);
        } finally {
          await holder.releaseLock(lock);
          await holder.close();
        }
      }
      // Both at once, from scratch on new keys: both finish, each with its own records.
      const urlC = stateUrl("two-c");
      const urlD = stateUrl("two-d");
      await pravo(a, ["--state", urlC, "init"]);
      await pravo(b, ["--state", urlD, "init"]);
      const [c, d] = await Promise.all([
        pravo(a, ["--state", urlC, "apply", "-auto-approve", "--json"]),
        pravo(b, ["--state", urlD, "apply", "-auto-approve", "--json"]),
      ]);
      assert.equal(c.code, 0, c.stderr);
      assert.equal(d.code, 0, d.stderr);
      for (const url of [urlA, urlB, urlC, urlD]) {
        const s = await openStore({ root: a, state: url });
        try {
          assert.equal((await s.listAddresses()).length, 30);
          assert.equal((await s.readLog()).length, 30, "only its own root's log");
        } finally {
          await s.close();
        }
      }
    } finally {
      await Deno.remove(a, { recursive: true });
      await Deno.remove(b, { recursive: true });
    }
  },
);

/** Every record matches its file, the log agrees with the records, one serial per entry. */
async function checkConsistent(root: string, url: string): Promise<number> {
  const store = await PostgresStore.open(postgresLocation(url));
  try {
    const recs = await store.listRecords();
    for (const r of recs) {
      const text = await Deno.readTextFile(`${root}/${r.attributes.filename}`);
      assert.equal(text, r.attributes.content, `${r.address} is recorded with its real value`);
    }
    const log = await store.readLog();
    const logged = new Set<string>();
    for (const e of [...log].reverse()) {
      for (const c of e.changes) {
        if (c.action === "delete") logged.delete(c.address);
        else logged.add(c.address);
      }
    }
    assert.deepEqual([...logged].sort(), recs.map((r) => r.address).sort(), "log and records");
    assert.equal((await store.identity()).serial, log.length);
    return recs.length;
  } finally {
    await store.close();
  }
}

async function pgCtl(...args: string[]): Promise<void> {
  const out = await new Deno.Command(PG_CTL, { args, stdout: "piped", stderr: "piped" }).output();
  assert.equal(out.code, 0, `pg_ctl ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
}

pgTest(
  "the PostgreSQL server stopped in the middle of a 200-node apply: the state stays consistent and a new plan finishes the work",
  async () => {
    const N = 200;
    const root = await makeRoot({ "main.cue": fileSpec(N) });
    // The server this test stops is its own: the other test files use PG meanwhile.
    const url = stateUrl("crash", STOPPABLE);
    const env = { PRAVO_STATE: url };
    let stopped = false;
    try {
      assert.equal((await pravo(root, ["init"], { env })).code, 0);
      const child = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--quiet", MAIN, "--no-color", "apply", "-auto-approve"],
        cwd: root,
        env: { ...env, PRAVO_ACTOR: "test" },
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const output = child.output();
      const deadline = Date.now() + 120_000;
      while (Date.now() < deadline && (await countFiles(`${root}/out`)) < 60) {
        await new Promise((r) => setTimeout(r, 5));
      }
      await pgCtl("stop", "-m", "immediate");
      stopped = true;
      const out = await output;
      const stderr = new TextDecoder().decode(out.stderr);
      const stdout = new TextDecoder().decode(out.stdout);
      assert.equal(out.code, 1, `the apply did not fail: ${stdout}${stderr}`);
      assert.match(stderr, /Lost the connection to the PostgreSQL state store|Cannot reach/);
      assert.match(stderr, /run `pravo plan`|try again|run the command again/);
      noPassword(stdout + stderr, "the failed apply's output");
      await pgCtl("start");
      stopped = false;

      const count = await checkConsistent(root, url);
      assert.ok(count < N, `the stop came before the end (${count} recorded)`);
      const plan = await pravo(root, ["plan"], { env });
      assert.equal(plan.code, 2, plan.stderr);
      const done = await pravo(root, ["apply", "-auto-approve"], { env });
      assert.equal(done.code, 0, done.stderr);
      assert.equal(await checkConsistent(root, url), N);
      assert.equal((await pravo(root, ["plan"], { env })).code, 0);
    } finally {
      if (stopped) await pgCtl("start");
      await Deno.remove(root, { recursive: true });
    }
  },
  PG === "" || STOPPABLE === "" || PG_CTL === "",
);

pgTest(
  "scripts/pravo runs on a PostgreSQL state chosen by pravo.jsonc, with the password in $PGPASSWORD",
  async () => {
    const u = new URL(PG);
    const key = `test/jsonc/${crypto.randomUUID()}`;
    const root = await makeRoot({
      "main.cue": randomSpec(2),
      "pravo.jsonc": `{
  // The team's shared state: no password here.
  "state": {
    "url": "postgres://${u.username}@${u.host}${u.pathname}",
    "root": "${key}",
  },
}
`,
    });
    const script = new URL("../scripts/pravo", import.meta.url).pathname;
    const run = (args: string[]) =>
      new Deno.Command(script, {
        args: ["--no-color", ...args],
        cwd: root,
        // No HOME: pravo's key comes from $PRAVO_KEY.
        env: {
          PGPASSWORD: PASSWORD,
          PRAVO_ACTOR: "jsonc",
          PRAVO_KEY: btoa("pg_apply_test's key of 32 bytes!"),
          PATH: Deno.env.get("PATH") ?? "",
        },
        clearEnv: true,
        stdout: "piped",
        stderr: "piped",
      }).output();
    try {
      for (const args of [["init"], ["apply", "-auto-approve"], ["state", "log"]]) {
        const r = await run(args);
        const text = new TextDecoder().decode(r.stdout) + new TextDecoder().decode(r.stderr);
        assert.equal(r.code, 0, `${args.join(" ")}: ${text}`);
        noPassword(text, args.join(" "));
      }
      const s = await openStore({ root, state: `${PG}?root=${encodeURIComponent(key)}` });
      try {
        assert.deepEqual(await s.listAddresses(), ["n0", "n1"]);
      } finally {
        await s.close();
      }
      await Deno.writeTextFile(`${root}/pravo.jsonc`, `{"state": {"url": "${PG}", "root": "x"}}`);
      const refused = await run(["plan"]);
      const text = new TextDecoder().decode(refused.stderr);
      assert.equal(refused.code, 1);
      assert.match(text, /holds a password/);
      noPassword(text, "the refusal of a password in pravo.jsonc");
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
);
