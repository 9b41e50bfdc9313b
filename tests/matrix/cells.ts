/**
 * The feature matrix (issue "Every feature on every provider"): its rows
 * (every command, every MCP tool, the governance and day-two features), its
 * columns (the providers, the state stores, the single-file bundle), the
 * worlds the matrix tests run the rows in, and why a cell that no world
 * runs does not apply.
 *
 * This module is data only: `tests/matrix/*_test.ts` run a world's rows
 * (`_scenario.ts` holds each row's test) and `scripts/matrix.ts` writes the
 * table of `docs/reference/feature-matrix.md` from it, which
 * `tests/matrix/table_test.ts` keeps in step. A cell is run when a world
 * that covers its column runs its row.
 *
 * @module
 */

/** A column of the matrix. */
export type Column = "built-in" | "aws" | "fake" | "sqlite" | "postgres" | "bundle";

export const COLUMNS: { id: Column; title: string; detail: string }[] = [
  {
    id: "built-in",
    title: "Built-in providers",
    detail: "random, local, time: pravo's own providers",
  },
  {
    id: "aws",
    title: "AWS on moto",
    detail: "the real hashicorp/aws 5.100.0 over the plugin protocol, against moto_server",
  },
  {
    id: "fake",
    title: "Fake v6 provider",
    detail: "tests/plugin/fake_provider.ts over protocol 6, for what moto cannot show",
  },
  { id: "sqlite", title: "SQLite state", detail: "the default: .pravo/state.db in the root" },
  {
    id: "postgres",
    title: "PostgreSQL state",
    detail: "a server on loopback (.ci/run installs it from Debian)",
  },
  {
    id: "bundle",
    title: "Single-file bundle",
    detail: "dist/pravo.js run through scripts/pravo-bundle from another directory",
  },
];

/** A row of the matrix: one command, flag, tool or feature. */
export interface Row {
  id: string;
  /** What the table shows. */
  title: string;
  group: "command" | "plan flag" | "state" | "mcp tool" | "feature";
}

