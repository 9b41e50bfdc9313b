/**
 * The human view of `pravo state migrate`, drawn from the document that
 * `--json` prints: what was copied, from where to where, and what to do next.
 *
 * @module
 */

/** The document that `pravo state migrate --json` prints. */
export interface MigrateDoc {
  format_version: "1.0";
  from: { backend: string; path: string };
  to: { backend: string; path: string };
  lineage: string;
  serial: number;
  copied: { records: number; log_entries: number; reservations: number };
  verified: true;
}

/** The summary of a migration. */
export function renderMigrated(doc: MigrateDoc): string {
  const n = (k: number, one: string, many: string) => `${k} ${k === 1 ? one : many}`;
  const c = doc.copied;
  return [
    `Copied the state (lineage ${doc.lineage}, serial ${doc.serial}: ` +
    `${n(c.records, "record", "records")}, ${n(c.log_entries, "log entry", "log entries")}, ` +
    `${n(c.reservations, "reservation", "reservations")})`,
    `  from ${doc.from.path}`,
    `  to   ${doc.to.path}`,
    "and verified the copy. The source is unchanged: point the root at the copy (state.url in " +
    "pravo.jsonc, --state or $PRAVO_STATE), then remove the old state when you no longer need it.",
  ].join("\n");
}
