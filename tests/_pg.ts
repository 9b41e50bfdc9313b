/**
 * Test helpers for the PostgreSQL state: the server `PRAVO_TEST_PG` names
 * (none: the tests that need it are ignored), a fresh root on it, the
 * backends a test runs on, and the test declaration those tests share.
 *
 * @module
 */

/** The PostgreSQL URL the tests may use; empty when there is none. */
export const PG = Deno.env.get("PRAVO_TEST_PG") ?? "";

/** The backends a state test runs on: SQLite always, PostgreSQL when PG names a server. */
export const BACKENDS: string[] = ["sqlite", ...(PG ? ["postgres"] : [])];

/** PG's URL with the state under the root key `key`. */
export function pgRoot(key: string): string {
  return `${PG}${PG.includes("?") ? "&" : "?"}root=${key}`;
}

/** The state flags for `backend`: none for SQLite, a fresh root key under `prefix` on PostgreSQL. */
export function stateFlags(backend: string, prefix: string): string[] {
  if (backend === "sqlite") return [];
  return ["--state", pgRoot(`${prefix}/${crypto.randomUUID()}`)];
}

/**
 * A test on a state store: its sanitizers off (PostgreSQL's pool outlives
 * the test's ops); with `pgOnly`, ignored when PG names no server.
 */
export function stateTest(
  name: string,
  fn: () => Promise<void>,
  opts: { pgOnly?: boolean } = {},
): void {
  Deno.test({
    name,
    ignore: opts.pgOnly === true && PG === "",
    sanitizeResources: false,
    sanitizeOps: false,
    fn,
  });
}
