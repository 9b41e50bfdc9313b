import assert from "node:assert/strict";
import { join } from "node:path";
import { makeRoot, pravo } from "../../tests/_pravo.ts";
import { openStore, withoutPassword } from "../state/open.ts";
import type { StateStore } from "../state/store.ts";

const PG = Deno.env.get("PRAVO_TEST_PG") ?? "";
if (PG === "") {
  console.log(
    "lib/commands/state_migrate_test.ts: the PostgreSQL cases skipped: PRAVO_TEST_PG names no server",
  );
}

const SPEC = `package demo

import rnd "pravo.dev/providers/hashicorp/random"

$random: rnd.#Provider

base: $random.#Resource.random_integer & {min: 1, max: 9, seed: "base"}
pw: $random.#Resource.random_password & {length: 20}
`;

/** A root with applied state, a log holding a sensitive marker, and a reservation. */
async function rootWithState(): Promise<string> {
  const root = await makeRoot({ "main.cue": SPEC });
  assert.equal((await pravo(root, ["init"])).code, 0);
  const a = await pravo(root, ["apply", "-auto-approve"]);
  assert.equal(a.code, 0, a.stderr);
  const p = await pravo(root, ["plan", "--reserve", "--replace", "base", "--out", "r.plan"]);
  assert.equal(p.code, 2, p.stderr);
  return root;
}

async function snapshot(s: StateStore) {
  const id = await s.identity();
  return {
    lineage: id.lineage,
    serial: id.serial,
    records: await s.listRecords(),
    log: (await s.readLog()).map(({ id: _id, ...rest }) => rest),
    reservations: await s.listReservations({ includeExpired: true }),
  };
}

async function stateOf(root: string, state?: string) {
  const s = await openStore({ root, state });
  try {
    return await snapshot(s);
  } finally {
    await s.close();
  }
}

Deno.test("state migrate copies a SQLite state whole, verifies it, and refuses a target that holds one", async () => {
  const root = await rootWithState();
  try {
    const before = await stateOf(root);
    // Who made the plan an entry's apply carried out is part of the log, and of the copy.
    assert.equal(before.log[0].planActor, "test");
    const r = await pravo(root, ["state", "migrate", "--to", "sqlite:copy/state.db", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout);
    assert.equal(doc.verified, true);
    assert.deepEqual(doc.copied, { records: 2, log_entries: 2, reservations: 1 });
    assert.equal(doc.to.path, join(root, "copy", "state.db"));
    assert.deepEqual(await stateOf(root, "sqlite:copy/state.db"), before);
    assert.deepEqual(await stateOf(root), before, "the source is unchanged");
    // The saved plan is still fresh against the copy, and applies there.
    const applied = await pravo(root, ["--state", "sqlite:copy/state.db", "apply", "r.plan"]);
    assert.equal(applied.code, 0, applied.stderr);

    const again = await pravo(root, ["state", "migrate", "--to", "sqlite:copy/state.db"]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /The target already holds a state/);
    const same = await pravo(root, ["state", "migrate", "--to", "sqlite:.pravo/state.db"]);
    assert.equal(same.code, 64);
    assert.match(same.stderr, /already there/);
    const none = await pravo(root, ["state", "migrate"]);
    assert.equal(none.code, 64);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test({
  name: "state migrate: SQLite to PostgreSQL and back, whole, the password never shown",
  ignore: PG === "",
  fn: async () => {
    const root = await rootWithState();
    try {
      const before = await stateOf(root);
      const url = `${PG}?root=migrate/${crypto.randomUUID()}`;
      const password = new URL(PG).password;
      const r = await pravo(root, ["state", "migrate", "--to", url]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /and verified the copy/);
      assert.ok(r.stdout.includes(withoutPassword(url).replace(/:\*\*\*@/, "@").split("?")[0]));
      assert.ok(!(r.stdout + r.stderr).includes(password), "the password is shown");
      assert.deepEqual(await stateOf(root, url), before);

      const twice = await pravo(root, ["state", "migrate", "--to", url]);
      assert.equal(twice.code, 1);
      assert.match(twice.stderr, /The target already holds this root/);
      assert.ok(!twice.stderr.includes(password));
      // The same lineage under another key is refused too.
      const other = await pravo(root, [
        "state",
        "migrate",
        "--to",
        `${PG}?root=other-${crypto.randomUUID()}`,
      ]);
      assert.equal(other.code, 1);
      assert.match(other.stderr, /already holds lineage/);

      // The saved plan applies on PostgreSQL; then back to SQLite, with the log's markers.
      const applied = await pravo(root, ["--state", url, "apply", "r.plan"]);
      assert.equal(applied.code, 0, applied.stderr);
      const onPg = await stateOf(root, url);
      const back = await pravo(root, [
        "--state",
        url,
        "state",
        "migrate",
        "--to",
        "sqlite:back.db",
      ]);
      assert.equal(back.code, 0, back.stderr);
      assert.deepEqual(await stateOf(root, "sqlite:back.db"), onPg);
      assert.equal(onPg.serial, before.serial + 1);
      assert.ok(!JSON.stringify(onPg.log).includes(String(onPg.records[1].attributes.result)));
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
