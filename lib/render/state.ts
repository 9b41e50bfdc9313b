/**
 * The human views of the state commands (`state show`, `state log`, `state
 * locks`, `state dependents`), drawn from the documents that `--json`
 * prints (lib/state/view.ts).
 *
 * @module
 */

import type { Style } from "../diag/style.ts";
import { REDACTED, SENSITIVE_TEXT } from "../secrets/paths.ts";
import {
  type Dependent,
  inlineValue,
  lockDocument,
  type LogEntryDocument,
  type RecordDocument,
  reservationDocument,
} from "../state/view.ts";

type Json = Record<string, unknown>;

function table(rows: string[][], indent = "  "): string[] {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => widths[i] = Math.max(widths[i] ?? 0, c.length));
  return rows.map((r) =>
    indent + r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join("  ")
  );
}

const SIGN: Record<string, string> = {
  create: "+",
  update: "~",
  replace: "-/+",
  delete: "-",
  read: "<=",
  refresh: "<=",
  forget: "-",
  import: "<=",
  move: "->",
  failed: "!",
  interrupted: "x",
  unlock: "*",
};

/** What the human log says after the action: changed attributes, or what an entry records. */
function actionNote(c: LogEntryDocument["changes"][number]): string {
  if (c.action === "update" || c.action === "refresh" || c.action === "replace") {
    return c.changed.length ? `: ${c.changed.join(", ")}` : "";
  }
  const after = c.after as Record<string, unknown> | null;
  if (c.action === "interrupted" && after) {
    return `: ${after.planned_action} ${after.status} on ${after.signal}`;
  }
  const before = c.before as Record<string, unknown> | null;
  if (c.action === "move" && after && typeof after.moved_to === "string") {
    return ` to ${after.moved_to}`;
  }
  if (c.action === "move" && before && typeof before.moved_from === "string") {
    return ` from ${before.moved_from}`;
  }
  if (c.action === "import" && before?.from === "terraform") {
    return ` from ${before.terraform_address} of ${before.file}`;
  }
  if (c.action === "forget") return ": the object left as it is";
  if (c.action === "unlock" && before) {
    return `: lock ${before.id} of "${before.actor}" (command "${before.command}", process ` +
      `${before.pid} on ${JSON.stringify(before.hostname)})`;
  }
  return "";
}

/** The human view of `state show`. */
export function renderRecord(doc: RecordDocument, style: Style): string {
  const lines = [
    `${style.bold(doc.address)}: ${doc.mode} ${doc.type} (${doc.provider}${
      doc.provider_instance ? `, ${doc.provider_instance}` : ""
    })`,
    "",
    "Attributes:",
  ];
  const attrs = Object.keys(doc.attributes).sort();
  if (attrs.length === 0) lines.push("  (none)");
  lines.push(
    ...attrs.map((k) => {
      const v = doc.attributes[k];
      const width = Math.max(...attrs.map((a) => a.length));
      return `  ${k.padEnd(width)} = ${
        v === REDACTED ? style.dim(SENSITIVE_TEXT) : inlineValue(v)
      }`;
    }),
  );
  lines.push(
    "",
    ...table([
      ["Sensitive:", doc.sensitive.length ? doc.sensitive.join(", ") : "(none)"],
      ["Dependencies:", doc.dependencies.length ? doc.dependencies.join(", ") : "(none)"],
      ["Created:", doc.created_at],
      ["Updated:", doc.updated_at],
      ["Refreshed:", doc.refreshed_at],
      [
        "Refresh age:",
        doc.refresh_age === null
          ? "none (never read again)"
          : doc.refresh_age + (doc.refresh_due ? ` (next read due ${doc.refresh_due})` : ""),
      ],
      ["Config digest:", doc.config_digest],
    ], ""),
  );
  return lines.join("\n");
}

