/**
 * Nodes of an aliased provider configuration (a second `$fake_west` beside
 * `$fake`), through the real pravo, on the fake provider whose things live
 * at the endpoint of the configuration that made them (as objects in an AWS
 * region): a refresh before the plan's first evaluation and `drift` read
 * each node with its own configuration; the record keeps it, an apply
 * writes it into a record that lacks it, and a node removed from the
 * configuration is deleted with it.
 *
 * @module
 */

import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { FAKE_HEADER, fakeRoot } from "./_roots.ts";

const MAIN = (west = true, config = true) =>
  `${FAKE_HEADER}
${config ? '$fake_west: fake.#Provider & {endpoint: "http://west.fake.example"}' : ""}

east: $fake.#Resource.fake_thing & {name: "east"}
${west ? 'west: $fake_west.#Resource.fake_thing & {name: "west"}' : ""}
`;

/** The provider configuration the record at `address` names, as stored. */
function recordedInstance(root: string, address: string): string | undefined {
  const db = new DatabaseSync(`${root}/.pravo/state.db`, { readOnly: true });
  try {
    const row = db.prepare("SELECT provider_data FROM records WHERE address = ?").get(address);
    assert.ok(row, `no record of ${address}`);
    return JSON.parse(String(row.provider_data ?? "{}")).provider_instance;
  } finally {
    db.close();
  }
}

/** The names of the things the fake provider holds, with the endpoint each lives at. */
async function things(state: string): Promise<Record<string, string>> {
  const saved = JSON.parse(await Deno.readTextFile(state)) as {
    things: { id: string; name: string }[];
    homes: Record<string, string>;
  };
  return Object.fromEntries(saved.things.map((t) => [t.name, saved.homes[t.id]]));
}

Deno.test("a node of an aliased provider configuration is refreshed, drift-read and deleted with its own configuration", async (t) => {
  await using r = await fakeRoot({ "main.cue": MAIN() });
  await r.expect(["apply", "-auto-approve"]);
  assert.deepEqual(await things(r.mirror.state), {
    east: "http://fake.example",
    west: "http://west.fake.example",
  });

  await t.step("the record keeps the configuration that made the object", () => {
    assert.equal(recordedInstance(r.root, "west"), "$fake_west");
    assert.equal(recordedInstance(r.root, "east"), "$fake");
  });

  await t.step(
    "plan --refresh all reads each node with its configuration: no changes",
    async () => {
      const plan = await r.expect(["plan", "--refresh", "all", "--json"], 0);
      const doc = JSON.parse(plan.stdout);
      assert.deepEqual(
        doc.nodes.map((n: { address: string; action: string }) => [n.address, n.action]),
        [["east", "no-op"], ["west", "no-op"]],
      );
    },
  );

  await t.step("drift reads each node with its configuration: nothing drifted", async () => {
    const drift = await r.expect(["--json", "drift"], 0);
    const doc = JSON.parse(drift.stdout);
    assert.equal(doc.summary.drifted, 0, drift.stdout);
    assert.equal(doc.summary.unchanged, 2, drift.stdout);
  });

  await t.step(
    "a record written before pravo kept its configuration gets it from the next apply",
    async () => {
      const db = new DatabaseSync(`${r.root}/.pravo/state.db`);
      db.prepare(
        "UPDATE records SET provider_data = json_remove(provider_data, '$.provider_instance') " +
          "WHERE address = 'west'",
      ).run();
      db.close();
      assert.equal(recordedInstance(r.root, "west"), undefined);
      // Still read with its node's configuration, the record saying nothing.
      await r.expect(["plan", "--refresh", "all"], 0);
      await r.expect(["apply", "-auto-approve"]);
      assert.equal(recordedInstance(r.root, "west"), "$fake_west");
    },
  );

  await t.step(
    "a node removed with its configuration is refused, not deleted with another",
    async () => {
      await Deno.writeTextFile(`${r.root}/main.cue`, MAIN(false, false));
      // Refused by the plan, with a refresh that reads it or without.
      for (const args of [["plan"], ["plan", "--refresh", "all"]]) {
        const plan = await r.run(args);
        assert.equal(plan.code, 1, plan.stdout + plan.stderr);
        const said = plan.stderr.match(/The provider configuration \$fake_west is not declared/g);
        assert.equal(said?.length, 1, plan.stderr);
      }
      const apply = await r.run(["apply", "-auto-approve"]);
      assert.equal(apply.code, 1, apply.stdout + apply.stderr);
      assert.match(apply.stderr, /pravo state rm west/);
      assert.equal(recordedInstance(r.root, "west"), "$fake_west");
      assert.deepEqual(Object.keys(await things(r.mirror.state)).sort(), ["east", "west"]);
    },
  );

  await t.step(
    "a node removed from the configuration is deleted with the configuration that made it",
    async () => {
      await Deno.writeTextFile(`${r.root}/main.cue`, MAIN(false));
      // Through a saved plan: its delete carries the configuration the record names.
      const saved = ["plan", "--refresh", "all", "--json", "--out", "gone.plan"];
      const plan = JSON.parse((await r.expect(saved, 2)).stdout);
      const west = plan.nodes.find((n: { address: string }) => n.address === "west");
      assert.equal(west.action, "delete", JSON.stringify(west));
      await r.expect(["apply", "gone.plan"]);
      assert.deepEqual(await things(r.mirror.state), { east: "http://fake.example" });
    },
  );
});
