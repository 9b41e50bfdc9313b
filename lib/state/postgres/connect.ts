/**
 * The PostgreSQL store's connections: a pool to the server that reads
 * nothing from the environment but the password (and the user, when the URL
 * names none), with pravo's schema on the search path, a lock timeout and
 * an idle-in-transaction timeout, read-only when asked.
 *
 * @module
 */

import postgres from "postgres";
import type { PostgresLocation } from "../../config/location.ts";

// deno-lint-ignore no-explicit-any
export type Sql = postgres.Sql<any>;
// deno-lint-ignore no-explicit-any
export type TxSql = postgres.TransactionSql<any>;
/** Anything that runs a query: the pool, a transaction, a reserved connection. */
export type Q = Sql | TxSql;

/** A pool of connections to `where`, reading nothing from the environment but the password. */
export function connect(
  where: PostgresLocation,
  extra: { max?: number; onclose?: () => void; readOnly?: boolean } = {},
): Sql {
  const user = where.user ?? envOr("PGUSER") ?? envOr("USER") ?? "postgres";
  const password = where.password ?? envOr("PGPASSWORD") ?? "";
  // Every option is given, so that the driver reads no PG* variable of its own
  // (Deno would refuse the read; only $PGPASSWORD and $PGAPPNAME are granted).
  return postgres({
    host: where.hosts.map((h) => h.host.replace(/^\[(.*)\]$/, "$1")),
    port: where.hosts.map((h) => h.port),
    database: where.database,
    user,
    pass: password,
    max: extra.max ?? 4,
    ssl: where.sslmode === "disable" ? false : where.sslmode,
    sslnegotiation: null,
    idle_timeout: null,
    connect_timeout: where.connectTimeout,
    max_lifetime: null,
    max_pipeline: 100,
    backoff: (retries: number) => (0.5 + Math.random() / 2) * Math.min(3 ** retries / 100, 20),
    keep_alive: 30,
    prepare: true,
    debug: false,
    fetch_types: false,
    publications: "alltables",
    target_session_attrs: where.hosts.length > 1 ? "read-write" : undefined,
    ...(extra.onclose ? { onclose: extra.onclose } : {}),
    onnotice: () => {}, // notices would go to stdout, the protocol channel
    connection: {
      application_name: "pravo",
      search_path: `"${where.schema}"`,
      // A statement stuck behind a crashed peer's lock gives up rather than hang.
      lock_timeout: "60s",
      idle_in_transaction_session_timeout: "5min",
      // The server refuses every write of this session (pravo mcp --read-only).
      ...(extra.readOnly ? { default_transaction_read_only: "on" } : {}),
    },
    // deno-lint-ignore no-explicit-any
  } as any) as Sql;
}

function envOr(name: string): string | undefined {
  try {
    const v = Deno.env.get(name);
    return v === "" ? undefined : v;
  } catch {
    return undefined; // no permission to read it: as if unset
  }
}
