/**
 * Interrupts: what pravo does on SIGINT (Ctrl-C), SIGTERM (`kill`, a
 * timeout, `pravo mcp` cancelling a call) and SIGHUP (a closed terminal).
 *
 * A run that holds nothing (no state lock, no reservation being made) stops
 * at once: every write pravo makes is a transaction or an atomic file
 * replace, so nothing is half-written. A run that holds something is asked to
 * stop: {@linkcode Interrupts.signal} aborts, the command starts nothing new
 * (an apply lets the running nodes finish and cancels those that can be
 * cancelled), records what it did, releases what it holds and ends with
 * {@linkcode Exit.INTERRUPTED} (130; {@linkcode Exit.TERMINATED}, 143, for
 * SIGTERM: see {@linkcode failureOf}). A second signal stops at once; what was
 * committed stays committed, and the lock left behind is taken over by the
 * next run, since its process is gone.
 *
 * Holding is counted here: the state stores call {@linkcode Interrupts.hold}
 * when they take the lock and let it go when they release it; a command
 * holds around anything else it must undo (a reservation made before its plan
 * file is written).
 *
 * There is no process-wide instance: the command layer owns one
 * ({@linkcode Interrupts} made by `main.ts`'s `run`, carried by the
 * commands' Context), `main.ts`'s signal listeners feed it, the workspace
 * holds its signal, and the store that takes the lock is given its `hold`.
 *
 * @module
 */

import { DiagnosticsError, error, type FailureKind } from "../diag/diag.ts";

/** The signals that interrupt a run. */
export type InterruptSignal = "SIGINT" | "SIGTERM" | "SIGHUP";

export const INTERRUPT_SIGNALS: readonly InterruptSignal[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** What {@linkcode Interrupts.receive} decided. */
export type Reaction =
  /** Nothing is held: stop now. */
  | { kind: "exit"; signal: InterruptSignal; again: false }
  /** A second signal: stop now, whatever is held. */
  | { kind: "exit"; signal: InterruptSignal; again: true; held: string[] }
  /** Something is held: the command stops at its next step and lets it go. */
  | { kind: "stopping"; signal: InterruptSignal; held: string[] };

/** The interrupts of one process: whether one came, and what is held. */
export class Interrupts {
  #controller = new AbortController();
  #received: InterruptSignal | undefined;
  #holds = new Map<number, string>();
  #next = 0;

  /** Aborts at the first interrupt. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The first signal received, if any. */
  get received(): InterruptSignal | undefined {
    return this.#received;
  }

  /** What is held now, oldest first: `the state lock`, `reservation R`. */
  held(): string[] {
    return [...this.#holds.values()];
  }

  /**
   * Marks `what` as held until the returned function is called (once; later
   * calls do nothing). While anything is held, a first interrupt lets the
   * command stop by itself instead of ending the process.
   */
  hold(what: string): () => void {
    const id = this.#next++;
    this.#holds.set(id, what);
    return () => {
      this.#holds.delete(id);
    };
  }

  /** Takes a signal in: aborts {@linkcode signal} the first time, and says what to do. */
  receive(sig: InterruptSignal): Reaction {
    const held = this.held();
    if (this.#received !== undefined) return { kind: "exit", signal: sig, again: true, held };
    this.#received = sig;
    this.#controller.abort(sig);
    if (held.length === 0) return { kind: "exit", signal: sig, again: false };
    return { kind: "stopping", signal: sig, held };
  }

  /** Throws {@linkcode interrupted} when an interrupt came. */
  throwIfInterrupted(done: string): void {
    if (this.#received !== undefined) throw interrupted(this.#received, done);
  }
}

/**
 * The kind of failure of a run stopped by `sig`: `terminated` for SIGTERM
 * (exit 143), `interrupted` otherwise (exit 130), as shells tell them.
 */
export function failureOf(sig: InterruptSignal): FailureKind {
  return sig === "SIGTERM" ? "terminated" : "interrupted";
}

/**
 * The error a command ends with when it stops for an interrupt: `done` says
 * what was done and what was not ("Nothing was applied.").
 */
export function interrupted(sig: InterruptSignal, done: string): DiagnosticsError {
  return new DiagnosticsError([
    error(
      `Interrupted by ${sig}`,
      `${done} Locks and reservations that this run held were released. ` +
        "Run the command again when you are ready.",
    ),
  ], failureOf(sig));
}

/** The diagnostic printed when a run stops at once, for {@linkcode Reaction} `exit`. */
export function stoppedNow(r: Extract<Reaction, { kind: "exit" }>): DiagnosticsError {
  if (!r.again) {
    return new DiagnosticsError([
      error(
        `Interrupted by ${r.signal}`,
        "pravo stopped before the command finished. It held no lock and no reservation, and " +
          "each of its writes is a transaction or an atomic file replace, so nothing is " +
          "half-written. Run the command again when you are ready.",
      ),
    ], failureOf(r.signal));
  }
  const held = r.held.length ? ` It still held ${r.held.join(" and ")}.` : "";
  return new DiagnosticsError([
    error(
      `Stopped at once by a second ${r.signal}`,
      `pravo did not wait for the running work to finish.${held} What was committed stays ` +
        "committed and nothing is half-written: each change is one transaction. A state lock " +
        "left behind is taken over by the next run, since its process is gone (or release it " +
        "with `pravo state unlock LOCK_ID`). Work that was running may have changed the real " +
        "world without being recorded: run `pravo plan` to see what is left to do.",
    ),
  ], failureOf(r.signal));
}

/** The note printed (not with `--json`) when a run starts to stop. */
export function stoppingNote(r: Extract<Reaction, { kind: "stopping" }>): string {
  return `\nInterrupt received (${r.signal}): stopping. Nothing new starts; what is running ` +
    `finishes or is cancelled, then ${r.held.join(" and ")} ${
      r.held.length === 1 ? "is" : "are"
    } released. Send it again (Ctrl-C) to stop at once.\n\n`;
}

/**
 * Listens for the interrupt signals for this process and reacts: `exit` ends
 * the process with what `report` prints, `stopping` prints the note. Returns
 * a function that removes the listeners.
 */
export function listen(
  on: Interrupts,
  report: {
    note(text: string): void;
    exitNow(err: DiagnosticsError): never;
  },
): () => void {
  const handlers = INTERRUPT_SIGNALS.map((sig) => {
    const h = () => {
      const r = on.receive(sig);
      if (r.kind === "exit") report.exitNow(stoppedNow(r));
      else report.note(stoppingNote(r));
    };
    try {
      Deno.addSignalListener(sig, h);
    } catch {
      return undefined; // a platform without this signal
    }
    return [sig, h] as const;
  });
  return () => {
    for (const entry of handlers) {
      if (entry) Deno.removeSignalListener(entry[0], entry[1]);
    }
  };
}
