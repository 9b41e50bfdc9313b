/**
 * Issue 10, beyond the list: records an agent plants in a SQLite state that
 * lies inside the root (its editor can write `.pravo/state.db`). pravo does
 * not tell a forged record from its own (keep the state outside the root for
 * that), but a forged record must not make it read or delete a file outside
 * the root, nor print a secret. These held on main; the tests keep them.
 *
 * @module
 */

import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { call, connect, makeRoot, pravo, text } from "../mcp/_client.ts";
import { records } from "../_pravo.ts";

const ROOT = `package demo

import rnd "pravo.dev/providers/hashicorp/random"

$random: rnd.#Provider

pw: $random.#Resource.random_password & {length: 16}
`;

function plant(root: string, address: string, type: string, provider: string, attrs: unknown) {
  const db = new DatabaseSync(join(root, ".pravo", "state.db"));
  try {
    const old = "2020-01-01T00:00:00.000Z";
    db.prepare(
      `INSERT INTO records (address, mode, type, provider, attributes, sensitive_paths,
         dependencies, config_digest, created_at, updated_at, refreshed_at, refresh_age)
       VALUES (?, 'managed', ?, ?, ?, '[]', '[]', 'x', ?, ?, ?, '1s')`,
    ).run(address, type, provider, JSON.stringify(attrs), old, old, old);
  } finally {
    db.close();
  }
}

Deno.test("a record planted for a file outside the root: no tool reads it, refreshes it or deletes it", async () => {
  const outside = await Deno.makeTempDir({ prefix: "pravo-outside-" });
  const victim = join(outside, "victim.txt");
  await Deno.writeTextFile(victim, "precious outside content");
  const root = await makeRoot({ "main.cue": ROOT });
  assert.equal((await pravo(root, ["init"])).code, 0);
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
  plant(root, "evil", "local_file", "hashicorp/local", {
    filename: victim,
    content: "x",
    id: "1",
    file_permission: "0777",
    directory_permission: "0777",
  });
  const s = await connect(root, { script: true });
  try {
    const tries: [string, Record<string, unknown>][] = [
      ["pravo_plan", { refresh: "all" }],
      ["pravo_plan", { destroy: true, out: "d.plan" }],
      ["pravo_drift", {}],
      ["pravo_state_show", { addr: "evil" }],
    ];
    for (const [tool, args] of tries) {
      const r = await call(s, tool, args);
      assert.doesNotMatch(text(r), /precious outside content/, `${tool} ${text(r)}`);
    }
    // A destroy plan that names it cannot be saved (the read is refused), and nothing was deleted.
    assert.equal(await Deno.readTextFile(victim), "precious outside content");
  } finally {
    await s.close();
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("a sealed secret copied by the agent into another record, or under another attribute, does not open there", async () => {
  const root = await makeRoot({ "main.cue": ROOT });
  assert.equal((await pravo(root, ["init"])).code, 0);
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
  const password = String((await records(root)).get("pw")!.attributes.result);
  const db = new DatabaseSync(join(root, ".pravo", "state.db"));
  const row = db.prepare("SELECT attributes FROM records WHERE address = 'pw'").get() as {
    attributes: string;
  };
  db.close();
  const sealed = JSON.parse(row.attributes).result;
  assert.ok(sealed.$sealed, "the password is sealed at rest");
  // Into a record whose attribute is shown (a random_string's result is not sensitive).
  plant(root, "copy", "random_string", "hashicorp/random", {
    id: "x",
    length: 16,
    result: sealed,
  });
  const s = await connect(root, { script: true });
  try {
    for (
      const [tool, args] of [
        ["pravo_state_show", { addr: "copy" }],
        ["pravo_state_query", { expression: "nodes" }],
        ["pravo_plan", {}],
        ["pravo_state_log", {}],
      ] as [string, Record<string, unknown>][]
    ) {
      const r = await call(s, tool, args);
      assert.ok(!text(r).includes(password), `${tool} showed the password: ${text(r)}`);
    }
  } finally {
    await s.close();
  }
});
