import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { SCHEMA_VERSION } from "../store.ts";
import { identityOf, migrate, MIGRATIONS, readMeta } from "./schema.ts";

Deno.test("migrate() brings an empty file to the schema version once; readMeta() and identityOf() read it", () => {
  const d = new DatabaseSync(":memory:");
  assert.deepEqual(readMeta(d), {}, "no meta table yet");
  migrate(d, ":memory:");
  migrate(d, ":memory:");
  assert.equal(readMeta(d).schema_version, String(SCHEMA_VERSION));
  assert.equal(MIGRATIONS.at(-1)?.version, SCHEMA_VERSION);
  assert.deepEqual(identityOf(d), { lineage: "", serial: 0, schemaVersion: SCHEMA_VERSION });
  d.exec("UPDATE meta SET value = '99' WHERE key = 'schema_version'");
  assert.throws(() => migrate(d, "/x/state.db"), /written by a newer pravo/);
  d.close();
});
