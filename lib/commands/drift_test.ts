import assert from "node:assert/strict";
import { join } from "node:path";
import { appliedRoot, makeRoot, pravo } from "../../tests/_pravo.ts";
import { openStore } from "../state/open.ts";
import { assertPrinted, jsonDocument } from "./_testing.ts";
import { put, record } from "./state_testing.ts";

const SECRET = "hunter2-Sup3r-s3cret";
const EDITED_SECRET = "n3w-s3cret-by-hand";

/** Three files and a number: a local_file, a second one, a sensitive one, a random_integer. */
const MAIN = `package demo

import loc "pravo.dev/providers/hashicorp/local"
import rnd "pravo.dev/providers/hashicorp/random"

$local:  loc.#Provider
$random: rnd.#Provider

notes: $local.#Resource.local_file & {filename: "notes.txt", content: "hello\\n"}
other: $local.#Resource.local_file & {filename: "other.txt", content: "other\\n"}
key:   $local.#Resource.local_sensitive_file & {filename: "key.txt", content: "${SECRET}"}
n:     $random.#Resource.random_integer & {min: 1, max: 9, seed: "n"}
`;

function applied(src = MAIN): Promise<string> {
  return appliedRoot({ "main.cue": src });
}

async function stateShow(root: string, addr: string) {
  const r = await pravo(root, ["state", "show", addr, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout).record;
}

async function serial(root: string): Promise<number> {
  const r = await pravo(root, ["state", "query", "serial"]);
  assert.equal(r.code, 0, r.stderr);
  return Number(r.stdout.trim());
}

Deno.test("drift exits 0 when nothing changed, and records the refresh time of what it read", async () => {
  const root = await applied();
  const before = await stateShow(root, "notes");
  const { code, stdout, stderr } = await pravo(root, ["drift", "--reason", "nightly check"]);
  assert.equal(stderr, "");
  assert.equal(code, 0);
  assert.equal(
    stdout,
    "No drift: the real world matches the state for the 3 records read.\n" +
      "1 record was not compared, as its type cannot be read: random_integer (1).\n",
  );
  const after = await stateShow(root, "notes");
  assert.ok(after.refreshed_at > before.refreshed_at, "refresh time recorded");
  assert.deepEqual(after.attributes, before.attributes);
  // A refresh time is not a change: no log entry, the serial stays, a saved plan stays fresh.
  const log = JSON.parse((await pravo(root, ["state", "log", "--json", "--limit", "1"])).stdout);
  assert.equal(log.entries[0].command, "apply");
  await Deno.remove(root, { recursive: true });
});

Deno.test("drift exits 2 and names the attribute of a file edited by hand, and a deleted file as gone", async () => {
  const root = await applied();
  await Deno.writeTextFile(join(root, "notes.txt"), "edited by hand\n");
  await Deno.remove(join(root, "other.txt"));
  const before = await stateShow(root, "notes");
  assertPrinted(await pravo(root, ["drift"]), 2, [
    "Drift: 2 of 3 records read differ:",
    "",
    "  ~ notes: content changed (and 7 computed attributes)",
    "  - other: gone",
    "",
    "1 record was not compared, as its type cannot be read: random_integer (1).",
    "`pravo plan --refresh all` reads them again and shows how apply would put them back.",
    "",
  ]);
  // The state is not changed, nor the refresh time of what differs.
  const after = await stateShow(root, "notes");
  assert.deepEqual(after.attributes, before.attributes);
  assert.equal(after.refreshed_at, before.refreshed_at);

  const doc = jsonDocument(await pravo(root, ["drift", "--json"]), 2);
  assert.deepEqual(doc.summary, {
    read: 3,
    drifted: 1,
    gone: 1,
    unchanged: 1,
    not_readable: 1,
    failed: 0,
  });
  assert.deepEqual(doc.not_readable, [{ type: "random_integer", count: 1 }]);
  const [notes, other] = doc.drift;
  assert.equal(notes.address, "notes");
  assert.equal(notes.type, "local_file");
  assert.equal(notes.status, "drifted");
  assert.ok(notes.changed.includes("content"));
  assert.equal(notes.before.content, "hello\n");
  assert.equal(notes.now.content, "edited by hand\n");
  assert.deepEqual(
    { address: other.address, status: other.status, now: other.now, changed: other.changed },
    { address: "other", status: "gone", now: null, changed: [] },
  );
  assert.equal(other.before.filename, "other.txt");

  // A plan sees what drift saw: the file is due (never marked refreshed) and replaced.
  const plan = await pravo(root, ["plan", "--refresh", "all", "--json"]);
  assert.equal(plan.code, 2, plan.stderr);
  await Deno.remove(root, { recursive: true });
});

Deno.test("drift names the content of a sensitive file edited by hand and never prints it", async () => {
  const root = await applied();
  await Deno.writeTextFile(join(root, "key.txt"), EDITED_SECRET);
  for (const args of [["drift"], ["drift", "--json"]]) {
    const { code, stdout, stderr } = await pravo(root, args);
    assert.equal(code, 2, stderr);
    for (const secret of [SECRET, EDITED_SECRET]) {
      assert.ok(!stdout.includes(secret), `${args.join(" ")} printed a secret: ${stdout}`);
      assert.ok(!stderr.includes(secret));
    }
    if (args.length === 1) {
      assert.match(stdout, /^ {2}~ key: content changed \(and 7 computed attributes\)$/m);
    } else {
      const entry = JSON.parse(stdout).drift[0];
      assert.equal(entry.address, "key");
      assert.ok(entry.changed.includes("content"));
      assert.equal(entry.before.content, "(sensitive)");
      assert.equal(entry.now.content, "(sensitive)");
    }
  }
  await Deno.remove(root, { recursive: true });
});

Deno.test("drift reports a read that fails, goes on with the others, and exits 1", async () => {
  const root = await applied();
  await Deno.remove(join(root, "notes.txt"));
  await Deno.mkdir(join(root, "notes.txt")); // a directory cannot be read as a file
  await Deno.writeTextFile(join(root, "other.txt"), "changed\n");
  const { code, stdout, stderr } = await pravo(root, ["drift"]);
  assert.equal(code, 1);
  assert.match(stdout, /^Drift: 1 of 2 records read differs:$/m);
  assert.match(stdout, /^ {2}~ other: content changed/m);
  assert.match(stdout, /^1 record could not be read: notes\.$/m);
  assert.match(stderr, /Cannot read file "notes\.txt"/);
  const json = await pravo(root, ["drift", "--json"]);
  assert.equal(json.code, 1);
  assert.deepEqual(JSON.parse(json.stdout).failed, [{ address: "notes", type: "local_file" }]);
  assert.equal(JSON.parse(json.stderr).exit_code, 1);
  await Deno.remove(root, { recursive: true });
});

Deno.test("drift --due --limit 1 lists the oldest record of two applied at different times", async () => {
  const src = (files: string[]) =>
    `package demo

import loc "pravo.dev/providers/hashicorp/local"

$local: loc.#Provider

` + files.map((f) =>
      `${f}: $local.#Resource.local_file & {filename: "${f}.txt", content: "${f}", ` +
      `lifecycle: {refresh_age: "0s"}}\n`
    ).join("");
  const root = await applied(src(["first"]));
  await Deno.writeTextFile(join(root, "main.cue"), src(["first", "second"]));
  const apply = await pravo(root, ["apply", "-auto-approve"]);
  assert.equal(apply.code, 0, apply.stderr);
  const json = await pravo(root, ["drift", "--due", "--limit", "1", "--json"]);
  assert.equal(json.code, 0, json.stderr);
  const doc = JSON.parse(json.stdout);
  assert.equal(doc.total_due, 2);
  assert.equal(doc.limit, 1);
  assert.equal(doc.truncated, true);
  assert.deepEqual(doc.due.map((d: { address: string }) => d.address), ["first"]);
  assert.equal(doc.due[0].refresh_age, "0s");
  assert.equal(doc.due[0].due_since, doc.due[0].refreshed_at);
  const human = await pravo(root, ["drift", "--due", "--limit", "1"]);
  assert.equal(human.code, 0);
  const lines = human.stdout.split("\n");
  assert.equal(lines[0], "2 records are due for a refresh, the longest overdue first:");
  assert.match(lines[1], /^ {2}address {2}type {8}refreshed +refresh age {2}due since$/);
  assert.match(lines[2], /^ {2}first {4}local_file {2}\S+Z {2}0s {11}\S+Z$/);
  assert.equal(lines[4], "1 more not shown; pass --limit 2 to see all.");
  await Deno.remove(root, { recursive: true });
});

Deno.test("drift --due reads nothing and writes nothing: a deleted file goes unnoticed", async () => {
  const root = await makeRoot({ "main.cue": "package demo\n" });
  assert.equal((await pravo(root, ["init"])).code, 0);
  const store = await openStore({ root });
  try {
    await store.transaction({ actor: "t", reason: "", command: "test" }, async (tx) => {
      const file = (address: string, refreshedAt: string, refreshAge: string | null) =>
        record({
          address,
          type: "local_file",
          provider: "hashicorp/local",
          attributes: { filename: `${address}.txt`, content: "x", id: "11f6ad8ec52a2984" },
          refreshAge,
          refreshedAt,
        });
      await put(tx, file("recent", "2020-01-01T00:00:00.000Z", "1h"));
      await put(tx, file("oldest", "2019-01-01T00:00:00.000Z", "1h"));
      await put(tx, file("never", "2000-01-01T00:00:00.000Z", null));
      await put(tx, file("fresh", new Date().toISOString(), "24h"));
      await put(
        tx,
        record({
          address: "rotated",
          type: "time_rotating",
          provider: "hashicorp/time",
          attributes: { rotation_rfc3339: "2019-06-01T00:00:00Z", rfc3339: "2019-05-01T00:00:00Z" },
          refreshedAt: "2024-01-01T00:00:00.000Z",
        }),
      );
    });
  } finally {
    await store.close();
  }
  const serialBefore = await serial(root);
  // None of the files exists: a read would find them gone.
  const { code, stdout, stderr } = await pravo(root, ["drift", "--due", "--json"]);
  assert.equal(stderr, "");
  assert.equal(code, 0);
  const doc = JSON.parse(stdout);
  assert.deepEqual(
    doc.due.map((d: { address: string; because: string[] }) => [d.address, d.because]),
    [["oldest", ["refresh_age"]], ["rotated", ["expired"]], ["recent", ["refresh_age"]]],
  );
  assert.equal(doc.due[0].due_since, "2019-01-01T01:00:00.000Z");
  assert.equal(doc.due[1].due_since, "2019-06-01T00:00:00.000Z");
  assert.equal(doc.total_due, 3);
  assert.equal(doc.limit, 20);
  assert.equal(await serial(root), serialBefore, "nothing written");
  assert.equal((await stateShow(root, "oldest")).refreshed_at, "2019-01-01T00:00:00.000Z");
  // Without --due the same state is read, and the files are gone.
  const read = await pravo(root, ["drift"]);
  assert.equal(read.code, 2, read.stderr);
  assert.match(read.stdout, /^ {2}- oldest: gone$/m);
  await Deno.remove(root, { recursive: true });
});

Deno.test("drift --limit is refused without --due, and when not a whole number above zero", async () => {
  const root = await makeRoot({ "main.cue": "package demo\n" });
  assert.equal((await pravo(root, ["init"])).code, 0);
  const alone = await pravo(root, ["drift", "--limit", "1"]);
  assert.equal(alone.code, 64);
  assert.equal(alone.stdout, "");
  assert.match(alone.stderr, /^Error: --limit is used only with --due: add --due/);
  for (const bad of ["0", "-1", "two", "1.5"]) {
    const r = await pravo(root, ["drift", "--due", `--limit=${bad}`]);
    assert.equal(r.code, 64, `--limit ${bad}`);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /is not a whole number above zero/);
  }
  const none = await pravo(root, ["drift", "--due"]);
  assert.equal(none.code, 0);
  assert.equal(none.stdout, "No record is due for a refresh.\n");
  const nothing = await pravo(root, ["drift"]);
  assert.equal(nothing.code, 0);
  assert.equal(
    nothing.stdout,
    "Nothing compared: no record in the state can be read from the real world.\n",
  );
  await Deno.remove(root, { recursive: true });
});
