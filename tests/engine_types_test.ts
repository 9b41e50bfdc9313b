/**
 * The whole loop on every managed type, data sources read during plan,
 * ephemeral values never stored, and files changed by hand seen on refresh.
 */

import assert from "node:assert/strict";
import { makeRoot, pravo, records, writeFiles } from "./_pravo.ts";

async function planDoc(root: string, args: string[] = []) {
  const r = await pravo(root, ["--json", "plan", ...args]);
  assert.ok(r.code === 0 || r.code === 2, `plan exited ${r.code}: ${r.stderr}${r.stdout}`);
  const doc = JSON.parse(r.stdout);
  const actions: Record<string, string> = {};
  for (const n of doc.nodes) actions[n.address] = n.action;
  return { code: r.code, doc, actions };
}

function allTypes(k: string, offsetDays: number, sleep: string): string {
  return `package all

import rnd "pravo.dev/providers/hashicorp/random"
import nul "pravo.dev/providers/hashicorp/null"
import loc "pravo.dev/providers/hashicorp/local"
import tim "pravo.dev/providers/hashicorp/time"

$random: rnd.#Provider
$null: nul.#Provider
$local: loc.#Provider
$time: tim.#Provider

keep: {k: "${k}"}
int: $random.#Resource.random_integer & {min: 1, max: 1000, keepers: keep}
str: $random.#Resource.random_string & {length: 12, keepers: keep}
pw: $random.#Resource.random_password & {length: 16, keepers: keep}
id: $random.#Resource.random_id & {byte_length: 8, keepers: keep}
uuid: $random.#Resource.random_uuid & {keepers: keep}
pet: $random.#Resource.random_pet & {keepers: keep}
shuffle: $random.#Resource.random_shuffle & {input: ["a", "b", "c"], keepers: keep}
bytes: $random.#Resource.random_bytes & {length: 8, keepers: keep}
trig: $null.#Resource.null_resource & {triggers: keep}
file: $local.#Resource.local_file & {filename: "f.txt", content: "k=${k}"}
secret: $local.#Resource.local_sensitive_file & {filename: "s.txt", content: "s=${k}"}
static: $time.#Resource.time_static & {triggers: keep}
offset: $time.#Resource.time_offset & {offset_days: ${offsetDays}, triggers: keep}
rotating: $time.#Resource.time_rotating & {rotation_days: ${offsetDays}, triggers: keep}
sleep: $time.#Resource.time_sleep & {create_duration: "${sleep}", triggers: keep}
`;
}

const ALL = [
  "bytes",
  "file",
  "id",
  "int",
  "offset",
  "pet",
  "pw",
  "rotating",
  "secret",
  "shuffle",
  "sleep",
  "static",
  "str",
  "trig",
  "uuid",
];

Deno.test("every managed type: create, nothing to do, update in place, replace, destroy", async () => {
  const root = await makeRoot({ "main.cue": allTypes("one", 1, "10ms") });
  assert.equal((await pravo(root, ["init"])).code, 0);
  const first = await planDoc(root, ["--out", "p.plan"]);
  assert.equal(first.code, 2);
  assert.deepEqual(Object.keys(first.actions).sort(), ALL);
  assert.ok(Object.values(first.actions).every((a) => a === "create"));
  assert.equal((await pravo(root, ["show", "p.plan"])).code, 0);
  const applied = await pravo(root, ["apply", "p.plan"]);
  assert.equal(applied.code, 0, applied.stderr + applied.stdout);
  const recs = await records(root);
  assert.deepEqual([...recs.keys()].sort(), ALL);
  assert.equal(await Deno.readTextFile(`${root}/f.txt`), "k=one");
  assert.equal(await Deno.readTextFile(`${root}/s.txt`), "s=one");
  const again = await pravo(root, ["plan"]);
  assert.equal(again.code, 0, again.stdout + again.stderr);

  // In place: offsets and durations change without replacing.
  await writeFiles(root, { "main.cue": allTypes("one", 2, "20ms") });
  const upd = await planDoc(root, ["--full"]);
  // An incremental plan runs only the nodes whose configuration changed.
  const inc = await planDoc(root);
  // Local files are read on every plan (refresh age 0s), so they are in it too.
  assert.deepEqual(Object.keys(inc.actions).sort(), [
    "file",
    "offset",
    "rotating",
    "secret",
    "sleep",
  ]);
  assert.equal(upd.actions.offset, "update");
  assert.equal(upd.actions.rotating, "update");
  assert.equal(upd.actions.sleep, "update");
  assert.equal(upd.actions.int, "no-op");
  const beforeOffset = recs.get("offset")!.attributes;
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
  const afterOffset = (await records(root)).get("offset")!.attributes;
  assert.equal(afterOffset.id, beforeOffset.id, "an update keeps the node");
  assert.notEqual(afterOffset.rfc3339, beforeOffset.rfc3339);

  // Replace: every node's replace-triggering input changes.
  await writeFiles(root, { "main.cue": allTypes("two", 2, "20ms") });
  const rep = await planDoc(root);
  for (const a of ALL) assert.equal(rep.actions[a], "replace", `${a} is replaced`);
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
  const replaced = await records(root);
  assert.notEqual(replaced.get("uuid")!.attributes.result, recs.get("uuid")!.attributes.result);
  assert.equal(await Deno.readTextFile(`${root}/f.txt`), "k=two");

  // Destroy.
  assert.equal((await pravo(root, ["plan", "--destroy", "--out", "d.plan"])).code, 2);
  assert.equal((await pravo(root, ["apply", "d.plan"])).code, 0);
  assert.equal((await records(root)).size, 0);
  await assert.rejects(Deno.stat(`${root}/f.txt`));
});

