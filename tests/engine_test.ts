/**
 * End-to-end tests of the engine: the real program, on roots in temporary
 * directories: init, plan --out, show, apply, plan again; updates, replaces,
 * destroy; refusals of stale, damaged and foreign plans; --only.
 */

import assert from "node:assert/strict";
import { makeRoot, pravo, records, SEED, writeFiles } from "./_pravo.ts";
import { openStore } from "../lib/state/open.ts";

async function planJson(root: string, args: string[] = []) {
  const r = await pravo(root, ["--json", "plan", ...args]);
  assert.ok(r.code === 0 || r.code === 2, `plan exited ${r.code}: ${r.stderr}${r.stdout}`);
  return { code: r.code, doc: JSON.parse(r.stdout) };
}

/** The document of `pravo --json show PLANFILE` in `root`, which succeeds, in format 1.0. */
async function showJson(root: string, planfile: string) {
  const show = await pravo(root, ["--json", "show", planfile]);
  assert.equal(show.code, 0, show.stderr);
  const doc = JSON.parse(show.stdout);
  assert.equal(doc.format_version, "1.0");
  return doc;
}

Deno.test("the seed's loop: init, plan --out, show, apply, plan again has nothing to do", async () => {
  const root = await makeRoot({ "main.cue": SEED });
  assert.equal((await pravo(root, ["init"])).code, 0);
  const p = await pravo(root, ["plan", "--out", "x.plan"]);
  assert.equal(p.code, 2, p.stderr);
  assert.match(p.stdout, /# base will be created/);
  assert.match(p.stdout, /result = \(known after apply\)/);
  assert.match(p.stdout, /Plan: 1 to add, 0 to change, 0 to replace, 0 to destroy\./);

  const doc = await showJson(root, "x.plan");
  assert.deepEqual(doc.summary, {
    add: 1,
    change: 0,
    replace: 0,
    destroy: 0,
    delete: 0,
    read: 0,
    unchanged: 0,
  });
  assert.equal(doc.nodes[0].action, "create");
  assert.deepEqual(doc.nodes[0].after_unknown, ["id", "result"]);
  assert.equal(doc.state.serial, 0);

  const a = await pravo(root, ["apply", "x.plan"]);
  assert.equal(a.code, 0, a.stderr + a.stdout);
  assert.match(a.stdout, /Apply complete! Resources: 1 added/);
  const rec = (await records(root)).get("base")!;
  const result = rec.attributes.result as number;
  assert.ok(result >= 1 && result <= 9);
  assert.equal(rec.attributes.id, String(result));

  const again = await pravo(root, ["plan"]);
  assert.equal(again.code, 0, again.stderr + again.stdout);
  assert.match(again.stdout, /No changes\./);
});

Deno.test("a computed attribute is resolved at apply, in dependency order", async () => {
  const root = await makeRoot({
    "main.cue": `package chain

import rnd "pravo.dev/providers/hashicorp/random"

$random: rnd.#Provider

a: $random.#Resource.random_integer & {min: 5, max: 9}
b: $random.#Resource.random_integer & {min: 1, max: a.result}
c: $random.#Resource.random_string & {length: b.result, special: false}
d: $random.#Resource.random_integer & {min: 0, max: a.result + 100}
`,
  });
  await pravo(root, ["init"]);
  const { doc } = await planJson(root, ["--out", "p.plan"]);
  const byAddr = Object.fromEntries(doc.nodes.map((n: { address: string }) => [n.address, n]));
  assert.deepEqual(byAddr.b.dependencies, ["a"]);
  assert.deepEqual(byAddr.c.dependencies, ["b"]);
  assert.ok(byAddr.b.after_unknown.includes("max"));
  const a = await pravo(root, ["apply", "--parallelism", "4", "p.plan"]);
  assert.equal(a.code, 0, a.stderr + a.stdout);
  const recs = await records(root);
  const av = recs.get("a")!.attributes;
  const bv = recs.get("b")!.attributes;
  const cv = recs.get("c")!.attributes;
  const dv = recs.get("d")!.attributes;
  assert.equal(bv.max, av.result);
  assert.equal(cv.length, bv.result);
  assert.equal((cv.result as string).length, bv.result);
  assert.equal(
    dv.max,
    (av.result as number) + 100,
    "arithmetic on an unknown is evaluated again at apply",
  );
  const again = await pravo(root, ["plan"]);
  assert.equal(again.code, 0, again.stdout);
});

Deno.test("in-place update, replace, and destroy of managed nodes", async () => {
  const cue = (content: string, min: number) =>
    `package up

import rnd "pravo.dev/providers/hashicorp/random"
import loc "pravo.dev/providers/hashicorp/local"

$random: rnd.#Provider
$local: loc.#Provider

n: $random.#Resource.random_integer & {min: ${min}, max: 100}
f: $local.#Resource.local_file & {filename: "out.txt", content: "${content}"}
`;
  const root = await makeRoot({ "main.cue": cue("one", 1) });
  await pravo(root, ["init"]);
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
  assert.equal(await Deno.readTextFile(`${root}/out.txt`), "one");
  const n1 = (await records(root)).get("n")!.attributes.result;

  await writeFiles(root, { "main.cue": cue("two", 1) });
  const { code, doc } = await planJson(root);
  assert.equal(code, 2);
  const f = doc.nodes.find((n: { address: string }) => n.address === "f");
  assert.equal(f.action, "replace");
  assert.deepEqual(f.replace_because, ["content"]);
  assert.equal(doc.nodes.find((n: { address: string }) => n.address === "n"), undefined);
  const incl = await planJson(root, ["--include-skipped"]);
  assert.ok(
    incl.doc.skipped.some((s: { address: string }) => s.address === "n"),
    "n is left alone",
  );
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
  assert.equal(await Deno.readTextFile(`${root}/out.txt`), "two");
  assert.equal(
    (await records(root)).get("n")!.attributes.result,
    n1,
    "an unchanged random value stays",
  );

  await writeFiles(root, { "main.cue": cue("two", 2) });
  const r = await planJson(root);
  assert.equal(r.doc.nodes.find((n: { address: string }) => n.address === "n").action, "replace");

  const d = await pravo(root, ["plan", "--destroy", "--out", "d.plan"]);
  assert.equal(d.code, 2);
  assert.match(d.stdout, /# f will be destroyed/);
  assert.equal((await pravo(root, ["apply", "d.plan"])).code, 0);
  assert.equal((await records(root)).size, 0);
  await assert.rejects(Deno.stat(`${root}/out.txt`));
});

Deno.test("saved plans that are stale, damaged, foreign or newer are refused and nothing is applied", async () => {
  const root = await makeRoot({ "main.cue": SEED });
  await pravo(root, ["init"]);
  assert.equal((await pravo(root, ["plan", "--out", "a.plan"])).code, 2);
  const text = await Deno.readTextFile(`${root}/a.plan`);
  const outer = JSON.parse(text);
  assert.deepEqual(Object.keys(outer), ["pravo_plan", "key", "sealed"]);
  assert.equal(outer.pravo_plan, "2.0");
  assert.ok(!text.includes('"max"'), "the plan inside is sealed: nothing of it can be read");

  // Edited: one byte of the sealed plan changed.
  const flipped = outer.sealed[10] === "A" ? "B" : "A";
  await Deno.writeTextFile(
    `${root}/edited.plan`,
    JSON.stringify({
      ...outer,
      sealed: outer.sealed.slice(0, 10) + flipped + outer.sealed.slice(11),
    }),
  );
  const edited = await pravo(root, ["apply", "edited.plan"]);
  assert.equal(edited.code, 7, edited.stderr);
  assert.match(edited.stderr, /is damaged/);
  assert.match(edited.stderr, /not written by pravo with this key, or it was edited/);
  // Truncated.
  await Deno.writeTextFile(`${root}/short.plan`, text.slice(0, text.length / 2));
  assert.equal((await pravo(root, ["apply", "short.plan"])).code, 7);
  // Newer format.
  await Deno.writeTextFile(
    `${root}/new.plan`,
    text.replace('"pravo_plan":"2.0"', '"pravo_plan":"3.0"'),
  );
  const newer = await pravo(root, ["apply", "new.plan"]);
  assert.equal(newer.code, 9, newer.stderr);
  // The old format, unsealed: refused, make a new plan.
  await Deno.writeTextFile(
    `${root}/old.plan`,
    JSON.stringify({ pravo_plan: "1.0", digest: "0".repeat(64), body: { nodes: [] } }),
  );
  const old = await pravo(root, ["apply", "old.plan"]);
  assert.equal(old.code, 7, old.stderr);
  assert.match(old.stderr, /old format 1\.0, which is not sealed/);
  assert.match(old.stderr, /make a new plan/);
  // Another root: another state (lineage).
  const other = await makeRoot({ "main.cue": SEED });
  await pravo(other, ["init"]);
  await Deno.copyFile(`${root}/a.plan`, `${other}/a.plan`);
  const foreign = await pravo(other, ["apply", "a.plan"]);
  assert.equal(foreign.code, 8, foreign.stderr);
  assert.match(foreign.stderr, /was made for another root/);
  assert.match(foreign.stderr, /state lineage/);
  assert.equal((await records(root)).size, 0);
  assert.equal((await records(other)).size, 0);

  // Stale: the state moved since the plan.
  assert.equal((await pravo(root, ["plan", "--out", "b.plan"])).code, 2);
  assert.equal((await pravo(root, ["apply", "a.plan"])).code, 0);
  const stale = await pravo(root, ["apply", "b.plan"]);
  assert.equal(stale.code, 6, stale.stderr);
  assert.match(stale.stderr, /is stale/);
  assert.equal((await records(root)).size, 1);
});

Deno.test("a plan file sealed with another key is refused, saying which key it needs and how to give it", async () => {
  const root = await makeRoot({ "main.cue": SEED });
  const mine = { PRAVO_KEY: btoa("a key of 32 bytes for this test!") };
  const theirs = { PRAVO_KEY: btoa("another key of 32 bytes, theirs!") };
  // The state is theirs too: its sealed values open only with their key.
  await pravo(root, ["init"], { env: theirs });
  assert.equal((await pravo(root, ["plan", "--out", "p.plan"], { env: theirs })).code, 2);
  for (const cmd of [["show", "p.plan"], ["apply", "p.plan"]]) {
    const r = await pravo(root, cmd, { env: mine });
    assert.equal(r.code, 8, r.stderr);
    assert.match(r.stderr, /was sealed with another key/);
    assert.match(r.stderr, /Give the key it was made with in \$PRAVO_KEY or \$PRAVO_KEY_FILE/);
  }
  assert.equal((await records(root)).size, 0);
  assert.equal((await pravo(root, ["apply", "p.plan"], { env: theirs })).code, 0);
});

Deno.test("a plan made in one directory applies in another that has the same state (issue 12)", async () => {
  const a = await makeRoot({ "main.cue": SEED });
  await pravo(a, ["init"]);
  assert.equal((await pravo(a, ["plan", "--out", "p.plan", "--reason", "ci"])).code, 2);
  // A CI job applies in another checkout of the same root, on the same state.
  const b = await makeRoot({ "main.cue": SEED });
  const state = `sqlite:${a}/.pravo/state.db`;
  const r = await pravo(b, ["--state", state, "apply", `${a}/p.plan`]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal((await records(a)).size, 1);
});

Deno.test("--only applies the named nodes of a plan", async () => {
  const root = await makeRoot({
    "main.cue": `package only

import rnd "pravo.dev/providers/hashicorp/random"

$random: rnd.#Provider

a: $random.#Resource.random_integer & {min: 1, max: 9}
b: $random.#Resource.random_integer & {min: 1, max: 9}
c: $random.#Resource.random_integer & {min: 1, max: 9}
`,
  });
  await pravo(root, ["init"]);
  await pravo(root, ["plan", "--out", "p.plan"]);
  const bad = await pravo(root, ["apply", "--only", "a,zz", "p.plan"]);
  assert.equal(bad.code, 64);
  assert.match(bad.stderr, /"zz" is not in the plan/);
  const r = await pravo(root, ["apply", "--only", "a,c", "p.plan"]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual([...(await records(root)).keys()].sort(), ["a", "c"]);
  const next = await planJson(root);
  assert.equal(next.doc.summary.add, 1);
});

Deno.test("apply without a plan file and without a terminal refuses unless -auto-approve", async () => {
  const root = await makeRoot({ "main.cue": SEED });
  await pravo(root, ["init"]);
  const r = await pravo(root, ["apply"]);
  assert.equal(r.code, 64);
  assert.match(r.stderr, /-auto-approve/);
  assert.equal((await records(root)).size, 0);
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
  assert.equal((await records(root)).size, 1);
});

Deno.test("a node that fails does not stop the nodes that do not depend on it", async () => {
  const root = await makeRoot({
    "main.cue": `package fail

import loc "pravo.dev/providers/hashicorp/local"
import rnd "pravo.dev/providers/hashicorp/random"

$local: loc.#Provider
$random: rnd.#Provider

bad: $local.#Resource.local_file & {filename: "blocked/x", content: "x"}
after: $random.#Resource.random_string & {length: 3, special: false, keepers: {id: bad.id}}
fine: $random.#Resource.random_integer & {min: 1, max: 2}
`,
  });
  await pravo(root, ["init"]);
  // A file where bad's directory should be: its write fails at apply.
  await Deno.writeTextFile(`${root}/blocked`, "");
  const r = await pravo(root, ["--json", "apply", "-auto-approve"]);
  assert.equal(r.code, 1, r.stderr);
  const doc = JSON.parse(r.stdout);
  const status = Object.fromEntries(
    doc.nodes.map((n: { address: string; status: string }) => [n.address, n.status]),
  );
  assert.deepEqual(status, { after: "skipped", bad: "failed", fine: "applied" });
  assert.deepEqual([...(await records(root)).keys()], ["fine"]);
  // The failure is recorded in the log, with the error.
  const store = await openStore({ root, state: undefined });
  try {
    const changes = (await store.readLog()).flatMap((e) => e.changes);
    const failed = changes.find((c) => c.action === "failed");
    assert.equal(failed?.address, "bad");
    assert.match(String((failed?.after as { error: string }).error), /./);
  } finally {
    await store.close();
  }
});

Deno.test("--only never uses the old value of a dependency that the plan replaces", async () => {
  const root = await makeRoot({
    "main.cue": `package only2

import rnd "pravo.dev/providers/hashicorp/random"

$random: rnd.#Provider

base: $random.#Resource.random_integer & {min: 1, max: 9, seed: "base"}
size: $random.#Resource.random_integer & {min: base.result + 10, max: 100}
`,
  });
  await pravo(root, ["init"]);
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
  const cue = await Deno.readTextFile(`${root}/main.cue`);
  await Deno.writeTextFile(`${root}/main.cue`, cue.replace("max: 9", "max: 5"));
  assert.equal((await pravo(root, ["plan", "--out", "x.plan"])).code, 2);
  const before = (await records(root)).get("size")!.attributes;
  // Refused before anything is applied, with the way to take base along.
  const r = await pravo(root, ["apply", "--only", "size", "x.plan"]);
  assert.equal(r.code, 64, r.stdout + r.stderr);
  assert.match(r.stderr, /size needs nodes that --only leaves out/);
  assert.match(r.stderr, /depends on base \(the plan replaces it\)/);
  assert.deepEqual((await records(root)).get("size")!.attributes, before, "size is as it was");
  const both = await pravo(root, ["apply", "--only", "size", "--with-dependencies", "x.plan"]);
  assert.equal(both.code, 0, both.stderr);
  const after = await records(root);
  assert.ok(
    (after.get("size")!.attributes.min as number) ===
      (after.get("base")!.attributes.result as number) + 10,
  );
  // Flags that would make another plan are refused with a saved plan.
  const flags = await pravo(root, ["apply", "--destroy", "x.plan"]);
  assert.equal(flags.code, 64);
  assert.match(flags.stderr, /--destroy makes a new plan/);
});

Deno.test("apply --expect-digest compares the digest of the bytes it parsed", async () => {
  const root = await makeRoot({ "main.cue": SEED });
  await pravo(root, ["init"]);
  assert.equal((await pravo(root, ["plan", "--out", "p.plan"])).code, 2);
  const r = await pravo(root, ["apply", "--expect-digest", "0".repeat(64), "p.plan"]);
  assert.equal(r.code, 7, r.stderr);
  assert.match(r.stderr, /changed since it was approved/);
  assert.equal((await records(root)).size, 0);
  const { sha256Hex } = await import("../lib/plan/planfile.ts");
  const d = sha256Hex(await Deno.readFile(`${root}/p.plan`));
  assert.equal((await pravo(root, ["apply", "--expect-digest", d, "p.plan"])).code, 0);
  const none = await pravo(root, ["apply", "--expect-digest", d]);
  assert.equal(none.code, 64);
});
