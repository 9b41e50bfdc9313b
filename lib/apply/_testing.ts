/**
 * Helpers for the tests of apply: a temporary root holding one `main.cue`,
 * its state store created and a plan made of it, as `pravo plan` makes one.
 * Not used by pravo itself.
 *
 * @module
 */

import { BUILTIN_ONLY } from "../workspace/workspace_testing.ts";
import assert from "node:assert/strict";
import { readRoot } from "../cue/loader.ts";
import { makePlan } from "../plan/planner.ts";
import { openStore } from "../state/open.ts";
import type { StateStore } from "../state/store.ts";

type Plan = Awaited<ReturnType<typeof makePlan>>["plan"];

/** A root with its store and plan; disposing of it closes the store and removes the root. */
export interface PlannedRoot extends AsyncDisposable {
  root: string;
  store: StateStore;
  plan: Plan;
}

/**
 * A temporary root (its name starts with `prefix`) whose `main.cue` is
 * `cue`, with its store created and a plan made by alice ("test"), the
 * records refreshed by age.
 */
export async function plannedRoot(cue: string, opts: { prefix: string }): Promise<PlannedRoot> {
  const root = await Deno.makeTempDir({ prefix: opts.prefix });
  await Deno.writeTextFile(`${root}/main.cue`, cue);
  const store = await openStore({ root, state: undefined }, { create: true });
  const dispose = async () => {
    await store.close();
    await Deno.remove(root, { recursive: true });
  };
  try {
    const sources = readRoot(root, BUILTIN_ONLY);
    assert.ok(sources.ok);
    const { plan } = await makePlan(sources.value, store, {
      root,
      tags: {},
      actor: "alice",
      reason: "test",
      refresh: "age",
    });
    return { root, store, plan, [Symbol.asyncDispose]: dispose };
  } catch (e) {
    await dispose();
    throw e;
  }
}
