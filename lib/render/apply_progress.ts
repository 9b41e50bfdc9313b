/**
 * The human view of an apply in progress, in the manner of Terraform's.
 *
 * Two forms, fed the same events (`ApplyOptions.progress` of
 * lib/apply/apply.ts):
 *
 * - the line view (piped, in CI, or with colour off): one line per node as it
 *   starts and one as it ends (`base: Creating...`, `base: Creation complete
 *   after 1s [id=7]`), and `base: Still creating... [10s elapsed]` every
 *   interval while a node runs;
 * - the live view (a terminal with colour): the same lines as they complete,
 *   and under them the nodes still running with their elapsed time, redrawn
 *   in place every second.
 *
 * An id that is sensitive, or that holds a secret, is never shown: the
 * events carry it already redacted (see lib/apply/apply.ts).
 *
 * @module
 */

import type { Style } from "../diag/style.ts";
import type { ProgressEvent } from "../apply/progress.ts";

/** How long Terraform waits between two `Still creating...` lines. */
export const STILL_INTERVAL_MS = 10_000;

const WORDS: Record<string, { doing: string; still: string; done: string; noun: string }> = {
  create: { doing: "Creating", still: "creating", done: "Creation complete", noun: "Creation" },
  update: {
    doing: "Modifying",
    still: "modifying",
    done: "Modifications complete",
    noun: "Modification",
  },
  replace: {
    doing: "Replacing",
    still: "replacing",
    done: "Replacement complete",
    noun: "Replacement",
  },
  delete: {
    doing: "Destroying",
    still: "destroying",
    done: "Destruction complete",
    noun: "Destruction",
  },
  read: { doing: "Reading", still: "reading", done: "Read complete", noun: "Read" },
  open: { doing: "Opening", still: "opening", done: "Opening complete", noun: "Opening" },
};

function words(action: string) {
  return WORDS[action] ??
    { doing: action, still: action, done: `${action} complete`, noun: action };
}

/** A duration as Terraform prints it: whole seconds, then minutes and seconds (`1m5s`). */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return (h ? `${h}h` : "") + `${m}m${s % 60}s`;
}

/** The line printed for an event, without its newline; undefined when it prints none. */
export function progressLine(e: ProgressEvent): string | undefined {
  // A data source dropped from the state is forgotten, not destroyed (Terraform is silent too).
  if (e.action === "delete" && e.mode === "data") return undefined;
  const w = words(e.action);
  const id = e.id === undefined ? "" : ` [id=${e.id}]`;
  const after = formatElapsed(e.ms ?? 0);
  switch (e.phase) {
    case "start":
      // The id of what is there before: Terraform's `Destroying... [id=x]`.
      return `${e.address}: ${w.doing}...${e.action === "create" ? "" : id}`;
    case "done":
      return `${e.address}: ${w.done} after ${after}${e.action === "delete" ? "" : id}`;
    case "failed":
      return `${e.address}: ${w.noun} failed after ${after}${e.summary ? `: ${e.summary}` : ""}`;
    case "cancelled":
      return `${e.address}: ${w.noun} cancelled after ${after}`;
  }
}

/** The `Still creating...` line of a node running for `ms`. */
export function stillLine(address: string, action: string, ms: number, id?: string): string {
  const idPart = id !== undefined && action !== "create" ? `id=${id}, ` : "";
  return `${address}: Still ${words(action).still}... [${idPart}${formatElapsed(ms)} elapsed]`;
}

/** What the view needs from its surroundings; the tests give a clock and timers of their own. */
export interface ProgressViewOptions {
  write: (text: string) => void;
  /** Redraw the running nodes in place (a terminal with colour), or print lines. */
  live: boolean;
  style: Style;
  /** Between two `Still ...` lines of a node (line view); 10 s by default. */
  intervalMs?: number;
  /** Between two redraws (live view); 1 s by default. */
  redrawMs?: number;
  now?: () => number;
  setInterval?: (f: () => void, ms: number) => Timer;
  clearInterval?: (id: Timer) => void;
}

type Timer = ReturnType<typeof setInterval>;

interface Running {
  action: string;
  id?: string;
  since: number;
  timer?: Timer;
}

/** Renders the events of one apply; `close()` stops its timers and clears the live lines. */
export class ApplyProgressView {
  readonly #o: Required<Omit<ProgressViewOptions, "style">> & { style: Style };
  readonly #running = new Map<string, Running>();
  /** Lines of running nodes drawn under the completed ones (live view). */
  #drawn = 0;
  #redraw?: Timer;

  constructor(options: ProgressViewOptions) {
    this.#o = {
      intervalMs: STILL_INTERVAL_MS,
      redrawMs: 1000,
      now: Date.now,
      setInterval: (f, ms) => setInterval(f, ms),
      clearInterval: (id) => clearInterval(id),
      ...options,
    };
  }

  /** Takes one event of apply. */
  event(e: ProgressEvent): void {
    const line = progressLine(e);
    if (line === undefined) return;
    if (e.phase === "start") {
      const r: Running = { action: e.action, id: e.id, since: this.#o.now() };
      this.#running.set(e.address, r);
      if (!this.#o.live) {
        r.timer = this.#o.setInterval(() => {
          this.#o.write(stillLine(e.address, r.action, this.#o.now() - r.since, r.id) + "\n");
        }, this.#o.intervalMs);
      }
    } else {
      const r = this.#running.get(e.address);
      if (r?.timer !== undefined) this.#o.clearInterval(r.timer);
      this.#running.delete(e.address);
    }
    if (!this.#o.live) {
      this.#o.write(line + "\n");
      return;
    }
    this.#o.write(this.#clear() + this.#paint(line) + "\n" + this.#footer());
    if (this.#running.size && this.#redraw === undefined) {
      this.#redraw = this.#o.setInterval(
        () => this.#o.write(this.#clear() + this.#footer()),
        this
          .#o.redrawMs,
      );
    } else if (!this.#running.size) this.#stopRedraw();
  }

  /** Stops the timers and removes the live lines; the completed lines stay. */
  close(): void {
    for (const r of this.#running.values()) {
      if (r.timer !== undefined) this.#o.clearInterval(r.timer);
    }
    this.#running.clear();
    this.#stopRedraw();
    if (this.#o.live) this.#o.write(this.#clear());
  }

  #stopRedraw(): void {
    if (this.#redraw !== undefined) this.#o.clearInterval(this.#redraw);
    this.#redraw = undefined;
  }

  #paint(line: string): string {
    const s = this.#o.style;
    if (/ failed after /.test(line)) return s.red(line);
    if (/ cancelled after /.test(line)) return s.yellow(line);
    return line;
  }

  /** Moves up over the running lines drawn last, and clears them. */
  #clear(): string {
    const up = this.#drawn ? `\x1b[${this.#drawn}A` : "";
    this.#drawn = 0;
    return up + "\r\x1b[J";
  }

  /** The running nodes, with their elapsed time, each on its line. */
  #footer(): string {
    const now = this.#o.now();
    const lines = [...this.#running].map(([address, r]) =>
      this.#o.style.dim(stillLine(address, r.action, now - r.since, r.id))
    );
    this.#drawn = lines.length;
    return lines.map((l) => l + "\n").join("");
  }
}
