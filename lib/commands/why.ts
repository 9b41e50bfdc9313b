/**
 * `pravo why ADDR...`: why a node is or is not in the plan: the attributes
 * whose configuration changed, the dependency whose change reaches it, a
 * refresh due, drift seen, a replace asked for, a reservation and its
 * holder, or why it was skipped.
 *
 * @module
 */

import { type CommandRun, emit } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { DiagnosticsError, didYouMean, error } from "../diag/diag.ts";
import { openStore } from "../state/open.ts";
import type { Reason } from "../plan/types.ts";
import { planFromFlags } from "./plan.ts";

export const run: CommandRun = async (ctx, opts, args) => {
  const store = await openStore(ctx, { readOnly: true });
  try {
    const plan = await planFromFlags(
      ctx,
      { ...opts, full: false, "explain-reservations": true },
      store,
    );
    const reservations = await store.listReservations();
    const known = [...plan.nodes.map((n) => n.address), ...plan.skipped.map((s) => s.address)];
    const missing = args.filter((a) => !known.includes(a));
    if (missing.length) {
      throw new DiagnosticsError(
        missing.map((a) => {
          const hint = didYouMean(a, known);
          return error(
            `No node "${a}"`,
            `Neither the configuration nor the state has a node at "${a}"${
              hint ? ` (${hint})` : ""
            }. Give the address of a node, as \`pravo plan --include-skipped\` lists them.`,
          );
        }),
        Exit.ERROR,
      );
    }
    const explained = args.map((a) => {
      const n = plan.nodes.find((x) => x.address === a);
      const s = plan.skipped.find((x) => x.address === a);
      const reasons: Reason[] = n?.reasons
        ? [...n.reasons]
        : [{ kind: "skipped", detail: `skipped: ${s!.reason}` }];
      for (const r of reservations) {
        if (r.addresses.includes(a)) {
          reasons.push({
            kind: "reservation",
            detail: `reserved by ${r.actor} for plan ${r.planId} (reservation ${r.id}${
              r.reason ? `: "${r.reason}"` : ""
            }) until ${r.expires}`,
          });
        }
      }
      return {
        address: a,
        mode: n?.mode ?? s!.mode,
        type: n?.type ?? s!.type,
        action: n ? n.action : "skipped",
        reasons,
      };
    });
    emit(
      ctx,
      { format_version: "1.0", nodes: explained },
      () =>
        explained.map((e) =>
          `${ctx.style.bold(e.address)} (${e.type}): ${e.action}\n` +
          e.reasons.map((r) => `  - ${r.detail}`).join("\n")
        ).join("\n\n"),
    );
    return Exit.OK;
  } finally {
    await store.close();
  }
};
