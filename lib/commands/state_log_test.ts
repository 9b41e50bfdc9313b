import assert from "node:assert/strict";
import { pravo, put, record, SECRET, seededRoot, storeOf } from "./state_testing.ts";

Deno.test("state log lists the transactions newest first with actor, reason and changes", async () => {
  const root = await seededRoot();
  const { code, stdout, stderr } = await pravo(["-C", root, "state", "log"]);
  assert.equal(stderr, "");
  assert.equal(code, 0);
  const lines = stdout.split("\n");
  assert.match(lines[0], /^#2 {2}\S+Z {2}serial 2 {2}apply {2}by bob: widen$/);
  assert.equal(lines[1], "    ~ base (update: id, max, result)");
  assert.match(
    lines[2],
    /^#1 {2}\S+Z {2}serial 1 {2}apply {2}by alice: first rollout {2}\(plan 11111111-2222-3333-4444-555555555555\)$/,
  );
  assert.deepEqual(lines.slice(3, 7), [
    "    + base (create)",
    "    + pw (create)",
    "    + file (create)",
    "    + pet (create)",
  ]);
  await Deno.remove(root, { recursive: true });
});

Deno.test("state log shows no values in the human view and markers in --json", async () => {
  const root = await seededRoot();
  const human = await pravo(["-C", root, "state", "log"]);
  assert.ok(!human.stdout.includes(SECRET));
  assert.ok(!human.stdout.includes("password"), human.stdout);
  for (const line of human.stdout.trim().split("\n").filter((l) => !l.startsWith("#"))) {
    assert.match(line, /^ {4}[~+] (base|pw|file|pet) \((create|update: [a-z_, ]+)\)$/);
  }
  const json = await pravo(["-C", root, "state", "log", "--json"]);
  assert.equal(json.code, 0);
  assert.ok(!json.stdout.includes(SECRET), json.stdout);
  const doc = JSON.parse(json.stdout);
  const pw = doc.entries[1].changes.find((c: { address: string }) => c.address === "pw");
  assert.match(pw.after.result.$sensitive, /^hmac-sha256:[0-9a-f]{32}$/);
  const file = doc.entries[1].changes.find((c: { address: string }) => c.address === "file");
  assert.equal(file.after.content, "(sensitive)"); // holds the secret: traced
  assert.deepEqual(doc.entries[0].changes[0].changed, ["id", "max", "result"]);
  assert.equal(doc.entries[0].plan_id, null);
  assert.equal(doc.entries[0].actor, "bob");
  assert.equal(doc.entries[0].reason, "widen");
  assert.equal(doc.entries[0].command, "apply");
  await Deno.remove(root, { recursive: true });
});

Deno.test("state log shows 20 entries by default and says how many more there are", async () => {
  const root = await seededRoot();
  const store = await storeOf(root);
  for (let i = 0; i < 25; i++) {
    await store.transaction({ actor: "t", reason: `step ${i}`, command: "test" }, async (tx) => {
      await put(tx, record({ address: "counter", attributes: { result: i } }));
    });
  }
  await store.close();
  const human = await pravo(["-C", root, "state", "log"]);
  assert.equal(human.stdout.split("\n").filter((l) => l.startsWith("#")).length, 20);
  assert.match(
    human.stdout,
    /\n7 older entries not shown; pass --limit 27 \(or --limit 0\) to see all\.\n$/,
  );
  assert.match(human.stdout, /^#27 /);
  const json = JSON.parse((await pravo(["-C", root, "state", "log", "--json"])).stdout);
  assert.equal(json.entries.length, 20);
  assert.equal(json.total, 27);
  assert.equal(json.truncated, true);
  const two = JSON.parse(
    (await pravo(["-C", root, "state", "log", "--json", "--limit", "2"])).stdout,
  );
  assert.deepEqual(two.entries.map((e: { id: number }) => e.id), [27, 26]);
  const all = JSON.parse(
    (await pravo(["-C", root, "state", "log", "--json", "--limit", "0"])).stdout,
  );
  assert.equal(all.entries.length, 27);
  assert.equal(all.truncated, false);
  await Deno.remove(root, { recursive: true });
});

Deno.test("state log --address shows only the entries that changed that node", async () => {
  const root = await seededRoot();
  const { code, stdout } = await pravo(["-C", root, "state", "log", "--address", "base", "--json"]);
  assert.equal(code, 0);
  const doc = JSON.parse(stdout);
  assert.equal(doc.address, "base");
  assert.deepEqual(doc.entries.map((e: { id: number }) => e.id), [2, 1]);
  const pet = await pravo(["-C", root, "state", "log", "--address", "pet", "--limit", "5"]);
  assert.match(pet.stdout, /^#1 /);
  assert.doesNotMatch(pet.stdout, /#2 /);
  const none = await pravo(["-C", root, "state", "log", "--address", "nowhere"]);
  assert.equal(none.code, 0);
  assert.equal(none.stdout, "The transaction log has no entries that changed nowhere.\n");
  await Deno.remove(root, { recursive: true });
});

Deno.test("state log shows the transactions of one run as one entry, with the serials they span", async () => {
  const root = await seededRoot();
  const store = await storeOf(root);
  const meta = { actor: "ci", reason: "roll out", command: "apply", planId: "p-1", run: "r-1" };
  for (const address of ["one", "two", "three"]) {
    await store.transaction(meta, async (tx) => {
      await put(tx, record({ address, attributes: { result: 1 } }));
    });
  }
  // Another run of the same plan id is another entry.
  await store.transaction({ ...meta, run: "r-2" }, async (tx) => {
    await put(tx, record({ address: "four", attributes: { result: 1 } }));
  });
  await store.close();
  const human = await pravo(["-C", root, "state", "log", "--limit", "2"]);
  assert.equal(human.code, 0, human.stderr);
  const lines = human.stdout.split("\n");
  assert.match(lines[0], /^#6 {2}\S+Z {2}serial 6 {2}apply {2}by ci: roll out {2}\(plan p-1\)$/);
  assert.equal(lines[1], "    + four (create)");
  assert.match(lines[2], /^#5 {2}\S+Z {2}serials 3-5 {2}apply {2}by ci: roll out {2}\(plan p-1\)$/);
  assert.deepEqual(lines.slice(3, 6), [
    "    + one (create)",
    "    + two (create)",
    "    + three (create)",
  ]);
  assert.match(human.stdout, /\n2 older entries not shown; pass --limit 4/);
  const doc = JSON.parse((await pravo(["-C", root, "state", "log", "--json"])).stdout);
  assert.equal(doc.total, 4);
  assert.equal(doc.entries[1].first_serial, 3);
  assert.equal(doc.entries[1].serial, 5);
  assert.ok(doc.entries[1].started_at <= doc.entries[1].at);
  assert.deepEqual(doc.entries[1].changes.map((c: { address: string }) => c.address), [
    "one",
    "two",
    "three",
  ]);
  // Only the entries that changed an address: the run's, with that change alone.
  const two = JSON.parse(
    (await pravo(["-C", root, "state", "log", "--json", "--address", "two"])).stdout,
  );
  assert.equal(two.entries.length, 1);
  assert.equal(two.entries[0].serial, 4);
  await Deno.remove(root, { recursive: true });
});
