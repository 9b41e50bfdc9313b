/**
 * Starting plugin provider processes for a root: the executable verified
 * first (launch.ts), the socket where the permissions allow it, the cached
 * schema handed over so that the provider need not send it again, Stop on
 * the first interrupt (the inputs' signal: the protocol layer's own handling,
 * which would kill the providers and exit at once, is turned off), and every
 * process registered to be closed when the command ends (running.ts).
 *
 * A process started only to fetch a schema is kept idle and handed to the
 * first provider configuration that needs one, so that a run that must
 * fetch the schema and then plan starts the provider once.
 *
 * @module
 */

import { type Diagnostic, DiagnosticsError } from "../../diag/diag.ts";
import type { PluginProvider, ProviderSchema as PluginSchema } from "../../plugin/provider.ts";
import { displayAddress, parseProviderSource } from "../install/address.ts";
import type { VerifiedProvider } from "../install/executable.ts";
import { nextSocketPath, verifiedProvider } from "./launch.ts";
import { register } from "./running.ts";
import type { PluginInputs } from "./inputs.ts";

/** A started provider process and the package it runs. */
export interface StartedPlugin {
  provider: PluginProvider;
  verified: VerifiedProvider;
}

const idle = new Map<string, StartedPlugin[]>();

/** Timings of this process's provider starts, for benchmarks (`PRAVO_TIMINGS`). */
export const startTimings: { address: string; ms: number }[] = [];

/**
 * Starts the provider of `address` for `root` (or takes an idle one);
 * diagnostics say why it could not start.
 */
export async function startPlugin(
  root: string,
  address: string,
  inputs: PluginInputs,
  opts: { schema?: PluginSchema } = {},
): Promise<{ value?: StartedPlugin; diagnostics: Diagnostic[] }> {
  const waiting = idle.get(address);
  if (waiting?.length) return { value: waiting.pop()!, diagnostics: [] };
  let verified: VerifiedProvider;
  let socketPath: string | undefined;
  try {
    verified = await verifiedProvider(root, address, inputs);
    socketPath = nextSocketPath();
  } catch (e) {
    if (e instanceof DiagnosticsError) return { diagnostics: e.diagnostics };
    throw e;
  }
  // The protocol layer (and its gRPC library) loads only once a provider may start.
  const { exitOnSignals, startProvider } = await import("../../plugin/mod.ts");
  // The command layer handles interrupts: Stop on the first, exit on the second.
  exitOnSignals(false);
  const t0 = performance.now();
  const started = await startProvider({
    command: verified.executable,
    name: displayAddress(parseProviderSource(address)),
    socketPath,
    schema: opts.schema,
    stopSignal: inputs.signal,
  });
  startTimings.push({ address, ms: performance.now() - t0 });
  if (!started.value) return { diagnostics: started.diagnostics };
  const provider = started.value;
  const unregister = register({
    stop: async () => void await provider.stopProvider(),
    close: async () => {
      unregister();
      await provider.close();
    },
  });
  provider.process.exited.then(() => unregister());
  return { value: { provider, verified }, diagnostics: started.diagnostics };
}

/** Keeps a started, unconfigured provider for the next {@link startPlugin} of its address. */
export function keepIdle(address: string, p: StartedPlugin): void {
  if (p.provider.process.exitInfo) return;
  const list = idle.get(address) ?? [];
  list.push(p);
  idle.set(address, list);
}
