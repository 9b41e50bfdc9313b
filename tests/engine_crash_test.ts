/**
 * Crash safety and concurrency of apply: a 200-node apply killed with
 * SIGKILL at several points, and two applies started at once on one root.
 */

import assert from "node:assert/strict";
import { countFiles, fileRoot as files, MAIN, makeRoot, pravo } from "./_pravo.ts";
import { openStore } from "../lib/state/open.ts";

const N = 200;

/** Every record matches the real world, and the log agrees with the records. */
async function checkConsistent(root: string): Promise<number> {
  const store = await openStore({ root, state: undefined });
  try {
    const recs = await store.listRecords();
    for (const r of recs) {
      const text = await Deno.readTextFile(`${root}/${r.attributes.filename}`);
      assert.equal(
        text,
        r.attributes.content,
        `${r.address} is recorded with its real-world value`,
      );
    }
    const log = await store.readLog();
    const logged = new Set<string>();
    for (const e of [...log].reverse()) {
      for (const c of e.changes) {
        if (c.action === "delete") logged.delete(c.address);
        else if (c.action !== "failed") logged.add(c.address);
      }
    }
    assert.deepEqual(
      [...logged].sort(),
      recs.map((r) => r.address).sort(),
      "the log agrees with the records",
    );
    assert.equal((await store.identity()).serial, log.length);
    return recs.length;
  } finally {
    await store.close();
  }
}

Deno.test({
  name: "a 200-node apply killed with SIGKILL leaves a consistent state that a new apply finishes",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const root = await makeRoot({ "main.cue": files(N) });
    assert.equal((await pravo(root, ["init"])).code, 0);
    let lastCount = 0;
    for (const killAt of [10, 60, 140]) {
      assert.equal((await pravo(root, ["plan", "--out", "p.plan"])).code, 2);
      const child = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--quiet", MAIN, "--no-color", "apply", "--parallelism", "2", "p.plan"],
        cwd: root,
        stdout: "null",
        stderr: "null",
      }).spawn();
      const deadline = Date.now() + 60_000;
      let killed = false;
      while (Date.now() < deadline) {
        if ((await countFiles(`${root}/out`)) >= killAt) {
          child.kill("SIGKILL");
          killed = true;
          break;
        }
        await new Promise((r) => setTimeout(r, 5));
      }
      const status = await child.status;
      assert.ok(killed, "the apply was still running when it was killed");
      assert.equal(status.signal, "SIGKILL");
      const count = await checkConsistent(root);
      assert.ok(count >= lastCount, "nothing committed is lost");
      assert.ok(count < N, `the kill came before the end (${count} recorded)`);
      lastCount = count;
    }
    // A new plan finishes the work (the dead apply's lock is taken over).
    const done = await pravo(root, ["apply", "-auto-approve"]);
    assert.equal(done.code, 0, done.stderr);
    assert.equal(await checkConsistent(root), N);
    assert.equal((await pravo(root, ["plan"])).code, 0);
  },
});

Deno.test("two applies started at once on one root: one waits or is refused, and the state and log agree", async () => {
  const root = await makeRoot({ "main.cue": files(20) });
  assert.equal((await pravo(root, ["init"])).code, 0);
  assert.equal((await pravo(root, ["plan", "--out", "a.plan"])).code, 2);
  assert.equal((await pravo(root, ["plan", "--out", "b.plan"])).code, 2);
  const [a, b] = await Promise.all([
    pravo(root, ["apply", "a.plan"]),
    pravo(root, ["apply", "b.plan"]),
  ]);
  const codes = [a.code, b.code].sort();
  // One applies; the other finds the lock held (4) or, having waited, a plan
  // made stale by the first (6).
  assert.equal(codes[0], 0, a.stderr + b.stderr);
  assert.ok(
    codes[1] === 4 || codes[1] === 6,
    `the second exited ${codes[1]}: ${a.stderr}${b.stderr}`,
  );
  const loser = a.code === 0 ? b : a;
  assert.match(loser.stderr, /stale|locked/);
  assert.equal(await checkConsistent(root), 20);

  // Two plain applies: the second waits for the lock held from its plan on.
  const root2 = await makeRoot({ "main.cue": files(20) });
  await pravo(root2, ["init"]);
  const [c, d] = await Promise.all([
    pravo(root2, ["apply", "-auto-approve"]),
    pravo(root2, ["apply", "-auto-approve"]),
  ]);
  assert.deepEqual([c.code, d.code].sort(), [0, 0], c.stderr + d.stderr);
  assert.equal(await checkConsistent(root2), 20);
  const store = await openStore({ root: root2, state: undefined });
  try {
    const creates = (await store.readLog()).flatMap((e) => e.changes).filter((x) =>
      x.action === "create"
    );
    assert.equal(creates.length, 20, "each node was created once");
  } finally {
    await store.close();
  }
});
