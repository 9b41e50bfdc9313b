/**
 * Operators' edits of the state that touch no object in the real world:
 * listing the addresses (`state list`), moving records to other addresses
 * (`state mv`, and the `moved` declarations a plan carries out), and
 * forgetting records (`state rm`).
 *
 * An address selects the record at it, or, when there is none, every record
 * under it (`net` selects `net.web` and `net.db`), as Terraform's addresses
 * select a module's resources. Each edit is one transaction with its
 * changes in the log (`move`, `forget`) and the actor and reason of the
 * transaction: refused while another process holds the state lock, and for
 * addresses that someone else reserved.
 *
 * @module
 */

import { type Diagnostic, DiagnosticsError, didYouMean, error } from "../diag/diag.ts";
import { reservationError } from "./reservation.ts";
import type { StateRecord, StateStore, StateTx, TxMeta } from "./store.ts";
import { addressLabels, formatAddress } from "../addr/address.ts";

export { addressLabels, formatAddress };

/** The address in pravo's own spelling, or a usage error naming the argument. */
export function normalAddress(address: string, what: string): string {
  const labels = addressLabels(address);
  if (!labels) {
    throw new DiagnosticsError([
      error(
        `${what} "${address}" is not an address`,
        "An address is a node's CUE path: labels joined with dots, such as `base` or " +
          '`net.web.cert`, a label quoted when it is not an identifier (`sites."my site"`). ' +
          "Give it in that form.",
      ),
    ], "usage");
  }
  return formatAddress(labels);
}

/** True when `inner` is `outer` or lies under it. */
export function isUnder(inner: string, outer: string): boolean {
  const a = addressLabels(inner) ?? [inner];
  const b = addressLabels(outer) ?? [outer];
  return b.length <= a.length && b.every((l, i) => a[i] === l);
}

/** The records `address` selects: the one at it, else those under it. */
export function select(records: readonly StateRecord[], address: string): StateRecord[] {
  const exact = records.filter((r) => r.address === address);
  if (exact.length) return exact;
  return records.filter((r) => isUnder(r.address, address));
}

/** The error for an address that selects nothing, with the nearest address in the state. */
export function selectsNothing(
  address: string,
  records: readonly StateRecord[],
  what: string,
): Diagnostic {
  const addresses = records.map((r) => r.address);
  const hint = didYouMean(address, addresses);
  return error(
    `No record at "${address}"`,
    (records.length === 0
      ? "The state has no records."
      : `The state has no record at "${address}" nor under it${hint ? `; ${hint}` : "."}`) +
      ` Nothing was ${what}. Run \`pravo state list\` for the addresses in the state.`,
    { address },
  );
}

/** Refuses when someone else reserved any of `addresses` (exit 4). */
async function refuseReserved(
  store: StateStore,
  addresses: string[],
  actor: string,
  what: string,
): Promise<void> {
  const conflicts = await store.findReservationConflicts(addresses, { actor });
  if (conflicts.length) {
    throw new DiagnosticsError(conflicts.map((c) => reservationError(c, what)), "locked");
  }
}

/** One record's move. */
export interface Move {
  from: string;
  to: string;
}

/** The moves that `state mv FROM TO` makes, checked against the state. */
export function planMoves(records: readonly StateRecord[], from: string, to: string): Move[] {
  const chosen = select(records, from);
  if (chosen.length === 0) {
    throw new DiagnosticsError([selectsNothing(from, records, "moved")], "error");
  }
  const fromLabels = addressLabels(from)!;
  const toLabels = addressLabels(to)!;
  const moves = chosen.map((r) => {
    const rest = (addressLabels(r.address) ?? [r.address]).slice(fromLabels.length);
    return { from: r.address, to: formatAddress([...toLabels, ...rest]) };
  });
  if (from === to) {
    throw new DiagnosticsError([
      error(
        "Nothing to move",
        `FROM and TO are both "${from}". Give the address to move the record${
          moves.length > 1 ? "s" : ""
        } to.`,
      ),
    ], "usage");
  }
  const moving = new Set(moves.map((m) => m.from));
  const staying = records.filter((r) => !moving.has(r.address));
  const problems: Diagnostic[] = [];
  for (const m of moves) {
    const clash = staying.find((r) => isUnder(r.address, m.to) || isUnder(m.to, r.address));
    if (clash) {
      problems.push(error(
        `Cannot move ${m.from} to ${m.to}`,
        (clash.address === m.to
          ? `The state already holds a ${clash.type} at ${m.to}.`
          : `The state holds ${clash.address}, and a node cannot ${
            isUnder(clash.address, m.to) ? "hold another node" : "lie inside another node"
          }: ${m.to} and ${clash.address} would nest.`) +
          " Nothing was moved. Choose another address, or forget the record there first " +
          `with \`pravo state rm ${clash.address}\`.`,
        { address: m.from },
      ));
    }
  }
  if (problems.length) throw new DiagnosticsError(problems, "error");
  return moves;
}

