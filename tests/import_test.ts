/**
 * `pravo import ADDR ID` through the real pravo: every built-in type that
 * Terraform's providers import, with their ID formats, followed by a plan
 * that is a no-op; the refusals (twice, undeclared, not importable, a bad
 * ID, a state lock held by another process); the log entry with the actor
 * and the reason; a password's ID never printed nor logged.
 */

import assert from "node:assert/strict";
import { makeRoot, pravo, records, whileLocked } from "./_pravo.ts";
import { BACKENDS, stateFlags, stateTest } from "./_pg.ts";
import { openStore } from "../lib/state/open.ts";

const ALL = `package demo

import (
	rnd "pravo.dev/providers/hashicorp/random"
	tm "pravo.dev/providers/hashicorp/time"
)

$random: rnd.#Provider
$time: tm.#Provider

int: $random.#Resource.random_integer & {min: 1, max: 50000, keepers: {listener: "arn-1"}}
str: $random.#Resource.random_string & {length: 6, special: false}
pw: $random.#Resource.random_password & {length: 12}
rid: $random.#Resource.random_id & {byte_length: 4, prefix: "my-prefix-"}
uuid: $random.#Resource.random_uuid & {}
bytes: $random.#Resource.random_bytes & {length: 16}
st: $time.#Resource.time_static & {}
off: $time.#Resource.time_offset & {offset_days: 7}
rot: $time.#Resource.time_rotating & {rotation_days: 30}
nap: $time.#Resource.time_sleep & {create_duration: "1ms"}
pet: $random.#Resource.random_pet & {}
`;

const IDS: [string, string][] = [
  ["int", "15390,1,50000"],
  ["str", "abc123"],
  ["pw", "s3cret-Value"],
  ["rid", "my-prefix-,p-9hUg"],
  ["uuid", "aabbccdd-eeff-0011-2233-445566778899"],
  ["bytes", "8/fu3q+2DcgSJ19i0jZ5Cw=="],
  ["st", "2020-02-12T06:36:13Z"],
  ["off", "2020-02-12T06:36:13Z,0,0,7,0,0,0"],
  ["rot", "2099-02-12T06:36:13Z,0,0,30,0,0"],
  ["nap", "1ms,"],
];

/** Every file under a folder. */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) out.push(...await filesUnder(path));
    else if (e.isFile) out.push(path);
  }
  return out;
}

async function root(): Promise<string> {
  const dir = await makeRoot({ "main.cue": ALL });
  assert.equal((await pravo(dir, ["init"])).code, 0);
  return dir;
}

Deno.test("pravo import brings in each importable built-in type; the plan after it is a no-op", async () => {
  const dir = await root();
  for (const [addr, id] of IDS) {
    const r = await pravo(dir, ["import", addr, id, "--actor", "ops", "--reason", "adopt"]);
    assert.equal(r.code, 0, `${addr}: ${r.stderr}`);
    assert.match(r.stdout, new RegExp(`^${addr}: imported `));
    assert.match(r.stdout, /Import successful!/);
  }
  const state = await records(dir);
  assert.equal(state.get("int")!.attributes.result, 15390);
  assert.deepEqual(state.get("int")!.attributes.keepers, { listener: "arn-1" });
  assert.equal(state.get("rid")!.attributes.b64_url, "my-prefix-p-9hUg");
  assert.equal(state.get("rot")!.attributes.rotation_rfc3339, "2099-03-14T06:36:13Z");
  assert.deepEqual(state.get("pw")!.sensitivePaths.map((p) => p.join(".")).sort(), [
    "bcrypt_hash",
    "result",
  ]);
  // pet cannot be imported: the plan creates it, and nothing else.
  const plan = await pravo(dir, ["plan", "--json"]);
  assert.equal(plan.code, 2, plan.stderr);
  const doc = JSON.parse(plan.stdout);
  assert.deepEqual(
    doc.nodes.map((n: { address: string; action: string }) => [n.address, n.action]),
    [["pet", "create"]],
  );
  assert.equal(doc.summary.unchanged, IDS.length);

  // Each import is in the log, with who and why.
  const log = JSON.parse((await pravo(dir, ["state", "log", "--json", "--limit", "0"])).stdout);
  const imports = log.entries.filter((e: { command: string }) => e.command === "import");
  assert.equal(imports.length, IDS.length);
  for (const e of imports) {
    assert.equal(e.actor, "ops");
    assert.equal(e.reason, "adopt");
    assert.equal(e.changes[0].action, "import");
    assert.equal(e.changes[0].before, null);
  }
});

