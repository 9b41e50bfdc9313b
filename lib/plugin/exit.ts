/**
 * No provider process outlives pravo.
 *
 * Every running provider is tracked here. When pravo ends without closing
 * them (it returns from main, calls `Deno.exit`, throws, or leaves a
 * rejected promise), the `unload`, `error` and `unhandledrejection` events
 * kill them (SIGKILL) and remove their socket directories. While one runs,
 * SIGINT, SIGTERM and SIGHUP kill them too and end pravo with 128 + the
 * signal's number, as the signal alone would have (providers ignore
 * SIGINT, so the terminal's Ctrl-C would not reach them); a caller that
 * handles signals itself (sending `Stop` on the first Ctrl-C) turns that
 * off with {@link exitOnSignals}.
 *
 * A process killed with SIGKILL cannot clean up: its providers live on
 * until they are killed. go-plugin has no way to notice its parent is
 * gone.
 *
 * @module
 */

import { endProcess } from "../diag/fatal.ts";

/** What the tracker needs of a running provider. */
export interface Killable {
  /** Kills the process at once and removes what it left; synchronous. */
  killNow(): void;
}

const live = new Set<Killable>();
let eventsHooked = false;
let signalsWanted = true;
const SIGNALS = [["SIGINT", 2], ["SIGTERM", 15], ["SIGHUP", 1]] as const;
const listeners = new Map<Deno.Signal, () => void>();

/** Kills every running provider now. Returns how many there were. */
export function killAllPlugins(): number {
  const n = live.size;
  for (const p of [...live]) {
    try {
      p.killNow();
    } catch {
      // already gone
    }
  }
  live.clear();
  unhookSignals();
  return n;
}

function hookSignals() {
  if (!signalsWanted || listeners.size || Deno.build.os === "windows") return;
  for (const [sig, num] of SIGNALS) {
    const fn = () => {
      killAllPlugins();
      // main.ts ends the process with 128 + the signal's number; without it
      // (a script or a test), the signal is told as an uncaught error.
      if (!endProcess({ signal: num })) throw new Error(`stopped by ${sig}`);
    };
    try {
      Deno.addSignalListener(sig, fn);
      listeners.set(sig, fn);
    } catch {
      // signals not available here
    }
  }
}

function unhookSignals() {
  for (const [sig, fn] of listeners) Deno.removeSignalListener(sig, fn);
  listeners.clear();
}

/** Starts tracking a provider process. */
export function track(p: Killable): void {
  if (!eventsHooked) {
    eventsHooked = true;
    for (const ev of ["unload", "error", "unhandledrejection"]) {
      globalThis.addEventListener(ev, () => killAllPlugins());
    }
  }
  live.add(p);
  hookSignals();
}

/** Stops tracking a provider process (it was closed or it exited). */
export function untrack(p: Killable): void {
  live.delete(p);
  if (!live.size) unhookSignals();
}

/**
 * Whether SIGINT, SIGTERM and SIGHUP kill the providers and end pravo (the
 * default). Turn it off when the caller handles those signals itself; it
 * must then call {@link killAllPlugins} before it exits.
 */
export function exitOnSignals(on: boolean): void {
  signalsWanted = on;
  if (on && live.size) hookSignals();
  if (!on) unhookSignals();
}

/** How many providers run now. */
export function runningPlugins(): number {
  return live.size;
}
