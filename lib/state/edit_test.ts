/**
 * The state edits (`state mv`, `state rm`, and the moves a `moved` entry
 * makes) on both stores: SQLite always, PostgreSQL when `PRAVO_TEST_PG`
 * names a server (as `.ci/run` does).
 */

import assert from "node:assert/strict";
import { DiagnosticsError } from "../diag/diag.ts";
import {
  dropSchemaTest,
  PG,
  postgresHarness,
  sqliteHarness,
  testSchema,
} from "./harness_testing.ts";
import { lockFor, record, type StoreHarness } from "./store_testing.ts";
import type { RecordInput, StateStore, TxMeta } from "./store.ts";
import { addressLabels, forgetRecords, formatAddress, moveRecords, planMoves } from "./edit.ts";

const META: TxMeta = { actor: "alice", reason: "tidy up", command: "state mv" };

/** A password's record: its result is secret. */
function rec(address: string, extra: Partial<RecordInput> = {}): RecordInput {
  return record(address, {
    type: "random_password",
    attributes: { length: 8, result: `secret-${address}`, id: "none" },
    sensitivePaths: [["result"]],
    configDigest: `d-${address}`,
    ...extra,
  });
}

async function seed(s: StateStore, records: RecordInput[]): Promise<void> {
  await s.transaction({ actor: "t", reason: "", command: "apply" }, async (tx) => {
    for (const r of records) await tx.putRecord(r);
  });
}

Deno.test("addressLabels() reads dotted and quoted labels, and refuses what is not an address", () => {
  assert.deepEqual(addressLabels("net.web.cert"), ["net", "web", "cert"]);
  assert.deepEqual(addressLabels('sites."my site".cert'), ["sites", "my site", "cert"]);
  assert.equal(formatAddress(["sites", "my site"]), 'sites."my site"');
  for (const bad of ["", "a..b", "a.", "1x", "a b", '"open']) {
    assert.equal(addressLabels(bad), undefined, bad);
  }
});

type Opener = () => Promise<StateStore>;

