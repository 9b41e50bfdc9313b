/**
 * Where a root's state lives: the values `--state`, `$PRAVO_STATE` and
 * `pravo.jsonc` choose between (lib/state/open.ts reads them).
 *
 * @module
 */

/** SQLite: a file. */
export interface SqliteLocation {
  backend: "sqlite";
  /** The absolute path of the database file. */
  path: string;
  /** True when nothing (flag, variable, pravo.jsonc) chose it. */
  isDefault: boolean;
}

/** One server of a PostgreSQL location. */
export interface PgHost {
  host: string;
  port: number;
}

/** PostgreSQL: a database shared by many roots, this one under `rootKey`. */
export interface PostgresLocation {
  backend: "postgres";
  /** The URL without any password, with the root key: for messages and documents. */
  path: string;
  isDefault: false;
  /** The servers to try, in order. */
  hosts: PgHost[];
  database: string;
  /** The user; default `$PGUSER`, then `$USER`. */
  user?: string;
  /** The password from the URL, when it has one. Never print it. */
  password?: string;
  /** The root's key in the database. */
  rootKey: string;
  /** The schema of pravo's tables. */
  schema: string;
  /** `disable` (default), `require` or `verify-full`. */
  sslmode: "disable" | "require" | "verify-full";
  /** Seconds to wait for a connection. */
  connectTimeout: number;
  /** The lineage the state must have (`state.lineage` in pravo.jsonc), when set. */
  lineage?: string;
}

/** Where a root's state lives, as chosen by the context. */
export type StateLocation = SqliteLocation | PostgresLocation;
