/**
 * The workspace a command runs with, as main.ts's `run` opens it: one per
 * command, its signal the interrupts' that the command layer owns.
 */
import assert from "node:assert/strict";
import { run } from "../main.ts";
import type { Context } from "../lib/cli/command.ts";
import { Interrupts } from "../lib/workspace/interrupts.ts";

const streams = { stdout: () => {}, stderr: () => {}, isTerminal: false };

Deno.test("run() opens one workspace per command, its signal the one of the interrupts it is given", async () => {
  const root = await Deno.makeTempDir();
  const interrupts = new Interrupts();
  let seen: Context | undefined;
  await run(["-C", root, "providers"], streams, () => undefined, undefined, {
    interrupts,
    onStart: (ctx) => void (seen = ctx),
  });
  assert.ok(seen);
  assert.equal(seen.interrupts, interrupts);
  assert.equal(seen.workspace.signal, interrupts.signal);
  assert.equal(seen.workspace.root, root);
  assert.ok(Object.isFrozen(seen.workspace));
  assert.equal(seen.workspace.signal.aborted, false);
  interrupts.receive("SIGINT");
  assert.equal(
    seen.workspace.signal.aborted,
    true,
    "the first interrupt aborts the workspace's signal",
  );

  let other: Context | undefined;
  await run(["-C", root, "providers"], streams, () => undefined, undefined, {
    onStart: (ctx) => void (other = ctx),
  });
  assert.ok(other && other.workspace !== seen.workspace, "each command its own workspace");
  assert.equal(other.workspace.signal.aborted, false, "and its own interrupts");
});
