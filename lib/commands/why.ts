/**
 * `pravo why ADDR...`: why a node is or is not in the plan: the attributes
 * whose configuration changed, the dependency whose change reaches it, a
 * refresh due, drift seen, a replace asked for, a reservation and its
 * holder, or why it was skipped.
 *
 * @module
 */

import { type CommandRun, type Context, emit, type OptionValues } from "../cli/command.ts";
import { Exit } from "../cli/exit.ts";
import { DiagnosticsError, didYouMean, error } from "../diag/diag.ts";
import { openStore } from "../state/open.ts";
import type { Plan, Reason } from "../plan/types.ts";
import type { StateStore } from "../state/store.ts";
import { evaluateRoot, readRoot } from "../cue/loader.ts";
import { standInTags } from "../cue/missing_tags.ts";
import { isDeepStrictEqual } from "node:util";
import { planFromFlags } from "./plan.ts";

/**
 * The plan `why` explains. Tags left out are needed only for the nodes whose
 * configuration depends on them (and the nodes that depend on those): when
 * the nodes asked about are not among them, the plan is made with a
 * stand-in for each missing tag; else the plan's own error stands.
 */
async function planWithoutTags(
  ctx: Context,
  opts: OptionValues,
  store: StateStore,
  asked: string[],
): Promise<Plan> {
  const flags = { ...opts, full: false, "explain-reservations": true };
  try {
    return await planFromFlags(ctx, flags, store);
  } catch (e) {
    const sources = readRoot(ctx.root, ctx.workspace);
    if (!(e instanceof DiagnosticsError) || e.kind !== "invalid" || !sources.ok) throw e;
    const stand = standInTags(sources.value, ctx.tags);
    if (stand.missing.length === 0) throw e;
    const [a, b] = await Promise.all([
      evaluateRoot(sources.value, { tags: stand.a, trace: false }),
      evaluateRoot(sources.value, { tags: stand.b, trace: false }),
    ]);
    if (!a.ok || !b.ok) throw e;
    const other = new Map(b.value.nodes.map((n) => [n.address, n]));
    const affected = new Set(
      a.value.nodes.filter((n) => !isDeepStrictEqual(n.config, other.get(n.address)?.config))
        .map((n) => n.address),
    );
    // And the nodes that depend on those, transitively.
    for (let grew = true; grew;) {
      grew = false;
      for (const n of a.value.nodes) {
        if (!affected.has(n.address) && n.dependencies.some((d) => affected.has(d))) {
          affected.add(n.address);
          grew = true;
        }
      }
    }
    if (asked.some((x) => affected.has(x))) throw e;
    return await planFromFlags({ ...ctx, tags: stand.a }, flags, store);
  }
}

export const run: CommandRun = async (ctx, opts, args) => {
  const store = await openStore(ctx, { readOnly: true });
  try {
    const plan = await planWithoutTags(ctx, opts, store, args);
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
        "error",
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
