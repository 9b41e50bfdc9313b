/**
 * `apply` of every node of a root, in this process, with the time spent in
 * the state store: makePlan, then applyPlan with the store's `transaction`
 * method wrapped to time it. Prints one JSON line:
 * `{nodes, planMs, applyMs, storeMs, storeSumMs, transactions, ok}`.
 *
 * `storeMs` is the wall time during which at least one transaction was
 * running (transactions of one store are serial, but a waiting one would
 * be counted twice in the plain sum, `storeSumMs`).
 *
 *   deno run -A scripts/bench/apply_inproc.ts ROOT
 *
 * The root must be initialised and hold no state records.
 *
 * @module
 */

import { readRoot } from "../../lib/cue/loader.ts";
import { makePlan } from "../../lib/plan/planner.ts";
import { applyPlan } from "../../lib/apply/apply.ts";
import { openStore } from "../../lib/state/open.ts";
import type { StateStore } from "../../lib/state/store.ts";
import { openWorkspace } from "../../lib/workspace/workspace.ts";

const root = Deno.args[0];
if (!root) throw new Error("usage: apply_inproc.ts ROOT");
const who = { actor: "bench", reason: "benchmark" };

const workspace = await openWorkspace(root, { signal: new AbortController().signal });
const sources = readRoot(root, workspace);
if (!sources.ok) throw new Error(JSON.stringify(sources.diagnostics));
const store: StateStore = await openStore({ root, state: undefined, workspace });
const t0 = performance.now();
const { plan } = await makePlan(sources.value, store, { root, tags: {}, ...who });
const planMs = performance.now() - t0;

let active = 0;
let since = 0;
let storeMs = 0;
let storeSumMs = 0;
let transactions = 0;
const transaction = store.transaction.bind(store);
store.transaction = async (meta, fn) => {
  const start = performance.now();
  if (active++ === 0) since = start;
  try {
    return await transaction(meta, fn);
  } finally {
    const end = performance.now();
    storeSumMs += end - start;
    transactions++;
    if (--active === 0) storeMs += end - since;
  }
};
const t1 = performance.now();
const result = await applyPlan(plan, store, { ...who, workspace, parallelism: 10 });
const applyMs = performance.now() - t1;
await store.close();
console.log(JSON.stringify({
  nodes: plan.nodes.length,
  planMs,
  applyMs,
  storeMs,
  storeSumMs,
  transactions,
  ok: result.ok,
}));