function editSuite(name: string, make: () => Promise<StoreHarness>) {
  const test = (what: string, fn: (open: Opener) => Promise<void>) =>
    Deno.test({
      name: `${name}: ${what}`,
      sanitizeResources: false,
      sanitizeOps: false,
      fn: async () => {
        const h = await make();
        try {
          await fn(() => h.open());
        } finally {
          await h.cleanup();
        }
      },
    });

  test("moveRecords() moves a record, keeping its values, times and secrets, in one logged transaction", async (open) => {
    const s = await open();
    await seed(s, [rec("readme"), rec("user", { dependencies: ["readme"] })]);
    const before = (await s.getRecord("readme"))!;
    const serial = (await s.identity()).serial;
    const { moves } = await moveRecords(s, "readme", "docs.readme_file", META);
    assert.deepEqual(moves, [{ from: "readme", to: "docs.readme_file" }]);
    assert.equal(await s.getRecord("readme"), undefined);
    const after = (await s.getRecord("docs.readme_file"))!;
    assert.deepEqual(after.attributes, before.attributes); // the secret opens under its new address
    assert.equal(after.createdAt, before.createdAt);
    assert.equal(after.refreshedAt, before.refreshedAt);
    assert.equal(after.configDigest, before.configDigest);
    assert.deepEqual((await s.getRecord("user"))!.dependencies, ["docs.readme_file"]);
    assert.equal((await s.identity()).serial, serial + 1);
    const [entry] = await s.readLog({ limit: 1 });
    assert.equal(entry.actor, "alice");
    assert.equal(entry.reason, "tidy up");
    assert.equal(entry.command, "state mv");
    assert.deepEqual(entry.changes.map((c) => [c.address, c.action, c.before, c.after]), [
      ["readme", "move", null, { moved_to: "docs.readme_file" }],
      ["docs.readme_file", "move", { moved_from: "readme" }, null],
    ]);
    assert.equal((await s.readLog({ address: "readme" }))[0].id, entry.id);
    await s.close();
  });

  test("moveRecords() moves every record under a struct, and refuses a clash", async (open) => {
    const s = await open();
    await seed(s, [rec("net.web"), rec("net.db"), rec("other")]);
    const { moves } = await moveRecords(s, "net", "network", META);
    assert.deepEqual(moves.map((m) => m.to).sort(), ["network.db", "network.web"]);
    assert.deepEqual(await s.listAddresses(), ["network.db", "network.web", "other"]);
    const clash = await moveRecords(s, "other", "network.db", META).catch((e) => e);
    assert.ok(clash instanceof DiagnosticsError);
    assert.equal(clash.kind, "error");
    assert.match(clash.diagnostics[0].detail, /already holds a random_password at network\.db/);
    const nest = await moveRecords(s, "other", "network.db.inner", META).catch((e) => e);
    assert.match(nest.diagnostics[0].detail, /cannot lie inside another node/);
    const none = await moveRecords(s, "network.webb", "x", META).catch((e) => e);
    assert.equal(none.diagnostics[0].summary, 'No record at "network.webb"');
    assert.match(none.diagnostics[0].detail, /did you mean "network\.web"\?/);
    assert.deepEqual(await s.listAddresses(), ["network.db", "network.web", "other"]);
    await s.close();
  });

  test("forgetRecords() forgets all the addresses or none, logs them as forget, secrets redacted", async (open) => {
    const s = await open();
    await seed(s, [rec("a"), rec("b.one"), rec("b.two"), rec("c")]);
    const refused = await forgetRecords(s, ["a", "nope"], { ...META, command: "state rm" })
      .catch((e) => e);
    assert.ok(refused instanceof DiagnosticsError);
    assert.deepEqual(await s.listAddresses(), ["a", "b.one", "b.two", "c"]);
    const dry = await forgetRecords(s, ["b"], { ...META, command: "state rm" }, { dryRun: true });
    assert.deepEqual(dry.forgotten.map((r) => r.address), ["b.one", "b.two"]);
    assert.deepEqual(await s.listAddresses(), ["a", "b.one", "b.two", "c"]);
    const done = await forgetRecords(s, ["a", "b"], { ...META, command: "state rm" });
    assert.deepEqual(done.forgotten.map((r) => r.address), ["a", "b.one", "b.two"]);
    assert.deepEqual(await s.listAddresses(), ["c"]);
    const [entry] = await s.readLog({ limit: 1 });
    assert.equal(entry.command, "state rm");
    assert.deepEqual(entry.changes.map((c) => [c.address, c.action, c.after]), [
      ["a", "forget", null],
      ["b.one", "forget", null],
      ["b.two", "forget", null],
    ]);
    const logged = JSON.stringify(entry.changes);
    assert.ok(!logged.includes("secret-a"), "a forgotten secret is redacted in the log");
    assert.ok("$sensitive" in (entry.changes[0].before!.result as object));
    await s.close();
  });

  test("state edits are refused while another process holds the state lock", async (open) => {
    const holder = await open();
    const s = await open();
    await seed(s, [rec("a"), rec("b")]);
    const lock = await holder.acquireLock(lockFor("bob", { reason: "applying" }));
    try {
      for (
        const attempt of [
          () => moveRecords(s, "a", "z", META),
          () => forgetRecords(s, ["b"], { ...META, command: "state rm" }),
        ]
      ) {
        const err = await attempt().catch((e) => e);
        assert.ok(err instanceof DiagnosticsError, String(err));
        assert.equal(err.kind, "locked");
        assert.match(err.diagnostics[0].detail, /"bob"/);
      }
    } finally {
      await holder.releaseLock(lock);
    }
    assert.deepEqual(await s.listAddresses(), ["a", "b"]);
    await s.close();
    await holder.close();
  });

  test("state edits are refused for addresses someone else reserved", async (open) => {
    const s = await open();
    await seed(s, [rec("a")]);
    await s.createReservation({
      addresses: ["a"],
      actor: "carol",
      reason: "big change",
      planId: "p1",
      ttlMs: 60_000,
    });
    const err = await moveRecords(s, "a", "b", META).catch((e) => e);
    assert.ok(err instanceof DiagnosticsError);
    assert.equal(err.kind, "locked");
    assert.match(err.diagnostics[0].summary, /Reserved by carol/);
    assert.deepEqual(await s.listAddresses(), ["a"]);
    await s.close();
  });
}

Deno.test("planMoves() maps each record under FROM to its place under TO", () => {
  const records = ["a.x", "a.y.z", "b"].map((address) => ({
    ...rec(address),
    createdAt: "",
    updatedAt: "",
    refreshedAt: "",
  }));
  assert.deepEqual(planMoves(records, "a", 'n."new a"'), [
    { from: "a.x", to: 'n."new a".x' },
    { from: "a.y.z", to: 'n."new a".y.z' },
  ]);
  assert.throws(() => planMoves(records, "b", "b"), /Nothing to move|DiagnosticsError/);
});

editSuite("SqliteStore", sqliteHarness);

if (PG === "") {
  Deno.test({
    name: "PostgresStore: the state edits (needs PRAVO_TEST_PG)",
    ignore: true,
    fn() {},
  });
} else {
  const schema = testSchema();
  editSuite("PostgresStore", () => Promise.resolve(postgresHarness(schema)));
  dropSchemaTest("PostgresStore: the state edits' schema is dropped", schema);
}
