/**
 * The moves a plan makes: the records of the state that the root's `moved`
 * entries (lib/cue/moved.ts) give a new address. The planner then plans each
 * such record as the node at its new address (no destroy and create), and
 * apply records the move before anything else.
 *
 * @module
 */

import { type Diagnostic, DiagnosticsError, error } from "../diag/diag.ts";
import { evaluateRoot, type Sources } from "../cue/loader.ts";
import { MOVED, movedTarget } from "../cue/moved.ts";
import type { StateRecord } from "../state/store.ts";

/**
 * By new address, the old address of each record that moves. The root's
 * `moved` entries are read with one evaluation of the configuration alone,
 * made only when the sources declare `moved`. Throws a DiagnosticsError for
 * an invalid root (3) or a move that cannot be made (1).
 */
export async function plannedMoves(
  sources: Sources,
  records: ReadonlyMap<string, StateRecord>,
  tags: Record<string, string>,
): Promise<Map<string, string>> {
  const moves = new Map<string, string>();
  if (!sources.index.sites.has(MOVED)) return moves;
  const res = await evaluateRoot(sources, { tags, trace: false });
  if (!res.ok) throw new DiagnosticsError(res.diagnostics, "invalid");
  const spec = res.value;
  if (spec.moved.length === 0) return moves;
  const nodes = new Map(spec.nodes.map((n) => [n.address, n]));
  const problems: Diagnostic[] = [];
  for (const rec of records.values()) {
    if (rec.mode !== "managed") continue;
    const to = movedTarget(spec.moved, rec.address);
    if (to === undefined || nodes.has(rec.address)) continue;
    const node = nodes.get(to);
    const why = (detail: string) =>
      problems.push(error(`Cannot move ${rec.address} to ${to}`, detail, {
        address: to,
        range: node?.range,
      }));
    if (records.has(to)) {
      why(
        `moved gives the object of ${rec.address} the address ${to}, but the state holds an ` +
          `object there already. Nothing was planned. Forget one of them with \`pravo state rm\` ` +
          "(its object is left as it is), or remove the moved entry.",
      );
    } else if (!node || node.mode !== "managed") {
      why(
        `moved gives the object of ${rec.address} the address ${to}, where the root declares ` +
          "no resource. Nothing was planned. Declare the node there, or correct the moved entry.",
      );
    } else if (node.type !== rec.type || node.provider !== rec.provider) {
      why(
        `The state holds a ${rec.type} at ${rec.address}, and ${to} is a ${node.type}: a move ` +
          "keeps the object, so the types must be the same. Nothing was planned. Correct the " +
          "moved entry, or remove it to destroy the old object and create the new one.",
      );
    } else if (moves.has(to)) {
      why(
        `Both ${moves.get(to)} and ${rec.address} would move to ${to}. Nothing was planned. ` +
          "Correct the moved entries so that each address receives one object.",
      );
    } else {
      moves.set(to, rec.address);
    }
  }
  if (problems.length) throw new DiagnosticsError(problems, "error");
  return moves;
}

/** The records with each move made: at its new address, dependencies renamed. */
export function withMoves(
  records: Map<string, StateRecord>,
  moves: ReadonlyMap<string, string>,
): void {
  if (moves.size === 0) return;
  const renamed = new Map([...moves].map(([to, from]) => [from, to]));
  const all = [...records.values()];
  records.clear();
  for (const r of all) {
    const address = renamed.get(r.address) ?? r.address;
    records.set(address, {
      ...r,
      address,
      dependencies: r.dependencies.map((d) => renamed.get(d) ?? d),
    });
  }
}

/** Marks each planned node that a move gives its record ({@linkcode plannedMoves}). */
export function markMoved(
  planned: readonly { address: string; movedFrom?: string }[],
  moves: ReadonlyMap<string, string>,
): void {
  for (const p of planned) if (moves.has(p.address)) p.movedFrom = moves.get(p.address);
}
