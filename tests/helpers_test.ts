/**
 * The tests' own helpers (tests/_pravo.ts, tests/_pg.ts, tests/_processes.ts,
 * tests/mcp/_client.ts) do what the tests rely on: a process's exit code,
 * output and input; a folder removed; a lock held and let go; the state
 * flags of a backend; a wait that gives up.
 *
 * @module
 */

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { openStore } from "../lib/state/open.ts";
import {
  approverKey,
  byAddress,
  makeRoot,
  onTerminal,
  pravo,
  removing,
  run,
  SEED,
  SEED_VALID,
  seedRoot,
  whileLocked,
} from "./_pravo.ts";
import { BACKENDS, PG, pgRoot, stateFlags } from "./_pg.ts";
import { processesWith, waitFor } from "./_processes.ts";
import { exitCode } from "./mcp/_client.ts";

Deno.test("run() gives a process its stdin, and returns its exit code, stdout and stderr", async () => {
  const r = await run("sh", ["-c", 'cat; echo "in $PWD" >&2; exit 3'], { stdin: "hi", cwd: "/" });
  assert.deepEqual(r, { code: 3, stdout: "hi", stderr: "in /\n" });
  // Without stdin, the process reads an empty input at once.
  assert.deepEqual(await run("cat", []), { code: 0, stdout: "", stderr: "" });
  const env = await run("sh", ["-c", "echo $PRAVO_X"], { env: { PRAVO_X: "y" } });
  assert.equal(env.stdout, "y\n");
});

Deno.test("pravo() runs the program in the root as the actor test; validate of the seed says SEED_VALID", async () => {
  const root = await makeRoot({ "main.cue": SEED });
  await using _root = removing(root);
  const r = await pravo(root, ["validate", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), SEED_VALID);
  assert.equal(JSON.stringify(JSON.parse(r.stdout)), JSON.stringify(SEED_VALID), "in its order");
});

Deno.test({
  name: "onTerminal() runs pravo on a terminal, answers it, and ends with its exit code",
  ignore: !existsSync("/usr/bin/script"),
  async fn() {
    const root = await seedRoot();
    await using _root = removing(root);
    await using op = await approverKey();
    assert.equal((await pravo(root, ["plan", "--out", "x.plan"])).code, 2);
    const shown = await onTerminal(root, ["approve", "x.plan", "--key", op.key], {
      answer: "no",
    });
    assert.match(shown, /Do you approve exactly this plan\?/);
    assert.ok(!shown.includes("\r"), "no carriage returns");
    assert.match(shown, /\nexit=1\n$/);
  },
});

Deno.test("removing() and an approver key remove their folder when the block ends, thrown or not", async () => {
  const dir = await Deno.makeTempDir();
  let key = "";
  await assert.rejects(async () => {
    await using _dir = removing(dir);
    await using op = await approverKey();
    key = op.key;
    assert.ok(existsSync(dir) && existsSync(key));
    throw new Error("the test failed");
  }, /the test failed/);
  assert.equal(existsSync(dir), false);
  assert.equal(existsSync(key), false);
});

Deno.test("whileLocked() holds the state lock while its function runs, and lets it go after, thrown or not", async () => {
  const root = await seedRoot();
  await using _root = removing(root);
  const store = await openStore({ root, state: undefined });
  try {
    await whileLocked(store, async () => {
      const r = await pravo(root, ["apply", "-auto-approve"]);
      assert.equal(r.code, 4, r.stderr);
      assert.match(r.stderr, /"bob"/);
    });
    await assert.rejects(whileLocked(store, () => Promise.reject(new Error("inside"))), /inside/);
  } finally {
    await store.close();
  }
  const r = await pravo(root, ["apply", "-auto-approve"]);
  assert.equal(r.code, 0, r.stderr);
});

Deno.test("byAddress() maps each node's address to one of its fields", () => {
  const nodes = [{ address: "a", action: "create" }, { address: "b.c", action: "delete" }];
  assert.deepEqual(byAddress(nodes, "action"), { a: "create", "b.c": "delete" });
  assert.deepEqual(byAddress(nodes, "origin"), { a: undefined, "b.c": undefined });
});

Deno.test("stateFlags() names no state for SQLite and a fresh root key on PostgreSQL", () => {
  assert.deepEqual(stateFlags("sqlite", "x"), []);
  const [flag, url] = stateFlags("postgres", "x");
  assert.equal(flag, "--state");
  assert.match(url, /[?&]root=x\/[0-9a-f-]{36}$/);
  assert.notEqual(stateFlags("postgres", "x")[1], url, "a new key each time");
  assert.ok(url.startsWith(PG));
  assert.equal(pgRoot("k"), `${PG}${PG.includes("?") ? "&" : "?"}root=k`);
  assert.deepEqual(BACKENDS, PG ? ["sqlite", "postgres"] : ["sqlite"]);
});

Deno.test("waitFor() returns once the check holds, and gives up after its time naming what it waited for", async () => {
  let n = 0;
  await waitFor(() => ++n >= 3, 5_000, "three checks");
  assert.equal(n, 3);
  await assert.rejects(waitFor(() => false, 50, "nothing"), /waited 50 ms for nothing/);
});

Deno.test("processesWith() finds a running process by a word of its command line", async () => {
  const word = `pravo-helpers-${crypto.randomUUID()}`;
  const child = new Deno.Command("sh", { args: ["-c", "sleep 30", word] }).spawn();
  try {
    await waitFor(() => processesWith(word).length === 1, 5_000, "the process");
    const [p] = processesWith(word);
    assert.equal(p.pid, child.pid);
    assert.deepEqual(p.argv.slice(-3), ["-c", "sleep 30", word]);
  } finally {
    child.kill();
    await child.status;
  }
  assert.deepEqual(processesWith(word), []);
});

Deno.test("exitCode() is the exit code of the process behind a tool result, none when no process ran", () => {
  assert.equal(exitCode({ content: [], structuredContent: { exit_code: 2 } }), 2);
  assert.equal(exitCode({ content: [], isError: true }), undefined);
});
