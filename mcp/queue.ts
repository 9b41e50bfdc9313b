/**
 * A bound on the tool calls that run at once: each call takes a slot before
 * its process starts and gives it back when the process has ended; the
 * others wait their turn in the order they came, and a call that is
 * cancelled while it waits leaves the line. The line itself is bounded too,
 * so that a flood of calls cannot grow the server without end.
 *
 * @module
 */

/** The line is full: the call is refused. */
export class QueueFull extends Error {
  constructor(message: string) {
    super(message);
    this.name = "QueueFull";
  }
}

interface Waiter {
  resolve: (release: () => void) => void;
  reject: (e: unknown) => void;
}

export class CallQueue {
  readonly max: number;
  readonly maxWaiting: number;
  #running = 0;
  #waiting: Waiter[] = [];

  constructor(max: number, maxWaiting: number) {
    this.max = max;
    this.maxWaiting = maxWaiting;
  }

  /** Calls running now. */
  get running(): number {
    return this.#running;
  }

  /** Calls waiting for a slot. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /**
   * Waits for a slot and returns the function that gives it back. Rejects
   * with `signal.reason` when the signal aborts while the call waits, and
   * with {@link QueueFull} when the line is full.
   */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#running < this.max) {
      this.#running++;
      return Promise.resolve(this.#releaser());
    }
    if (this.#waiting.length >= this.maxWaiting) {
      return Promise.reject(
        new QueueFull(
          `the server is busy: ${this.#running} calls run and ${this.#waiting.length} wait, the most it takes; try again when one has answered`,
        ),
      );
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve: (release) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(release);
        },
        reject,
      };
      const onAbort = () => {
        const i = this.#waiting.indexOf(waiter);
        if (i >= 0) this.#waiting.splice(i, 1);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(waiter);
    });
  }

  /** Refuses every waiting call with `reason` (the server is stopping). */
  rejectWaiting(reason: unknown): void {
    for (const w of this.#waiting.splice(0)) w.reject(reason);
  }

  #releaser(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.#waiting.shift();
      if (next) next.resolve(this.#releaser());
      else this.#running--;
    };
  }
}