export const ROWS: Row[] = [
  { id: "init", title: "`init`", group: "command" },
  { id: "validate", title: "`validate`", group: "command" },
  { id: "fmt", title: "`fmt`, `fmt --check`", group: "command" },
  { id: "schema", title: "`schema`", group: "command" },
  { id: "providers", title: "`providers`", group: "command" },
  { id: "plan", title: "`plan`", group: "plan flag" },
  { id: "plan-json", title: "`plan --json`", group: "plan flag" },
  { id: "plan-policy", title: "`plan --policy`", group: "plan flag" },
  { id: "plan-out", title: "`plan --out`, `show PLANFILE`", group: "plan flag" },
  { id: "approve", title: "`approve`", group: "command" },
  { id: "apply", title: "`apply PLANFILE`", group: "command" },
  { id: "plan-noop", title: "a plan with nothing to do (exit 0)", group: "plan flag" },
  { id: "plan-full", title: "`plan --full`", group: "plan flag" },
  { id: "plan-include-skipped", title: "`plan --include-skipped`", group: "plan flag" },
  { id: "plan-refresh", title: "`plan --refresh all`, `--refresh false`", group: "plan flag" },
  { id: "plan-replace", title: "`plan --replace`", group: "plan flag" },
  { id: "state-list", title: "`state list`", group: "state" },
  { id: "state-show", title: "`state show`", group: "state" },
  { id: "state-query", title: "`state query`", group: "state" },
  { id: "state-dependents", title: "`state dependents`", group: "state" },
  { id: "state-log", title: "`state log`", group: "state" },
  { id: "why", title: "`why`", group: "command" },
  { id: "output", title: "`output`", group: "command" },
  { id: "graph", title: "`graph`", group: "command" },
  { id: "drift", title: "`drift`, `drift --due`", group: "command" },
  { id: "plan-reserve", title: "`plan --reserve`, reservations", group: "plan flag" },
  { id: "state-locks", title: "`state locks`", group: "state" },
  { id: "state-release", title: "`state release`", group: "state" },
  { id: "state-unlock", title: "`state unlock`", group: "state" },
  { id: "moved", title: "`moved`", group: "feature" },
  { id: "state-mv", title: "`state mv`", group: "state" },
  { id: "state-rm", title: "`state rm`", group: "state" },
  { id: "import", title: "`import`", group: "command" },
  { id: "prevent-destroy", title: "`prevent_destroy`", group: "feature" },
  { id: "incremental", title: "incremental plans (an edit plans its nodes)", group: "feature" },
  { id: "refresh-age", title: "`refresh_age`", group: "feature" },
  { id: "mcp-validate", title: "`pravo_validate`", group: "mcp tool" },
  { id: "mcp-schema", title: "`pravo_schema`", group: "mcp tool" },
  { id: "mcp-providers", title: "`pravo_providers`", group: "mcp tool" },
  { id: "mcp-plan", title: "`pravo_plan`", group: "mcp tool" },
  { id: "mcp-show-plan", title: "`pravo_show_plan`", group: "mcp tool" },
  { id: "mcp-apply-plan", title: "`pravo_apply_plan`", group: "mcp tool" },
  { id: "mcp-why", title: "`pravo_why`", group: "mcp tool" },
  { id: "mcp-state-query", title: "`pravo_state_query`", group: "mcp tool" },
  { id: "mcp-state-show", title: "`pravo_state_show`", group: "mcp tool" },
  { id: "mcp-dependents", title: "`pravo_dependents`", group: "mcp tool" },
  { id: "mcp-state-log", title: "`pravo_state_log`", group: "mcp tool" },
  { id: "mcp-locks", title: "`pravo_locks`", group: "mcp tool" },
  { id: "mcp-drift", title: "`pravo_drift`", group: "mcp tool" },
  { id: "mcp-read-only", title: "`pravo mcp --read-only`", group: "feature" },
  { id: "mcp-policy", title: "policies on the MCP server (`mcp --policy`)", group: "feature" },
  {
    id: "mcp-require-approval",
    title: "`mcp --require-approval` with an approved plan",
    group: "feature",
  },
  { id: "destroy", title: "`destroy`", group: "command" },
  { id: "state-migrate", title: "`state migrate`", group: "state" },
];

/** A world: a root on some providers and one state store, through one build of pravo. */
export interface World {
  id: string;
  title: string;
  /** The columns whose cells its rows fill. */
  columns: Column[];
  /** Rows it does not run, each with why (`NOT_APPLICABLE` gives the reason the table shows). */
  skips?: string[];
}

/** A world run through scripts/pravo: `what` names its providers and its state. */
function viaScript(id: string, what: string, columns: Column[]): World {
  return { id, title: `${what}, scripts/pravo`, columns };
}

export const WORLDS: World[] = [
  viaScript("builtin-sqlite", "built-in providers, SQLite state", ["built-in", "sqlite"]),
  viaScript("builtin-postgres", "built-in providers, PostgreSQL state", ["built-in", "postgres"]),
  viaScript("fake-sqlite", "the fake v6 provider, SQLite state", ["fake", "sqlite"]),
  viaScript("aws-sqlite", "hashicorp/aws 5.100.0 on moto, SQLite state", ["aws", "sqlite"]),
  {
    id: "bundle-sqlite",
    title: "built-in providers, SQLite state, the single-file bundle run from another directory",
    columns: ["built-in", "sqlite", "bundle"],
  },
];

/**
 * Cells that do not apply, with why: what the table prints in place of a
 * test. Keyed by row, then column.
 */
export const NOT_APPLICABLE: Record<string, Partial<Record<Column, string>>> = {};

/** Whether world `w` runs row `r`. */
export function runs(w: World, r: Row): boolean {
  return !(w.skips ?? []).includes(r.id);
}

/** The worlds that run a cell, and the reason it does not apply when none does. */
export function cell(r: Row, c: Column): { worlds: World[]; na?: string } {
  const worlds = WORLDS.filter((w) => w.columns.includes(c) && runs(w, r));
  return { worlds, na: NOT_APPLICABLE[r.id]?.[c] };
}