Deno.test("a data source is read during plan and its values feed other nodes", async () => {
  const root = await makeRoot({
    "main.cue": `package data

import loc "pravo.dev/providers/hashicorp/local"

$local: loc.#Provider

src: $local.#Data.local_file & {filename: "in.txt"}
copy: $local.#Resource.local_file & {filename: "out.txt", content: "copy of \\(src.content)"}
`,
    "in.txt": "hello",
  });
  await pravo(root, ["init"]);
  const { doc, actions } = await planDoc(root, ["--out", "p.plan"]);
  assert.equal(actions.src, "read");
  const copy = doc.nodes.find((n: { address: string }) => n.address === "copy");
  assert.equal(copy.after.content, "copy of hello", "known during plan");
  assert.equal((await pravo(root, ["apply", "p.plan"])).code, 0);
  assert.equal(await Deno.readTextFile(`${root}/out.txt`), "copy of hello");
  const missing = await makeRoot({
    "main.cue": `package data

import loc "pravo.dev/providers/hashicorp/local"

$local: loc.#Provider

src: $local.#Data.local_file & {filename: "nope.txt"}
`,
  });
  await pravo(missing, ["init"]);
  const r = await pravo(missing, ["plan"]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /nope\.txt/);
});

Deno.test("a file deleted or edited by hand is seen on refresh and planned back", async () => {
  const root = await makeRoot({
    "main.cue": `package drift

import loc "pravo.dev/providers/hashicorp/local"

$local: loc.#Provider

f: $local.#Resource.local_file & {filename: "f.txt", content: "as declared"}
`,
  });
  await pravo(root, ["init"]);
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
  // A local file's refresh age is 0s: the next plan reads it, as Terraform's does.
  await Deno.writeTextFile(`${root}/f.txt`, "edited");
  assert.equal((await planDoc(root, ["--refresh", "false"])).code, 0);
  const edited = await planDoc(root);
  assert.equal(edited.actions.f, "replace");
  const node = edited.doc.nodes[0];
  assert.equal(node.before.content, "edited");
  assert.ok(node.changed.includes("content"));
  await Deno.remove(`${root}/f.txt`);
  const gone = await planDoc(root, ["--refresh", "all"]);
  assert.equal(gone.actions.f, "create");
  assert.deepEqual(gone.doc.nodes[0].replace_because, ["gone"]);
  assert.equal((await pravo(root, ["apply", "-auto-approve", "--refresh", "all"])).code, 0);
  assert.equal(await Deno.readTextFile(`${root}/f.txt`), "as declared");
});

