/**
 * Governance round 3, item 4: `pravo mcp --read-only` writes nothing. An
 * agent on a read-only server calls every tool it is offered (`pravo_plan`
 * with `refresh: "all"` and `pravo_drift` read the real world, which used to
 * record refresh times), and the state is the same to the byte on SQLite
 * and to the row on PostgreSQL; no file of the root changes (SQLite's
 * shared-memory index beside an open database aside: it holds no state).
 *
 * @module
 */

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join, relative } from "node:path";
import postgres from "postgres";
import { call, connect, makeRoot, pravo, text } from "../mcp/_client.ts";
import { appliedRoot, removing } from "../_pravo.ts";
import { PG, pgRoot, stateTest } from "../_pg.ts";

if (PG === "") {
  console.log(
    "tests/adversarial/read_only_test.ts: the PostgreSQL test skipped: PRAVO_TEST_PG names no server (.ci/run starts one)",
  );
}

const MAIN = `package demo

import (
	rnd "pravo.dev/providers/hashicorp/random"
	loc "pravo.dev/providers/hashicorp/local"
)

$random: rnd.#Provider
$local:  loc.#Provider

base: $random.#Resource.random_integer & {min: 1, max: 9, seed: "base"}
pw:   $random.#Resource.random_password & {length: 12}
note: $local.#Resource.local_file & {filename: "note.txt", content: "number \\(base.result)\\n"}
seen: $local.#Data.local_file & {filename: "main.cue"}
outputs: n: base.result
`;

/** Every file of the root and a digest of its bytes; SQLite's -shm index aside. */
async function files(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const path = join(dir, e.name);
      if (e.isDirectory) await walk(path);
      else if (e.isFile) {
        const bytes = await Deno.readFile(path);
        // The shared-memory index of an open WAL database, and an empty log.
        if (e.name.endsWith("-shm") || (e.name.endsWith("-wal") && bytes.length === 0)) continue;
        out[relative(root, path)] = createHash("sha256").update(bytes).digest("hex");
      }
    }
  };
  await walk(root);
  return out;
}

/** Calls every tool a read-only server offers, as an agent would. */
async function everyTool(root: string, env: Record<string, string> = {}): Promise<string[]> {
  const s = await connect(root, { args: ["--read-only"], env });
  const called: string[] = [];
  try {
    const offered = (await s.client.listTools()).tools.map((t) => t.name);
    assert.ok(!offered.includes("pravo_apply_plan"));
    const args: Record<string, Record<string, unknown>> = {
      pravo_plan: { refresh: "all" },
      pravo_show_plan: { planfile: "saved.plan" },
      pravo_schema: { types: ["random_integer"] },
      pravo_why: { addrs: ["note"] },
      pravo_state_query: { expression: "nodes.base.attributes.result" },
      pravo_state_show: { addr: "base" },
      pravo_dependents: { addr: "base" },
    };
    for (const name of offered) {
      const r = await call(s, name, args[name] ?? {});
      const code = r.structuredContent?.exit_code;
      assert.ok(code === 0 || code === 2, `${name}: exit ${code}: ${text(r)}`);
      called.push(name);
    }
    // A second plan with refresh, and drift: both read the real world.
    for (const name of ["pravo_plan", "pravo_drift"]) {
      const r = await call(s, name, args[name] ?? {});
      assert.equal(r.structuredContent?.exit_code, 0, `${name}: ${text(r)}`);
    }
  } finally {
    await s.close();
  }
  return called.sort();
}

Deno.test("adversarial: a read-only session that calls every tool leaves the SQLite state and the root byte for byte as they were", async () => {
  const root = await appliedRoot({ "main.cue": MAIN });
  await using _root = removing(root);
  assert.equal((await pravo(root, ["plan", "--out", "saved.plan"])).code, 0);
  const before = await files(root);
  const called = await everyTool(root);
  assert.equal(called.length, 12, called.join(", "));
  assert.deepEqual(await files(root), before);
  // A writable server does record the refresh of a drift: the test would see a write.
  const s = await connect(root);
  try {
    assert.equal((await call(s, "pravo_drift", {})).structuredContent?.exit_code, 0);
  } finally {
    await s.close();
  }
  assert.notDeepEqual(await files(root), before);
});

stateTest(
  "adversarial: a read-only session that calls every tool leaves the PostgreSQL rows as they were",
  async () => {
    const key = `test/read-only/${crypto.randomUUID()}`;
    const url = pgRoot(key);
    const root = await makeRoot({ "main.cue": MAIN });
    const sql = postgres(PG, { max: 1, onnotice: () => {} });
    /** Every row of this root's state, as JSON, in a stable order. */
    const rows = async () => {
      const [r] = await sql`SELECT * FROM pravo.roots WHERE key = ${key}`;
      return JSON.stringify({
        root: r,
        records: await sql`SELECT * FROM pravo.records WHERE root_id = ${r.id} ORDER BY address`,
        log: await sql`SELECT * FROM pravo.log_entries WHERE root_id = ${r.id} ORDER BY id`,
        changes: await sql`
          SELECT c.* FROM pravo.log_changes c JOIN pravo.log_entries e ON e.id = c.entry_id
          WHERE e.root_id = ${r.id} ORDER BY c.entry_id, c.seq`,
        reservations: await sql`
          SELECT * FROM pravo.reservations WHERE root_id = ${r.id} ORDER BY id`,
      });
    };
    try {
      const env = { PRAVO_STATE: url };
      assert.equal((await pravo(root, ["init"], { env })).code, 0);
      const applied = await pravo(root, ["apply", "-auto-approve"], { env });
      assert.equal(applied.code, 0, applied.stderr);
      assert.equal((await pravo(root, ["plan", "--out", "saved.plan"], { env })).code, 0);
      const before = await rows();
      const beforeFiles = await files(root);
      const called = await everyTool(root, env);
      assert.equal(called.length, 12, called.join(", "));
      assert.equal(await rows(), before);
      assert.deepEqual(await files(root), beforeFiles);
    } finally {
      await sql.end();
      await Deno.remove(root, { recursive: true });
    }
  },
  { pgOnly: true },
);
