/**
 * Why a node has its action, for `pravo why` and the plan document: what
 * the refresh found, the changes of its configuration, the dependencies
 * whose new values are known only after apply, and the like.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import { type SentinelRef, sentinelRefs } from "../../cue/unknowns.ts";
import type { StateRecord } from "../../state/store.ts";
import { changedKeys } from "../node_values.ts";
import type { PlannedNode, Reason } from "../types.ts";

/**
 * Every reason a node has its action. `due` is why it was read from the
 * real world in this plan; `byAddr` finds the other planned nodes.
 */
export function reasonsFor(
  p: PlannedNode,
  seen: {
    rec: StateRecord | undefined;
    due: string | undefined;
    sentinels: SentinelRef[];
    byAddr: ReadonlyMap<string, PlannedNode>;
  },
): Reason[] {
  const { rec, due } = seen;
  const out: Reason[] = [];
  if (due) out.push({ kind: "refresh", detail: `read from the real world: ${due}` });
  if (rec && p.before && !isDeepStrictEqual(rec.attributes, p.before)) {
    const drifted = changedKeys(rec.attributes, p.before);
    out.push({
      kind: "drift",
      detail: `the real world differs from the state in ${drifted.join(", ")}`,
      attributes: drifted,
    });
  }
  if (p.action === "delete") {
    out.push({
      kind: p.deleteBecause === "destroy" ? "destroy" : "removed",
      detail: p.deleteBecause === "destroy"
        ? "--destroy plans to destroy every node"
        : "it is no longer in the configuration",
    });
    return out;
  }
  if (p.action === "create") {
    out.push(
      p.replaceBecause.includes("gone")
        ? { kind: "gone", detail: "the object was deleted outside pravo (seen on refresh)" }
        : { kind: "new", detail: "it is not in the state" },
    );
  }
  if (p.replaceBecause.includes("requested")) {
    out.push({ kind: "requested", detail: "--replace asks for it" });
  }
  if (p.action === "update" || p.action === "replace") {
    for (const k of p.changed) out.push(_changeReason(p, k, seen));
  }
  if (p.action === "read") {
    out.push({ kind: "data", detail: "a data source is read on every plan" });
  }
  if (p.action === "open") {
    out.push({
      kind: "ephemeral",
      detail: "an ephemeral value is opened for each run and never stored",
    });
  }
  if (p.action === "no-op" && out.length === 0) {
    out.push({ kind: "unchanged", detail: "its configuration matches the state" });
  }
  return out;
}

/** Why the input `k` of a node updated or replaced changes. */
function _changeReason(
  p: PlannedNode,
  k: string,
  seen: { sentinels: SentinelRef[]; byAddr: ReadonlyMap<string, PlannedNode> },
): Reason {
  const { byAddr } = seen;
  const t = p.templates[k];
  const from = t === undefined
    ? []
    : [...new Set(sentinelRefs(t, seen.sentinels).map((r) => r.address))];
  // An input computed from a secret is unknown at plan time whether or
  // not what it reads changes: only nodes that do change explain it.
  const secret = p.secretForms !== undefined && k in p.secretForms;
  const changing = (d: string) => {
    const a = byAddr.get(d)?.action;
    return a !== undefined && a !== "no-op" && a !== "read";
  };
  const via = from.length
    ? from
    : p.needsEvaluation.includes(k)
    ? p.dependencies.filter((d) => !secret || changing(d))
    : [];
  const forces = p.replaceBecause.includes(k) ? " (forces replacement)" : "";
  if (via.length) {
    const what = via.map((d) => `${d} (${byAddr.get(d)?.action ?? "changing"})`).join(", ");
    return {
      kind: "dependency",
      detail: `${k} depends on ${what}, whose new values are known only after apply${forces}`,
      attributes: [k],
      dependencies: via,
    };
  }
  if (secret) {
    return {
      kind: "config",
      detail:
        `${k} changed in the configuration, or a secret it is computed from did, since it was applied (pravo does not compare values computed from secrets at plan time)${forces}`,
      attributes: [k],
    };
  }
  if (p.sensitive.includes(k)) {
    return {
      kind: "config",
      detail: `${k} changed in the configuration${forces}`,
      attributes: [k],
    };
  }
  return {
    kind: "config",
    detail: `${k} changed: ${JSON.stringify(p.before?.[k] ?? null)} -> ${
      JSON.stringify(p.config[k] ?? null)
    }${forces}`,
    attributes: [k],
  };
}
