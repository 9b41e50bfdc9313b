/**
 * Helpers for the tests that drive provider plugins: the fake provider of
 * `fake_provider.ts`, and whether a process is still alive.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import {
  type GrpcProviderOptions,
  type PlanResourceChangeResponse,
  type PluginProvider,
  proposedNewState,
  type Result,
  type StartOptions,
  startProvider,
  type Value,
} from "../../lib/plugin/mod.ts";

export const PROJECT = fileURLToPath(new URL("../..", import.meta.url));
export const FAKE = fileURLToPath(new URL("./fake_provider.ts", import.meta.url));

/** Starts the fake provider in a mode, with options on top. */
export function startFake(
  mode = "normal",
  opts: Partial<StartOptions & GrpcProviderOptions> = {},
): Promise<Result<PluginProvider>> {
  return startProvider({
    command: Deno.execPath(),
    args: ["run", "-A", "--quiet", FAKE, mode],
    cwd: PROJECT,
    name: "example/fake",
    ...opts,
  });
}

/**
 * Starts the fake provider; fails the test with the diagnostics if it does
 * not start. `await using` closes it.
 */
export async function mustStartFake(
  mode = "normal",
  opts: Partial<StartOptions & GrpcProviderOptions> = {},
): Promise<PluginProvider & AsyncDisposable> {
  const r = await startFake(mode, opts);
  if (!r.value) {
    throw new Error(`the fake provider did not start: ${JSON.stringify(r.diagnostics, null, 2)}`);
  }
  const p = r.value;
  return Object.assign(p, { [Symbol.asyncDispose]: () => p.close() });
}

/** The fake provider's plan of a new `fake_thing` from `config`, proposed as the core does. */
export async function planThing(
  p: PluginProvider,
  config: Record<string, Value>,
): Promise<PlanResourceChangeResponse> {
  const { schema } = await p.getProviderSchema();
  return await p.planResourceChange({
    typeName: "fake_thing",
    priorState: null,
    proposedNewState: proposedNewState(schema!.resources.fake_thing.block, null, config),
    config,
  });
}

/**
 * True while a process runs. A zombie (exited, not yet reaped: here the
 * machine's init reaps no orphans) counts as gone.
 */
export function alive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

/** Waits until the process is gone, or gives up after `ms`. */
export async function gone(pid: number, ms = 10_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !alive(pid);
}
