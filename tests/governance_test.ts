/**
 * Reservations between actors, `why`, and incremental plans seen from the
 * command line.
 */

import assert from "node:assert/strict";
import { makeRoot, pravo, writeFiles } from "./_pravo.ts";

const ROOT = (a: string, b: string) =>
  `package gov

import loc "pravo.dev/providers/hashicorp/local"

$local: loc.#Provider

a: $local.#Resource.local_file & {filename: "a.txt", content: "${a}"}
b: $local.#Resource.local_file & {filename: "b.txt", content: "${b}"}
`;

Deno.test("one actor reserves; the other's plan and apply that touch the reserved node are refused, unrelated nodes still plan", async () => {
  const root = await makeRoot({ "main.cue": ROOT("a1", "b1") });
  await pravo(root, ["init"]);
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);

  await writeFiles(root, { "main.cue": ROOT("a2", "b1") });
  const reserved = await pravo(root, [
    "--json",
    "--actor",
    "alice",
    "--reason",
    "rotate a",
    "plan",
    "--reserve",
    "--out",
    "alice.plan",
  ]);
  assert.equal(reserved.code, 2, reserved.stderr);
  const doc = JSON.parse(reserved.stdout);
  assert.deepEqual(doc.reservation.addresses, ["a"]);

  // Bob's plan would change a too: refused, naming alice.
  const bob = await pravo(root, ["--actor", "bob", "plan", "--out", "bob.plan"]);
  assert.equal(bob.code, 4, bob.stderr);
  assert.match(bob.stderr, /Reserved by alice/);
  assert.match(bob.stderr, /rotate a/);
  await assert.rejects(Deno.stat(`${root}/bob.plan`));
  const locks = await pravo(root, ["--json", "state", "locks"]);
  assert.equal(JSON.parse(locks.stdout).reservations[0].actor, "alice");
  const why = await pravo(root, ["--actor", "bob", "why", "a"]);
  assert.equal(why.code, 0, why.stderr);
  assert.match(why.stdout, /reserved by alice/);

  // A change to b only is unrelated: bob plans and applies it.
  await writeFiles(root, { "main.cue": ROOT("a1", "b2") });
  const other = await pravo(root, ["--actor", "bob", "plan", "--out", "b.plan"]);
  assert.equal(other.code, 2, other.stderr);
  assert.equal((await pravo(root, ["--actor", "bob", "apply", "b.plan"])).code, 0);

  // Alice's plan is now stale (b moved the state); she plans again, with her reservation held.
  await writeFiles(root, { "main.cue": ROOT("a2", "b2") });
  const stale = await pravo(root, ["--actor", "alice", "apply", "alice.plan"]);
  assert.equal(stale.code, 6);
  assert.equal((await pravo(root, ["--actor", "alice", "plan", "--out", "alice2.plan"])).code, 2);
  // Bob cannot apply through the reservation either, even with a plan that changes a.
  const bobApply = await pravo(root, ["--actor", "bob", "apply", "alice2.plan"]);
  assert.equal(bobApply.code, 4, bobApply.stderr);
  assert.match(bobApply.stderr, /Reserved by alice/);
  // The operator releases it; then anyone may.
  const id =
    JSON.parse((await pravo(root, ["--json", "state", "locks"])).stdout).reservations[0].id;
  const rel = await pravo(root, ["--actor", "operator", "state", "release", id]);
  assert.equal(rel.code, 0, rel.stderr);
  assert.equal((await pravo(root, ["--actor", "bob", "apply", "alice2.plan"])).code, 0);
  assert.equal(await Deno.readTextFile(`${root}/a.txt`), "a2");
  assert.equal((await pravo(root, ["state", "release", id])).code, 1);
});

Deno.test("applying the reserving plan releases the reservation", async () => {
  const root = await makeRoot({ "main.cue": ROOT("a1", "b1") });
  await pravo(root, ["init"]);
  assert.equal(
    (await pravo(root, ["--actor", "alice", "plan", "--reserve", "--out", "p.plan"])).code,
    2,
  );
  assert.equal(
    JSON.parse((await pravo(root, ["--json", "state", "locks"])).stdout).reservations.length,
    1,
  );
  assert.equal((await pravo(root, ["--actor", "alice", "apply", "p.plan"])).code, 0);
  assert.equal(
    JSON.parse((await pravo(root, ["--json", "state", "locks"])).stdout).reservations.length,
    0,
  );
});

Deno.test("why names the changed attribute, the dependency, a requested replace, and a skip", async () => {
  const root = await makeRoot({
    "main.cue": `package why

import rnd "pravo.dev/providers/hashicorp/random"
import loc "pravo.dev/providers/hashicorp/local"

$random: rnd.#Provider
$local: loc.#Provider

n: $random.#Resource.random_integer & {min: 1, max: 9}
// Local files are read on every plan unless they say otherwise: these skip reads for an hour.
f: $local.#Resource.local_file & {filename: "f.txt", content: "n=\\(n.result)", lifecycle: refresh_age: "1h"}
g: $local.#Resource.local_file & {filename: "g.txt", content: "still", lifecycle: refresh_age: "1h"}
`,
  });
  await pravo(root, ["init"]);
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
  const r = await pravo(root, ["--json", "why", "--replace", "n", "n", "f", "g"]);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  const by = Object.fromEntries(doc.nodes.map((x: { address: string }) => [x.address, x]));
  assert.equal(by.n.action, "replace");
  assert.ok(by.n.reasons.some((x: { kind: string }) => x.kind === "requested"));
  assert.equal(by.f.action, "replace");
  const dep = by.f.reasons.find((x: { kind: string }) => x.kind === "dependency");
  assert.deepEqual(dep.dependencies, ["n"]);
  assert.match(dep.detail, /content depends on n \(replace\)/);
  assert.equal(by.g.action, "skipped");
  assert.match(by.g.reasons[0].detail, /unchanged since it was applied/);
  const miss = await pravo(root, ["why", "ff"]);
  assert.equal(miss.code, 1);
  assert.match(miss.stderr, /did you mean "f"\?/);

  // --include-skipped lists g with its address, mode, type and name; --full runs it.
  const inc = JSON.parse((await pravo(root, ["--json", "plan", "--include-skipped"])).stdout);
  assert.deepEqual(inc.skipped.map((s: { address: string }) => s.address).sort(), ["f", "g", "n"]);
  assert.deepEqual(Object.keys(inc.skipped[0]).sort(), ["address", "mode", "name", "type"]);
  const full = JSON.parse((await pravo(root, ["--json", "plan", "--full"])).stdout);
  assert.equal(full.nodes.length, 3);
  assert.equal(full.skipped, undefined);
});
