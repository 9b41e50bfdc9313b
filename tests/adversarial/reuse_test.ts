/**
 * Issue 10, beyond the list: using a decision twice, or holding one that no
 * one made. Tried as an agent would, through the real `pravo mcp` and with
 * the editor an operator gives it in the root; each test reproduces a hole
 * found on main and asserts that it is closed.
 *
 * - An approved plan, applied, then the state rolled back by the agent (it
 *   can copy `.pravo/state.db` with its editor): the plan was current again,
 *   and the server applied it a second time on the one approval.
 * - `reserve` without `out`: a reservation for a plan that is never saved,
 *   so never applied, which kept every operator out of the nodes until it
 *   expired (and the agent could renew it at will).
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { approverKey, call, connect, exitCode, pravo, seedRoot, text } from "../mcp/_client.ts";

async function log(root: string): Promise<{ id: number; changes: unknown[] }[]> {
  const r = await pravo(root, ["--json", "state", "log"]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout).entries;
}

/** The operator plans to replace base in `root` (r.plan) and approves it with `op`. */
async function approveReplace(root: string, op: { key: string }): Promise<void> {
  assert.equal((await pravo(root, ["plan", "--replace", "base", "--out", "r.plan"])).code, 2);
  assert.equal((await pravo(root, ["approve", "r.plan", "--key", op.key])).code, 0);
}

/** `root` applied, then approveReplace(). */
async function approvedReplace(root: string, op: { key: string }): Promise<void> {
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
  await approveReplace(root, op);
}

Deno.test("an approved plan applies once: a state the agent rolls back does not make the server apply it again", async () => {
  const root = await seedRoot();
  await using op = await approverKey();
  await approvedReplace(root, op);
  await using s = await connect(root, { args: ["--approver", op.pub] });
  // The server says at start what the approvals rest on.
  assert.match(s.stderr(), /Warning: the state .*state\.db lies inside the root/);
  // The agent keeps a copy of the state before the apply.
  const saved = await Deno.readFile(join(root, ".pravo", "state.db"));
  const first = await call(s, "pravo_apply_plan", { planfile: "r.plan" });
  assert.equal(exitCode(first), 0, text(first));
  const applied = (await log(root)).length;
  // ... and puts it back: the plan is current again.
  for (const f of ["state.db-wal", "state.db-shm"]) {
    await Deno.remove(join(root, ".pravo", f)).catch(() => {});
  }
  await Deno.writeFile(join(root, ".pravo", "state.db"), saved);
  const again = await call(s, "pravo_apply_plan", { planfile: "r.plan" });
  assert.equal(again.isError, true, text(again));
  assert.equal(again.structuredContent, undefined, text(again));
  assert.match(
    text(again),
    /planfile "r\.plan" was applied already: an approval is for one apply/,
  );
  assert.equal(
    (await log(root)).length,
    applied - 1,
    "nothing was applied on the rolled-back state",
  );
});

Deno.test("an approved apply refused before it changed anything (a stale plan) leaves its approval for a later try", async () => {
  const root = await seedRoot();
  await using op = await approverKey();
  await approvedReplace(root, op);
  const saved = await Deno.readFile(join(root, ".pravo", "state.db"));
  // The state moves (an operator's apply): the plan is stale, and refused.
  assert.equal((await pravo(root, ["apply", "-auto-approve", "--replace", "base"])).code, 0);
  await using s = await connect(root, { args: ["--approver", op.pub] });
  const stale = await call(s, "pravo_apply_plan", { planfile: "r.plan" });
  assert.equal(exitCode(stale), 6, text(stale));
  // The operator restores the state the plan was made for: the approval still holds once.
  for (const f of ["state.db-wal", "state.db-shm"]) {
    await Deno.remove(join(root, ".pravo", f)).catch(() => {});
  }
  await Deno.writeFile(join(root, ".pravo", "state.db"), saved);
  const ok = await call(s, "pravo_apply_plan", { planfile: "r.plan" });
  assert.equal(exitCode(ok), 0, text(ok));
});

Deno.test("pravo_plan with reserve but without out is refused and reserves nothing: no reservation that no apply can ever release", async () => {
  const root = await seedRoot();
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
  const s = await connect(root, { args: ["--actor", "agent"] });
  try {
    const r = await call(s, "pravo_plan", { destroy: true, reserve: true });
    assert.equal(exitCode(r), 64, text(r));
    assert.match(text(r), /--reserve needs --out FILE/);
  } finally {
    await s.close();
  }
  const locks = await pravo(root, ["--json", "state", "locks"]);
  assert.deepEqual(JSON.parse(locks.stdout).reservations, []);
  // The operator's plan is not kept out.
  assert.equal((await pravo(root, ["--actor", "op", "plan", "--replace", "base"])).code, 2);
});

Deno.test("a plan and its approval copied from a twin root (a copy with the same state lineage) are not approved there", async () => {
  const root = await seedRoot();
  await using op = await approverKey();
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
  // The twin: the same root copied, state and all (staging made from production).
  const twin = await Deno.makeTempDir({ prefix: "pravo-twin-" });
  const cp = await new Deno.Command("cp", { args: ["-a", `${root}/.`, twin] }).output();
  assert.ok(cp.success);
  // In the first root the operator approves a plan that replaces base.
  await approveReplace(root, op);
  // The agent, with an editor in both, carries the file and the approval over.
  await Deno.copyFile(join(root, "r.plan"), join(twin, "r.plan"));
  await Deno.copyFile(
    join(root, ".pravo", "approvals.jsonl"),
    join(twin, ".pravo", "approvals.jsonl"),
  );
  const before = (await log(twin)).length;
  const s = await connect(twin, { args: ["--approver", op.pub] });
  try {
    const r = await call(s, "pravo_apply_plan", { planfile: "r.plan" });
    assert.equal(r.isError, true, text(r));
    assert.equal(r.structuredContent, undefined, text(r));
    assert.match(
      text(r),
      /was made in another root .*: an approval holds for the root its plan was made in/,
    );
  } finally {
    await s.close();
  }
  assert.equal((await log(twin)).length, before, "nothing was applied in the twin");
  // In its own root the approval holds.
  await using s2 = await connect(root, { args: ["--approver", op.pub] });
  const ok = await call(s2, "pravo_apply_plan", { planfile: "r.plan" });
  assert.equal(exitCode(ok), 0, text(ok));
});
