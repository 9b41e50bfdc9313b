/**
 * `pravo state list`, `state mv`, `state rm` and the `moved` declaration
 * through the real pravo, on SQLite and, when `PRAVO_TEST_PG` names a
 * server, on PostgreSQL: each edit in the log with the actor and the
 * reason, refused while another process holds the state lock; and the
 * rename of `readme` to `docs.readme_file` that keeps the file.
 */

import assert from "node:assert/strict";
import { appliedRoot, pravo, whileLocked } from "./_pravo.ts";
import { BACKENDS, stateFlags, stateTest } from "./_pg.ts";
import { openStore } from "../lib/state/open.ts";

const ROOT = `package demo

import rnd "pravo.dev/providers/hashicorp/random"

$random: rnd.#Provider

base: $random.#Resource.random_integer & {min: 1, max: 9, seed: "base"}
net: {
	web: $random.#Resource.random_pet & {}
	db: $random.#Resource.random_pet & {}
}
`;

/** Writes `mainCue` as the root's main.cue and plans. */
async function planWith(dir: string, mainCue: string) {
  await Deno.writeTextFile(`${dir}/main.cue`, mainCue);
  return await pravo(dir, ["plan"]);
}

for (const backend of BACKENDS) {
  stateTest(
    `state list, mv and rm on ${backend}: the edits, in the log with the actor and reason`,
    async () => {
      const flags = stateFlags(backend, "edit");
      const dir = await appliedRoot({ "main.cue": ROOT }, flags);
      const run = (...args: string[]) => pravo(dir, [...args, ...flags]);
      assert.equal((await run("state", "list")).stdout, "base\nnet.db\nnet.web\n");
      assert.equal((await run("state", "list", "net")).stdout, "net.db\nnet.web\n");
      const id = JSON.parse((await run("state", "show", "base", "--json")).stdout).record
        .attributes.id;
      assert.equal((await run("state", "list", "-id=" + id)).stdout, "base\n");
      const none = await run("state", "list", "nett");
      assert.equal(none.code, 1);
      assert.match(none.stderr, /No record at "nett"/);

      const before = JSON.parse((await run("state", "show", "net.web", "--json")).stdout).record;
      const mv = await run("state", "mv", "net", "network", "--actor", "ops", "--reason", "rename");
      assert.equal(mv.code, 0, mv.stderr);
      assert.match(mv.stdout, /Moved net\.db to network\.db\nMoved net\.web to network\.web\n/);
      assert.match(mv.stdout, /Successfully moved 2 records/);
      const after = JSON.parse((await run("state", "show", "network.web", "--json")).stdout)
        .record;
      assert.deepEqual(after.attributes, before.attributes);
      assert.equal(after.created_at, before.created_at);

      const rm = await run("state", "rm", "base", "--actor", "ops", "--reason", "hand over");
      assert.equal(rm.code, 0, rm.stderr);
      assert.match(rm.stdout, /Removed base\n/);
      assert.match(rm.stdout, /the objects are left as they are/);
      assert.equal((await run("state", "list")).stdout, "network.db\nnetwork.web\n");

      const log = JSON.parse((await run("state", "log", "--json", "--limit", "2")).stdout);
      const [rmEntry, mvEntry] = log.entries;
      assert.deepEqual([rmEntry.command, rmEntry.actor, rmEntry.reason], [
        "state rm",
        "ops",
        "hand over",
      ]);
      assert.deepEqual(rmEntry.changes.map((c: { action: string }) => c.action), ["forget"]);
      assert.deepEqual([mvEntry.command, mvEntry.actor, mvEntry.reason], [
        "state mv",
        "ops",
        "rename",
      ]);
      assert.equal(mvEntry.changes.length, 4);
      const human = await run("state", "log", "--limit", "2");
      assert.match(human.stdout, /-> net\.web \(move to network\.web\)/);
      assert.match(human.stdout, /- base \(forget: the object left as it is\)/);
    },
  );

  stateTest(
    `state mv and rm on ${backend} are refused while another process holds the state lock`,
    async () => {
      const flags = stateFlags(backend, "edit");
      const dir = await appliedRoot({ "main.cue": ROOT }, flags);
      const store = await openStore({ root: dir, state: flags[1] });
      try {
        await whileLocked(store, async () => {
          for (const args of [["state", "mv", "base", "b2"], ["state", "rm", "base"]]) {
            const r = await pravo(dir, [...args, ...flags]);
            assert.equal(r.code, 4, `${args.join(" ")}: ${r.stderr}`);
            assert.match(r.stderr, /"bob"/);
          }
        });
      } finally {
        await store.close();
      }
      assert.equal(
        (await pravo(dir, ["state", "list", ...flags])).stdout,
        "base\nnet.db\nnet.web\n",
      );
    },
  );

  stateTest(`moved on ${backend}: readme renamed to docs.readme_file keeps its file`, async () => {
    const flags = stateFlags(backend, "edit");
    const head = `package demo

import lc "pravo.dev/providers/hashicorp/local"

$local: lc.#Provider
`;
    const dir = await appliedRoot({
      "main.cue": head +
        'readme: $local.#Resource.local_file & {filename: "README.txt", content: "hi"}\n',
    }, flags);
    const written = (await Deno.stat(`${dir}/README.txt`)).mtime!.getTime();
    await Deno.writeTextFile(
      `${dir}/main.cue`,
      head +
        'docs: readme_file: $local.#Resource.local_file & {filename: "README.txt", content: "hi"}\n\n' +
        'moved: [{from: "readme", to: "docs.readme_file"}]\n',
    );
    assert.equal((await pravo(dir, ["validate", ...flags])).code, 0);
    const plan = await pravo(dir, ["plan", "--out", "m.plan", ...flags]);
    assert.equal(plan.code, 2, plan.stderr);
    assert.match(plan.stdout, /# readme has moved to docs\.readme_file/);
    assert.match(
      plan.stdout,
      /Plan: 0 to add, 0 to change, 0 to replace, 0 to destroy, 1 to move\./,
    );
    assert.doesNotMatch(plan.stdout, /will be created|will be destroyed/);
    const doc = JSON.parse((await pravo(dir, ["show", "m.plan", "--json", ...flags])).stdout);
    assert.deepEqual(
      doc.nodes.map((n: { address: string; action: string; moved_from?: string }) => [
        n.address,
        n.action,
        n.moved_from,
      ]),
      [["docs.readme_file", "no-op", "readme"]],
    );
    assert.equal(doc.nodes[0].reasons, undefined);
    const why = await pravo(dir, ["why", "docs.readme_file", ...flags]);
    assert.match(
      why.stdout,
      /its object moves from readme, as a moved entry of the configuration says/,
    );

    const apply = await pravo(dir, ["apply", "m.plan", "--reason", "tidy", ...flags]);
    assert.equal(apply.code, 0, apply.stderr);
    assert.match(apply.stdout, /readme: moved to docs\.readme_file\n/);
    assert.equal((await Deno.stat(`${dir}/README.txt`)).mtime!.getTime(), written);
    assert.equal((await pravo(dir, ["state", "list", ...flags])).stdout, "docs.readme_file\n");
    const again = await pravo(dir, ["plan", ...flags]);
    assert.equal(again.code, 0, again.stdout);
    const log = JSON.parse(
      (await pravo(dir, ["state", "log", "--json", "--limit", "1", ...flags]))
        .stdout,
    );
    assert.equal(log.entries[0].reason, "tidy");
    assert.deepEqual(
      log.entries[0].changes.map((
        c: { address: string; action: string },
      ) => [c.address, c.action]),
      [["readme", "move"], ["docs.readme_file", "move"]],
    );
  });
}

Deno.test("moved with a change: the node moves and is updated in the same apply", async () => {
  const head = `package demo

import tm "pravo.dev/providers/hashicorp/time"

$time: tm.#Provider
`;
  const dir = await appliedRoot({
    "main.cue": head + 'nap: $time.#Resource.time_sleep & {create_duration: "1ms"}\n',
  });
  const id = JSON.parse((await pravo(dir, ["state", "show", "nap", "--json"])).stdout).record
    .attributes.id;
  const plan = await planWith(
    dir,
    head + 'waits: short: $time.#Resource.time_sleep & {create_duration: "2ms"}\n' +
      'moved: [{from: "nap", to: "waits.short"}]\n',
  );
  assert.equal(plan.code, 2);
  assert.match(plan.stdout, /# waits\.short will be updated in place\n {2}# \(moved from nap\)/);
  assert.match(plan.stdout, /1 to change, 0 to replace, 0 to destroy, 1 to move\./);
  const apply = await pravo(dir, ["apply", "-auto-approve"]);
  assert.equal(apply.code, 0, apply.stderr);
  const rec = JSON.parse((await pravo(dir, ["state", "show", "waits.short", "--json"])).stdout)
    .record;
  assert.equal(rec.attributes.id, id);
  assert.equal(rec.attributes.create_duration, "2ms");
});

Deno.test("moved is refused where it would lose or mix up an object", async () => {
  const head = `package demo

import rnd "pravo.dev/providers/hashicorp/random"

$random: rnd.#Provider
`;
  const dir = await appliedRoot({
    "main.cue": head +
      "a: $random.#Resource.random_pet & {}\nb: $random.#Resource.random_pet & {}\n",
  });
  // To an address that holds an object already.
  const taken = await planWith(
    dir,
    head + 'b: $random.#Resource.random_pet & {}\nmoved: [{from: "a", to: "b"}]\n',
  );
  assert.equal(taken.code, 1);
  assert.match(taken.stderr, /Cannot move a to b/);
  assert.match(taken.stderr, /the state holds an object there already/);
  // To a node of another type.
  const other = await planWith(
    dir,
    head + "b: $random.#Resource.random_pet & {}\nc: $random.#Resource.random_uuid & {}\n" +
      'moved: [{from: "a", to: "c"}]\n',
  );
  assert.equal(other.code, 1);
  assert.match(other.stderr, /The state holds a random_pet at a, and c is a random_uuid/);
});