Deno.test("an ephemeral value is never written to the state, the log or a plan file", async () => {
  const { RUNTIMES } = await import("../lib/providers/runtimes.ts");
  const handler = RUNTIMES.get("hashicorp/random")!.handlers.ephemeral!.random_password;
  const opened: string[] = [];
  const open = handler.open!;
  handler.open = async (req) => {
    const r = await open.call(handler, req);
    opened.push(String(r.value?.result));
    return r;
  };
  try {
    const root = await makeRoot({
      "main.cue": `package eph

import rnd "pravo.dev/providers/hashicorp/random"

$random: rnd.#Provider

token: $random.#Ephemeral.random_password & {length: 40, special: false}
kept: $random.#Resource.random_integer & {min: 1, max: 5}
`,
    });
    const { run } = await import("../main.ts");
    const streams = () => {
      const out = { stdout: "", stderr: "" };
      return {
        out,
        s: {
          stdout: (t: string) => (out.stdout += t),
          stderr: (t: string) => (out.stderr += t),
          isTerminal: false,
        },
      };
    };
    const env = (n: string) => (n === "PRAVO_ACTOR" ? "test" : undefined);
    assert.equal(await run(["-C", root, "init"], streams().s, env), 0);
    const p = streams();
    assert.equal(await run(["-C", root, "plan", "--out", "p.plan"], p.s, env), 2);
    const a = streams();
    assert.equal(await run(["-C", root, "apply", "p.plan"], a.s, env), 0, a.out.stderr);
    assert.equal(opened.length, 1, "the ephemeral value was opened once, during apply");
    const secret = opened[0];
    assert.equal(secret.length, 40);
    const bytes = (path: string) =>
      Deno.readFile(path).then((b) => new TextDecoder("latin1").decode(b));
    const files = [`${root}/p.plan`, `${root}/.pravo/state.db`];
    for (const f of ["state.db-wal", "state.db-shm"]) {
      try {
        await Deno.stat(`${root}/.pravo/${f}`);
        files.push(`${root}/.pravo/${f}`);
      } catch { /* not there */ }
    }
    for (const f of files) {
      assert.ok(!(await bytes(f)).includes(secret), `${f} holds the ephemeral value`);
    }
    const log = streams();
    await run(["-C", root, "--json", "state", "log"], log.s, env);
    assert.ok(!log.out.stdout.includes(secret));
    assert.ok(!p.out.stdout.includes(secret) && !a.out.stdout.includes(secret));

    // A managed node may not keep an ephemeral value.
    await writeFiles(root, {
      "main.cue": `package eph

import rnd "pravo.dev/providers/hashicorp/random"

$random: rnd.#Provider

token: $random.#Ephemeral.random_password & {length: 40}
kept: $random.#Resource.random_string & {length: 5, keepers: {t: token.result}}
`,
    });
    const bad = streams();
    assert.equal(await run(["-C", root, "plan"], bad.s, env), 3);
    assert.match(bad.out.stderr, /Ephemeral value would be stored/);
  } finally {
    handler.open = open;
  }
});

Deno.test("an input built from a sensitive value is sensitive too: redacted in the plan, the log and the views", async () => {
  const root = await makeRoot({
    "main.cue": `package sens

import rnd "pravo.dev/providers/hashicorp/random"

$random: rnd.#Provider

pw: $random.#Resource.random_password & {length: 24, special: false}
pet: $random.#Resource.random_pet & {keepers: {p: pw.result}}
`,
  });
  await pravo(root, ["init"]);
  const first = await planDoc(root, ["--out", "a.plan"]);
  assert.ok(
    first.doc.nodes.find((n: { address: string }) => n.address === "pet").sensitive.includes(
      "keepers",
    ),
  );
  assert.equal((await pravo(root, ["apply", "a.plan"])).code, 0);
  const recs = await records(root);
  const secret = recs.get("pw")!.attributes.result as string;
  assert.deepEqual(recs.get("pet")!.sensitivePaths, [["keepers"]]);
  // Once the password is known, a plan still redacts the keepers that hold it.
  const again = await pravo(root, ["--json", "plan", "--replace", "pet"]);
  assert.equal(again.code, 2);
  assert.ok(!again.stdout.includes(secret), "the plan document holds the password");
  for (
    const args of [["--json", "state", "log"], ["--json", "state", "show", "pet"], [
      "show",
      "a.plan",
    ]]
  ) {
    const r = await pravo(root, args);
    assert.ok(!r.stdout.includes(secret), `${args.join(" ")} prints the password`);
  }
});

Deno.test("an output holding a sensitive value stays redacted when its node is skipped", async () => {
  const root = await makeRoot({
    "main.cue": `package out

import rnd "pravo.dev/providers/hashicorp/random"

$random: rnd.#Provider

pw: $random.#Resource.random_password & {length: 12, special: false}
outputs: {password: pw.result, greeting: "hi \\(pw.result)"}
`,
  });
  await pravo(root, ["init"]);
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
  const secret = (await records(root)).get("pw")!.attributes.result as string;
  const { doc } = await planDoc(root, ["--out", "p.plan", "--include-skipped"]);
  assert.deepEqual(doc.skipped.map((s: { address: string }) => s.address), ["pw"]);
  assert.deepEqual(doc.outputs, { greeting: "(sensitive)", password: "(sensitive)" });
  for (const args of [["plan"], ["show", "p.plan"], ["--json", "show", "p.plan"]]) {
    assert.ok(!(await pravo(root, args)).stdout.includes(secret), args.join(" "));
  }
  assert.ok(
    !(await Deno.readTextFile(`${root}/p.plan`)).includes(secret),
    "the plan file holds it",
  );
});
