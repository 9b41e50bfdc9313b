/**
 * Opening a root's state in a PostgreSQL database: the schema migrated, the
 * root's row found or made (its key, lineage and sealed redaction key), its
 * lineage checked against pravo.jsonc's, and its values sealed when it was
 * written before version 3.
 *
 * @module
 */

import { DiagnosticsError, error } from "../../diag/diag.ts";
import type { PostgresLocation } from "../../config/location.ts";
import { newRedactionKey } from "../../secrets/redact.ts";
import type { Sealer } from "../../secrets/seal.ts";
import { REDACTION_KEY } from "../store_base.ts";
import type { Sql } from "./connect.ts";
import { migrate, sealRoot } from "./schema.ts";

/** The root's row as a store is opened on it. */
export interface OpenedRoot {
  id: string;
  /** Its log's key, sealed. */
  redactionKey: string;
  /** True when opening made it. */
  created: boolean;
  lineage: string;
}

/**
 * The root of `where.rootKey`, the schema brought up to date first. With
 * `create`, made where missing; without, a missing root is an error that
 * says to run `pravo init`.
 */
export async function openRoot(
  sql: Sql,
  opts: { where: PostgresLocation; create?: boolean; sealer: Sealer; now: () => Date },
): Promise<OpenedRoot> {
  const { where, sealer } = opts;
  await migrate(sql, where);
  let [root] = await sql`
    SELECT id, lineage, redaction_key, sealed FROM roots WHERE key = ${where.rootKey}`;
  let created = false;
  if (root === undefined) {
    if (!opts.create) {
      throw new DiagnosticsError([
        error(
          "The root is not initialised",
          `The PostgreSQL state store ${where.path} holds no state for the root key ` +
            `"${where.rootKey}". Run \`pravo init\` with the same state location first.`,
        ),
      ], "error");
    }
    const lineage = crypto.randomUUID();
    [root] = await sql`
      INSERT INTO roots (key, lineage, redaction_key, created_at, sealed)
      VALUES (${where.rootKey}, ${lineage},
              ${sealer.sealText(lineage, REDACTION_KEY, newRedactionKey())},
              ${opts.now().toISOString()}, true)
      ON CONFLICT (key) DO NOTHING
      RETURNING id, lineage, redaction_key, sealed`;
    created = root !== undefined;
    // Another process created it meanwhile.
    root ??= (await sql`
      SELECT id, lineage, redaction_key, sealed FROM roots WHERE key = ${where.rootKey}`)[0];
  }
  if (where.lineage !== undefined && String(root.lineage) !== where.lineage) {
    throw new DiagnosticsError([
      error(
        "The state has another lineage than pravo.jsonc says",
        `The root key "${where.rootKey}" in ${where.path} holds lineage ${root.lineage}, ` +
          `and pravo.jsonc's state.lineage is ${where.lineage}. Nothing was changed. Check ` +
          "that state.root names this root's state, or correct state.lineage.",
      ),
    ], "error");
  }
  if (!root.sealed) await sealRoot(sql, { id: String(root.id), sealer });
  const [sealedKey] = await sql`SELECT redaction_key FROM roots WHERE id = ${root.id}`;
  return {
    id: String(root.id),
    redactionKey: String(sealedKey.redaction_key),
    created,
    lineage: String(root.lineage),
  };
}
