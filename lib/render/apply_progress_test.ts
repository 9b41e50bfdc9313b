import assert from "node:assert/strict";
import { Style } from "../diag/style.ts";
import {
  ApplyProgressView,
  formatElapsed,
  progressLine,
  type ProgressViewOptions,
  stillLine,
} from "./apply_progress.ts";

/** A view with a clock and timers the test moves by hand. */
function harness(live: boolean, extra: Partial<ProgressViewOptions> = {}) {
  let now = 0;
  let next = 1;
  const timers = new Map<number, { f: () => void; every: number; due: number }>();
  const out: string[] = [];
  const view = new ApplyProgressView({
    write: (t) => out.push(t),
    live,
    style: new Style(false),
    now: () => now,
    setInterval: ((f: () => void, every: number) => {
      timers.set(next, { f, every, due: now + every });
      return next++;
    }) as unknown as ProgressViewOptions["setInterval"],
    clearInterval: ((id: number) => timers.delete(id)) as unknown as ProgressViewOptions[
      "clearInterval"
    ],
    ...extra,
  });
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      const due = [...timers.values()].filter((t) => t.due <= end).sort((a, b) => a.due - b.due)[0];
      if (!due) break;
      now = due.due;
      due.due += due.every;
      due.f();
    }
    now = end;
  };
  /** Asserts the view wrote exactly `lines` and left no timer running. */
  const assertDone = (lines: string[]) => {
    assert.deepEqual(out, lines);
    assert.equal(timers.size, 0);
  };
  return { view, out, advance, timers, assertDone };
}

/** Events of a node and the line Terraform prints for each. */
const PROGRESS_LINES: [Parameters<typeof progressLine>[0], string | undefined][] = [
  [{ address: "base", action: "create", phase: "start" }, "base: Creating..."],
  [
    { address: "base", action: "create", phase: "done", ms: 1200, id: "7" },
    "base: Creation complete after 1s [id=7]",
  ],
  [{ address: "f", action: "update", phase: "start", id: "a1" }, "f: Modifying... [id=a1]"],
  [
    { address: "f", action: "update", phase: "done", ms: 0, id: "a1" },
    "f: Modifications complete after 0s [id=a1]",
  ],
  [{ address: "f", action: "delete", phase: "start", id: "a1" }, "f: Destroying... [id=a1]"],
  [{ address: "f", action: "delete", phase: "done", ms: 0 }, "f: Destruction complete after 0s"],
  [
    { address: "d", action: "read", mode: "data", phase: "done", ms: 0, id: "x" },
    "d: Read complete after 0s [id=x]",
  ],
  [
    { address: "f", action: "create", phase: "failed", ms: 65_000, summary: "Disk full" },
    "f: Creation failed after 1m5s: Disk full",
  ],
  [
    { address: "p", action: "create", phase: "cancelled", ms: 3000 },
    "p: Creation cancelled after 3s",
  ],
  // A data source forgotten is not destroyed: no line, as the counts do not count it.
  [{ address: "d", action: "delete", mode: "data", phase: "start" }, undefined],
];

Deno.test("progressLine() says what Terraform says as a node starts and ends", () => {
  for (const [event, line] of PROGRESS_LINES) {
    assert.equal(progressLine(event), line, JSON.stringify(event));
  }
});

Deno.test("stillLine() and formatElapsed() write elapsed times as Terraform does", () => {
  assert.equal(stillLine("p", "create", 10_400), "p: Still creating... [10s elapsed]");
  assert.equal(stillLine("p", "delete", 20_000, "i"), "p: Still destroying... [id=i, 20s elapsed]");
  assert.equal(formatElapsed(3_725_000), "1h2m5s");
});

Deno.test("ApplyProgressView prints Still creating... every interval while a node runs, then stops", () => {
  const { view, advance, assertDone } = harness(false);
  view.event({ address: "pause", action: "create", phase: "start" });
  advance(25_000);
  view.event({ address: "pause", action: "create", phase: "done", ms: 25_000, id: "t" });
  advance(30_000);
  assertDone([
    "pause: Creating...\n",
    "pause: Still creating... [10s elapsed]\n",
    "pause: Still creating... [20s elapsed]\n",
    "pause: Creation complete after 25s [id=t]\n",
  ]);
});

Deno.test("ApplyProgressView takes another interval, and close() stops every timer", () => {
  const { view, advance, assertDone } = harness(false, { intervalMs: 500 });
  view.event({ address: "a", action: "create", phase: "start" });
  view.event({ address: "b", action: "delete", phase: "start", id: "9" });
  advance(1000);
  view.close();
  advance(5000);
  assertDone([
    "a: Creating...\n",
    "b: Destroying... [id=9]\n",
    "a: Still creating... [0s elapsed]\n",
    "b: Still destroying... [id=9, 0s elapsed]\n",
    "a: Still creating... [1s elapsed]\n",
    "b: Still destroying... [id=9, 1s elapsed]\n",
  ]);
});

Deno.test("ApplyProgressView live: completed lines stay, the running nodes are redrawn in place", () => {
  const { view, out, advance, timers } = harness(true);
  view.event({ address: "a", action: "create", phase: "start" });
  view.event({ address: "b", action: "create", phase: "start" });
  advance(2000);
  view.event({ address: "a", action: "create", phase: "done", ms: 2000, id: "1" });
  view.close();
  assert.equal(timers.size, 0);
  const screen = out.join("");
  // Each redraw moves up over the lines it drew and clears below.
  assert.ok(screen.includes("\x1b[2A\r\x1b[J"), JSON.stringify(screen));
  assert.ok(screen.includes("b: Still creating... [2s elapsed]\n"));
  // What a terminal shows at the end: the completed lines, and nothing of the live part.
  assert.deepEqual(render(screen), [
    "a: Creating...",
    "b: Creating...",
    "a: Creation complete after 2s [id=1]",
  ]);
});

/** What a terminal shows after `text`: lines, with cursor-up and clear-below applied. */
function render(text: string): string[] {
  const lines: string[] = [""];
  let row = 0;
  // deno-lint-ignore no-control-regex
  const re = /\x1b\[(\d*)A|\r|\x1b\[J|\n|[^\x1b\r\n]+/g;
  for (const m of text.matchAll(re)) {
    const t = m[0];
    if (t.startsWith("\x1b[") && t.endsWith("A")) row = Math.max(0, row - Number(m[1] || 1));
    else if (t === "\r") lines[row] = lines[row] ?? "";
    else if (t === "\x1b[J") lines.length = row + 1, lines[row] = "";
    else if (t === "\n") {
      row++;
      if (lines.length <= row) lines.push("");
    } else lines[row] = (lines[row] ?? "") + t;
  }
  return lines.filter((l) => l !== "");
}