/**
 * Moves records inside a transaction: each is written at its new address
 * (keeping when it was created and read), removed from the old, and logged
 * at both; the dependencies of other records follow.
 */
export async function moveInTx(
  tx: StateTx,
  moves: readonly Move[],
  records: readonly StateRecord[],
): Promise<void> {
  const renamed = new Map(moves.map((m) => [m.from, m.to]));
  for (const m of moves) {
    const rec = await tx.getRecord(m.from);
    if (!rec) throw new Error(`bug: no record at ${m.from} to move`);
    if (await tx.getRecord(m.to)) throw new Error(`bug: a record is at ${m.to} already`);
    await tx.putRecord({
      ...rec,
      address: m.to,
      dependencies: rec.dependencies.map((d) => renamed.get(d) ?? d),
    });
    await tx.deleteRecord(m.from);
    await tx.logChange({
      address: m.from,
      action: "move",
      before: null,
      after: { moved_to: m.to },
    });
    await tx.logChange({
      address: m.to,
      action: "move",
      before: { moved_from: m.from },
      after: null,
    });
  }
  // Records that depend on a moved one name its new address.
  for (const r of records) {
    if (renamed.has(r.address) || !r.dependencies.some((d) => renamed.has(d))) continue;
    const now = await tx.getRecord(r.address);
    if (!now) continue;
    await tx.putRecord({ ...now, dependencies: now.dependencies.map((d) => renamed.get(d) ?? d) });
  }
}

/** `state mv FROM TO`: the moves made, and the serial the state reached. */
export async function moveRecords(
  store: StateStore,
  from: string,
  to: string,
  meta: TxMeta,
): Promise<{ moves: Move[]; serial: number }> {
  const records = await store.listRecords();
  const moves = planMoves(records, from, to);
  await refuseReserved(store, moves.flatMap((m) => [m.from, m.to]), meta.actor, meta.command);
  await store.transaction(meta, async (tx) => {
    // What was checked above still holds, or nothing is written.
    const now = await Promise.all(moves.map((m) => tx.getRecord(m.to)));
    if (now.some((r) => r !== undefined)) {
      throw new DiagnosticsError([
        error(
          "The state changed while moving",
          "Another run wrote a record at an address this move goes to. Nothing was moved. " +
            "Run the command again.",
        ),
      ], "error");
    }
    await moveInTx(tx, moves, records);
  });
  return { moves, serial: (await store.identity()).serial };
}

/** `state rm ADDR...`: the records forgotten (all or none), and the serial. */
export async function forgetRecords(
  store: StateStore,
  addresses: readonly string[],
  meta: TxMeta,
  opts: { dryRun?: boolean } = {},
): Promise<{ forgotten: StateRecord[]; serial: number }> {
  const records = await store.listRecords();
  const chosen = new Map<string, StateRecord>();
  const problems: Diagnostic[] = [];
  for (const a of addresses) {
    const got = select(records, a);
    if (got.length === 0) problems.push(selectsNothing(a, records, "removed"));
    for (const r of got) chosen.set(r.address, r);
  }
  if (problems.length) throw new DiagnosticsError(problems, "error");
  const forgotten = [...chosen.values()].sort((a, b) =>
    a.address < b.address ? -1 : a.address > b.address ? 1 : 0
  );
  await refuseReserved(store, forgotten.map((r) => r.address), meta.actor, meta.command);
  if (!opts.dryRun) {
    await store.transaction(meta, async (tx) => {
      for (const r of forgotten) {
        const now = await tx.getRecord(r.address);
        if (!now) continue; // forgotten by another run meanwhile
        await tx.deleteRecord(r.address);
        await tx.logChange({
          address: r.address,
          action: "forget",
          before: now.attributes,
          after: null,
          sensitivePaths: now.sensitivePaths,
        });
      }
    });
  }
  return { forgotten, serial: (await store.identity()).serial };
}