Deno.test("pravo import of a password prints, logs and stores its value nowhere in clear", async () => {
  const dir = await root();
  const secret = "s3cret-Value";
  const r = await pravo(dir, ["import", "pw", secret, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).imported.id, "(sensitive)");
  const human = await pravo(dir, ["import", "bytes", "8/fu3q+2DcgSJ19i0jZ5Cw=="]);
  assert.match(human.stdout, /from ID \(sensitive value\)/);
  for (const out of [r.stdout, r.stderr, human.stdout]) assert.ok(!out.includes(secret));
  const log = await pravo(dir, ["state", "log", "--json"]);
  assert.ok(!log.stdout.includes(secret), "the log holds the password");
  const show = await pravo(dir, ["state", "show", "pw"]);
  assert.ok(!show.stdout.includes(secret));
  for (const file of await filesUnder(`${dir}/.pravo`)) {
    const bytes = await Deno.readFile(file);
    assert.ok(!new TextDecoder().decode(bytes).includes(secret), `${file} holds it`);
  }
});

Deno.test("pravo import refuses twice, undeclared, unimportable and malformed, and writes nothing", async () => {
  const dir = await root();
  assert.equal((await pravo(dir, ["import", "int", "7,1,50000"])).code, 0);
  const again = await pravo(dir, ["import", "int", "8,1,50000"]);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /Error: int is already in the state/);
  assert.match(again.stderr, /pravo state rm int/);

  const typo = await pravo(dir, ["import", "innt", "7,1,50000"]);
  assert.equal(typo.code, 1);
  assert.match(typo.stderr, /innt is not declared in the root/);
  assert.match(typo.stderr, /did you mean "int"\?/);
  assert.match(typo.stderr, /the node must be declared before an object is imported/);

  const pet = await pravo(dir, ["import", "pet", "wise-lemur"]);
  assert.equal(pet.code, 1);
  assert.match(pet.stderr, /random_pet cannot be imported/);
  assert.match(pet.stderr, /as Terraform's does not/);

  const bad = await pravo(dir, ["import", "st", "yesterday"]);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /Invalid import ID for time_static/);
  // The ID of a type without secrets is quoted back.
  assert.match(bad.stderr, /"yesterday" is not an RFC 3339 timestamp/);
  assert.match(bad.stderr, /pravo import st 2020-02-12T06:36:13Z/);

  const usage = await pravo(dir, ["import", "int"]);
  assert.equal(usage.code, 64);
  assert.deepEqual([...(await records(dir)).keys()], ["int"]);
  assert.equal((await records(dir)).get("int")!.attributes.result, 7);
});

for (const backend of BACKENDS) {
  stateTest(
    `pravo import on ${backend}: the record, then refused while another process holds the lock`,
    async () => {
      const flags = stateFlags(backend, "import");
      const dir = await makeRoot({ "main.cue": ALL });
      assert.equal((await pravo(dir, ["init", ...flags])).code, 0);
      const ok = await pravo(dir, ["import", "uuid", IDS[4][1], ...flags]);
      assert.equal(ok.code, 0, ok.stderr);
      const store = await openStore({ root: dir, state: flags[1] });
      try {
        await whileLocked(store, async () => {
          const r = await pravo(dir, ["import", "int", "7,1,50000", ...flags]);
          assert.equal(r.code, 4, r.stderr);
          assert.match(r.stderr, /"bob"/);
        });
        assert.deepEqual(await store.listAddresses(), ["uuid"]);
      } finally {
        await store.close();
      }
    },
  );
}

Deno.test("a plan after an import shows what the configuration does not agree with", async () => {
  const dir = await root();
  assert.equal((await pravo(dir, ["import", "int", "15,1,20"])).code, 0);
  const plan = await pravo(dir, ["plan"]);
  assert.equal(plan.code, 2);
  assert.match(plan.stdout, /# int must be replaced/);
  assert.match(plan.stdout, /~ max\s+= 20 -> 50000 # forces replacement/);
});