/** The human view of `state log`: no values, only the names of changed attributes. */
export function renderLog(
  doc: { entries: LogEntryDocument[]; total: number; limit: number; address: string | null },
  style: Style,
): string {
  const where = doc.address ? ` that changed ${doc.address}` : "";
  if (doc.entries.length === 0) {
    return `The transaction log has no entries${where}.`;
  }
  const lines: string[] = [];
  for (const e of doc.entries) {
    const who = `by ${e.actor}` + (e.reason ? `: ${e.reason}` : "");
    // Who made the plan and why, when that is not who applied it and why.
    const planner = e.plan_actor !== null && e.plan_actor !== undefined &&
        (e.plan_actor !== e.actor || (e.plan_reason ?? "") !== e.reason)
      ? `, planned by ${e.plan_actor}${e.plan_reason ? `: ${e.plan_reason}` : ""}`
      : "";
    const serial = e.first_serial === e.serial
      ? `serial ${e.serial}`
      : `serials ${e.first_serial}-${e.serial}`;
    lines.push(
      `${style.bold(`#${e.id}`)}  ${e.at}  ${serial}  ${e.command}  ${who}` +
        (e.plan_id ? `  (plan ${e.plan_id}${planner})` : ""),
    );
    for (const c of e.changes) {
      lines.push(
        `  ${(SIGN[c.action] ?? "?").padStart(3)} ${c.address} (${c.action}${actionNote(c)})`,
      );
    }
  }
  const more = doc.total - doc.entries.length;
  if (more > 0) {
    lines.push(
      "",
      style.dim(
        `${more} older ${more === 1 ? "entry" : "entries"}${where} not shown; ` +
          `pass --limit ${doc.total} (or --limit 0) to see all.`,
      ),
    );
  }
  return lines.join("\n");
}

/** The human view of `state locks`. */
export function renderLocks(
  doc: { lock: ReturnType<typeof lockDocument> | null; reservations: Json[] },
  style: Style,
): string {
  const lines: string[] = [];
  const l = doc.lock;
  if (!l) {
    lines.push("State lock: not held.");
  } else {
    lines.push(
      `State lock: held by ${JSON.stringify(l.actor)} (command ${JSON.stringify(l.command)}` +
        (l.reason ? `, reason ${JSON.stringify(l.reason)}` : "") + ")",
      ...table([
        ["id:", l.id],
        ["process:", `${l.pid} on host ${JSON.stringify(l.hostname || "(unknown)")}`],
        ["since:", l.since],
        ["expires:", l.expires],
        ...(l.stale ? [["stale:", `${l.stale}; the next writer takes it over`]] : []),
      ]),
    );
  }
  lines.push("");
  const rs = doc.reservations as ReturnType<typeof reservationDocument>[];
  if (rs.length === 0) {
    lines.push("Reservations: none.");
  } else {
    lines.push(`Reservations (${rs.length}):`);
    for (const r of rs) {
      lines.push(
        `  ${style.bold(r.id)}`,
        ...table([
          ["addresses:", r.addresses.join(", ")],
          ["actor:", r.actor],
          ["reason:", r.reason || "(none)"],
          ["plan:", r.plan_id],
          ["created:", r.created],
          ["expires:", r.expires],
        ], "    "),
      );
    }
  }
  return lines.join("\n");
}

/** The human view of `state dependents`. */
export function renderDependents(
  doc: { address: string; dependents: Dependent[] },
  style: Style,
): string {
  const n = doc.dependents.length;
  if (n === 0) return `Nothing in the state depends on ${doc.address}.`;
  const direct = doc.dependents.filter((d) => d.depth === 1).length;
  return [
    `${n} ${n === 1 ? "node depends" : "nodes depend"} on ${style.bold(doc.address)} ` +
    `(${direct} directly, ${n - direct} through others):`,
    ...table([
      ["depth", "address", "type", "via"],
      ...doc.dependents.map((d) => [String(d.depth), d.address, d.type, d.via.join(", ")]),
    ]),
  ].join("\n");
}
