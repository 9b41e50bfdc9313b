/**
 * Issue 10, hole 10, as an agent meets it: a `pravo_apply_plan` call that
 * the client cancels (`notifications/cancelled`) or that the server's
 * `--timeout` stops. The server stops its child with SIGTERM; the child must
 * stop starting nodes, record what it did and did not do, and release the
 * state lock, so that the agent's next apply is not locked out for two
 * minutes. Through the real `pravo mcp` started with the narrow permissions
 * an operator uses (scripts/pravo), and the SDK's client.
 */

import assert from "node:assert/strict";
import { call, connect, makeRoot, pravo, processesWith, text, waitFor } from "../mcp/_client.ts";
import { openStore } from "../../lib/state/open.ts";

const ROOT = (wait: string) =>
  `package slow

import tm "pravo.dev/providers/hashicorp/time"

$time: tm.#Provider

fast: $time.#Resource.time_sleep & {create_duration: "0s"}
nap:  $time.#Resource.time_sleep & {create_duration: "${wait}"}
`;

async function state(root: string) {
  const store = await openStore({ root, state: undefined }, { readOnly: true });
  try {
    return {
      records: (await store.listRecords()).map((r) => r.address),
      log: await store.readLog(),
      locks: await store.listLocks(),
    };
  } finally {
    await store.close();
  }
}

/** Polls the state (in this process) until `fast` is recorded: the apply is in its walk. */
async function untilFastApplied(root: string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if ((await state(root)).records.includes("fast")) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("fast was never applied");
}

/** What must hold after the agent's apply was stopped: no lock, the log says so, the next apply runs. */
async function checkAfterStop(root: string, s: Awaited<ReturnType<typeof connect>>) {
  // The server's own command line names the root too (its permission flags).
  const children = () => processesWith(root).filter((p) => !p.argv.includes("mcp"));
  await waitFor(() => children().length === 0, 30_000, "the child to end");
  const st = await state(root);
  assert.deepEqual(st.locks, [], "the stopped child released the state lock");
  assert.deepEqual(st.records, ["fast"]);
  const nap = st.log.flatMap((e) => e.changes).find((c) => c.address === "nap");
  assert.equal(nap?.action, "interrupted");
  assert.equal(nap?.after?.status, "cancelled");
  assert.equal(nap?.after?.signal, "SIGTERM");
  // The agent edits the root and applies again: not locked out (exit 4).
  await Deno.writeTextFile(`${root}/main.cue`, ROOT("0s"));
  const plan = await call(s, "pravo_plan", { out: "y.plan" });
  assert.equal(plan.structuredContent?.exit_code, 2, text(plan));
  const apply = await call(s, "pravo_apply_plan", { planfile: "y.plan" });
  assert.equal(apply.structuredContent?.exit_code, 0, text(apply));
  assert.deepEqual((await state(root)).records, ["fast", "nap"]);
}

async function slowRoot(): Promise<string> {
  const root = await makeRoot({ "main.cue": ROOT("300s") });
  assert.equal((await pravo(root, ["init"])).code, 0);
  assert.equal((await pravo(root, ["plan", "--out", "x.plan"])).code, 2);
  return root;
}

Deno.test("an agent's pravo_apply_plan cancelled with notifications/cancelled: the child records what it did, releases the lock, and the next apply runs", async () => {
  const root = await slowRoot();
  const s = await connect(root, { script: true });
  try {
    const abort = new AbortController();
    const pending = call(s, "pravo_apply_plan", { planfile: "x.plan" }, { signal: abort.signal });
    pending.catch(() => {});
    await untilFastApplied(root);
    abort.abort("the agent changed its mind");
    await assert.rejects(pending);
    await checkAfterStop(root, s);
  } finally {
    await s.close();
  }
});

Deno.test("an agent's pravo_apply_plan stopped by the server's --timeout: the same", async () => {
  const root = await slowRoot();
  // Long enough for the child to start and apply `fast`, whatever the machine.
  const s = await connect(root, { script: true, args: ["--timeout", "20s"] });
  try {
    const r = await call(s, "pravo_apply_plan", { planfile: "x.plan" });
    assert.equal(r.isError, true);
    assert.match(text(r), /\[stopped: the call ran longer than 20 s/);
    await checkAfterStop(root, s);
  } finally {
    await s.close();
  }
});

Deno.test("no MCP tool releases a lock or a reservation: state unlock is for operators only", async () => {
  const root = await slowRoot();
  const s = await connect(root, { script: true });
  try {
    const { tools } = await s.client.listTools();
    assert.ok(tools.length > 0);
    const names = tools.map((t: { name: string }) => t.name);
    assert.deepEqual(names.filter((n: string) => /unlock|release|force/.test(n)), []);
  } finally {
    await s.close();
  }
});
