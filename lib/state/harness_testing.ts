/**
 * The set-up of the tests that run one contract on both stores: a
 * {@linkcode StoreHarness} on a new SQLite file, or on a new root of a
 * PostgreSQL database (`PRAVO_TEST_PG`, as `.ci/run` sets it), each with
 * what a test needs to reach the rows underneath the store.
 *
 * @module
 */

import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import postgres from "postgres";
import { concat } from "../bytes.ts";
import type { PostgresLocation } from "../config/location.ts";
import { postgresLocation } from "./open.ts";
import { MIGRATIONS } from "./sqlite/schema.ts";
import { SqliteStore } from "./sqlite/store.ts";
import type { StoreHarness } from "./store_testing.ts";

/** The PostgreSQL server of the tests; empty when there is none. */
export const PG = Deno.env.get("PRAVO_TEST_PG") ?? "";

/** A schema of its own for a test file's rows, dropped by {@linkcode dropSchemaTest}. */
export function testSchema(): string {
  return `pravo_test_${crypto.randomUUID().slice(0, 8)}`;
}

/** The location of `root`'s state in `schema` of the tests' server. */
export function pgWhere(root: string, schema: string): PostgresLocation {
  return postgresLocation(PG, { root, schema });
}

/** A connection to the tests' server as its administrator, outside any store. */
export function pgAdmin(): postgres.Sql {
  return postgres(PG, { max: 1, onnotice: () => {} });
}

/** Registers, last in a file, the test that drops the file's schema. */
export function dropSchemaTest(name: string, schema: string): void {
  Deno.test({
    name,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const sql = pgAdmin();
      try {
        await sql.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await sql.end();
      }
    },
  });
}

/** A state in a new file `.pravo/state.db` of a new folder. */
export async function sqliteHarness(): Promise<StoreHarness> {
  const dir = await Deno.makeTempDir({ prefix: "pravo-state-" });
  const path = join(dir, ".pravo", "state.db");
  // deno-lint-ignore require-await
  const raw = async <T>(fn: (db: DatabaseSync) => T): Promise<T> => {
    const db = new DatabaseSync(path);
    try {
      return fn(db);
    } finally {
      db.close();
    }
  };
  return {
    open: (opts = {}) => SqliteStore.open(path, { create: true, ...opts }),
    async rawBytes() {
      const parts: Uint8Array[] = [];
      for (const suffix of ["", "-wal", "-journal", "-shm"]) {
        try {
          parts.push(await Deno.readFile(path + suffix));
        } catch (e) {
          if (!(e instanceof Deno.errors.NotFound)) throw e;
        }
      }
      return concat(parts);
    },
    exec: (sql) => raw((db) => void db.exec(sql)),
    schemaVersion: () =>
      raw((db) =>
        String(db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()?.value)
      ),
    setSchemaVersion: (v) =>
      raw((db) =>
        void db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(v))
      ),
    async writeSchema1(entry) {
      await Deno.mkdir(join(dir, ".pravo"));
      await raw((db) => {
        db.exec(MIGRATIONS[0].sql);
        const put = db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)");
        put.run("schema_version", "1");
        put.run("lineage", "l-1");
        put.run("serial", "1");
        put.run("redaction_key", "k");
        put.run("created_at", "2030-01-01T00:00:00.000Z");
        db.prepare(
          `INSERT INTO log_entries (serial, at, actor, reason, command, plan_id)
           VALUES (1, ?, ?, ?, ?, ?)`,
        ).run("2030-01-01T00:00:00.000Z", entry.actor, entry.reason, "apply", entry.planId);
      });
    },
    logTampering: [
      "UPDATE log_entries SET actor = 'mallory'",
      "DELETE FROM log_changes",
      "DELETE FROM log_entries",
    ],
    cleanup: () => Deno.remove(dir, { recursive: true }),
  };
}

/**
 * A new root in `schema` of the tests' server; with `alone`, in a schema of
 * its own (a test that changes the schema itself), dropped at cleanup.
 */
export function postgresHarness(schema: string, opts: { alone?: boolean } = {}): StoreHarness {
  const root = `suite/${crypto.randomUUID()}`;
  const own = opts.alone ? `${schema}_${crypto.randomUUID().slice(0, 8)}` : schema;
  const raw = async <T>(fn: (sql: postgres.Sql) => Promise<T>): Promise<T> => {
    const sql = pgAdmin();
    try {
      await sql.unsafe(`SET search_path = "${own}"`);
      return await fn(sql);
    } finally {
      await sql.end();
    }
  };
  return {
    open: async (o = {}) => {
      const { PostgresStore } = await import("./postgres/store.ts");
      return await PostgresStore.open(pgWhere(root, own), { create: true, ...o });
    },
    // Every row the database keeps for this root, as text.
    rawBytes: () =>
      raw(async (sql) => {
        const [r] = await sql`SELECT id FROM roots WHERE key = ${root}`;
        const rows = await sql`
          SELECT row_to_json(x)::text AS t FROM roots x WHERE id = ${r.id}
          UNION ALL SELECT row_to_json(x)::text FROM records x WHERE root_id = ${r.id}
          UNION ALL SELECT row_to_json(x)::text FROM log_entries x WHERE root_id = ${r.id}
          UNION ALL SELECT row_to_json(c)::text FROM log_changes c
            JOIN log_entries e ON e.id = c.entry_id WHERE e.root_id = ${r.id}
          UNION ALL SELECT row_to_json(x)::text FROM locks x WHERE root_id = ${r.id}
          UNION ALL SELECT row_to_json(x)::text FROM reservations x WHERE root_id = ${r.id}`;
        return new TextEncoder().encode(rows.map((x) => x.t).join("\n"));
      }),
    exec: (stmt) => raw(async (sql) => void await sql.unsafe(stmt)),
    schemaVersion: () =>
      raw(async (sql) =>
        String((await sql`SELECT value FROM meta WHERE key = 'schema_version'`)[0].value)
      ),
    setSchemaVersion: (v) =>
      raw(async (sql) =>
        void await sql`UPDATE meta SET value = ${String(v)} WHERE key = 'schema_version'`
      ),
    writeSchema1: async (entry) => {
      const { PG_MIGRATIONS } = await import("./postgres/schema.ts");
      const sql = pgAdmin();
      try {
        await sql.unsafe(`CREATE SCHEMA "${own}"`);
        await sql.unsafe(`SET search_path = "${own}"`);
        await sql.unsafe("CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL)");
        await sql.unsafe(PG_MIGRATIONS[0].sql);
        await sql`INSERT INTO meta (key, value) VALUES ('schema_version', '1')`;
        const [r] = await sql`
          INSERT INTO roots (key, lineage, serial, redaction_key, created_at)
          VALUES (${root}, ${crypto.randomUUID()}, 1, 'k', now()) RETURNING id`;
        await sql`
          INSERT INTO log_entries (root_id, serial, at, actor, reason, command, plan_id)
          VALUES (${r.id}, 1, now(), ${entry.actor}, ${entry.reason}, 'apply', ${entry.planId})`;
      } finally {
        await sql.end();
      }
    },
    logTampering: [
      "UPDATE log_entries SET actor = 'mallory'",
      "DELETE FROM log_changes",
      "DELETE FROM log_entries",
      "TRUNCATE log_changes",
    ],
    async cleanup() {
      if (own === schema) return; // the file's schema goes at the end of the file
      const sql = pgAdmin();
      try {
        await sql.unsafe(`DROP SCHEMA IF EXISTS "${own}" CASCADE`);
      } finally {
        await sql.end();
      }
    },
  };
}
