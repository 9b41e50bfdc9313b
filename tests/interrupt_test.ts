/**
 * Interrupted runs, end to end: a real `pravo apply` of several `time_sleep`
 * nodes sent SIGINT, SIGTERM (what `pravo mcp` sends to stop a call) or
 * SIGKILL in the middle of its walk, then the next run; a run that holds
 * nothing stopping at once; `pravo state unlock`. The same on PostgreSQL when
 * `PRAVO_TEST_PG` names a server.
 *
 * No assertion here is about time: each waits for an event (a node recorded
 * in the state) and then checks what the run left.
 */

import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { MAIN, makeRoot, pravo, type RunResult, writeFiles } from "./_pravo.ts";
import { openStore } from "../lib/state/open.ts";
import type { LogEntry } from "../lib/state/store.ts";

const SCRIPT = new URL("../scripts/pravo", import.meta.url).pathname;

/** `fast` is done at once; `slow` and `slow2` wait (and can be cancelled); `after` waits for `slow`. */
const SLEEPS = (wait: string) =>
  `package slow

import tm "pravo.dev/providers/hashicorp/time"

$time: tm.#Provider

fast:  $time.#Resource.time_sleep & {create_duration: "0s"}
slow:  $time.#Resource.time_sleep & {create_duration: "${wait}"}
slow2: $time.#Resource.time_sleep & {create_duration: "${wait}"}
after: $time.#Resource.time_sleep & {create_duration: "0s", triggers: {after: slow.id}}
`;

interface Started {
  pid: number;
  done: Promise<RunResult>;
}

/**
 * Starts `pravo ARGS` in `root` and returns at once: from the source with
 * every permission, or through `scripts/pravo` with the narrow permissions
 * an operator (and `pravo mcp`) runs it with. The script ends in `exec`, so
 * the pid is pravo's own.
 */
function start(
  root: string,
  args: string[],
  opts: { env?: Record<string, string>; narrow?: boolean } = {},
): Started {
  const child = new Deno.Command(opts.narrow ? SCRIPT : Deno.execPath(), {
    args: opts.narrow
      ? ["--no-color", ...args]
      : ["run", "-A", "--quiet", MAIN, "--no-color", ...args],
    cwd: root,
    env: { PRAVO_ACTOR: "test", ...opts.env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const done = child.output().then((out) => ({
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  }));
  return { pid: child.pid, done };
}

/** Waits until `cond` holds, checking every 100 ms; fails after `limitMs` (a guard, not a measure). */
async function until(cond: () => Promise<boolean>, what: string, limitMs = 120_000) {
  const end = Date.now() + limitMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * True when process `pid` has `path` open (Linux: /proc/PID/fd). A pravo
 * run opens the state after it starts listening for signals.
 */
async function hasOpen(pid: number, path: string): Promise<boolean> {
  try {
    for await (const e of Deno.readDir(`/proc/${pid}/fd`)) {
      const target = await Deno.readLink(`/proc/${pid}/fd/${e.name}`).catch(() => "");
      if (target === path) return true;
    }
  } catch {
    // not started yet, or gone
  }
  return false;
}

/** The state of `root` (default SQLite, or `env.PRAVO_STATE`), read in this process. */
async function readState(root: string, env: Record<string, string> = {}) {
  const store = await openStore({ root, state: env.PRAVO_STATE }, { readOnly: true });
  try {
    return {
      records: new Map((await store.listRecords()).map((r) => [r.address, r])),
      log: await store.readLog(),
      locks: await store.listLocks(),
      serial: (await store.identity()).serial,
    };
  } finally {
    await store.close();
  }
}

/** Every change of the log whose action is `action`, by address. */
function changes(log: LogEntry[], action: string) {
  return new Map(
    log.flatMap((e) => e.changes.filter((c) => c.action === action).map((c) => [c.address, c])),
  );
}

/** Applies SLEEPS, waits until `fast` is recorded, sends `signal`, and returns what the run said. */
async function interruptApply(
  root: string,
  signal: Deno.Signal,
  opts: { env?: Record<string, string>; narrow?: boolean; json?: boolean } = {},
): Promise<RunResult> {
  const run = start(root, [...(opts.json ? ["--json"] : []), "apply", "-auto-approve"], opts);
  await until(
    async () =>
      (await readState(root, opts.env).catch(() => undefined))?.records.has("fast") ??
        false,
    "fast to be applied",
  );
  Deno.kill(run.pid, signal);
  return await run.done;
}

/** What every interrupted apply of SLEEPS must leave. */
async function checkInterrupted(
  root: string,
  r: RunResult,
  signal: string,
  env: Record<string, string> = {},
) {
  assert.equal(r.code, signal === "SIGTERM" ? 143 : 130, `exit code\n${r.stdout}\n${r.stderr}`);
  const state = await readState(root, env);
  assert.deepEqual(state.locks, [], "the lock is released");
  assert.deepEqual([...state.records.keys()], ["fast"], "only the completed node is recorded");
  const interrupted = changes(state.log, "interrupted");
  assert.deepEqual([...interrupted.keys()].sort(), ["after", "slow", "slow2"]);
  assert.equal(interrupted.get("slow")!.after!.status, "cancelled");
  assert.equal(interrupted.get("slow2")!.after!.status, "cancelled");
  assert.equal(interrupted.get("after")!.after!.status, "not started");
  assert.equal(interrupted.get("after")!.after!.signal, signal);
  assert.equal(interrupted.get("after")!.after!.planned_action, "create");
  assert.ok(changes(state.log, "create").has("fast"), "the completed node is in the log");
  // The next apply gets the lock at once and finishes the work.
  await writeFiles(root, { "main.cue": SLEEPS("0s") });
  const next = await pravo(root, ["apply", "-auto-approve"], { env });
  assert.equal(next.code, 0, next.stderr);
  assert.doesNotMatch(next.stderr, /locked|Took over/);
  assert.deepEqual([...(await readState(root, env)).records.keys()].sort(), [
    "after",
    "fast",
    "slow",
    "slow2",
  ]);
}

async function sleepsRoot(env: Record<string, string> = {}): Promise<string> {
  const root = await makeRoot({ "main.cue": SLEEPS("300s") });
  const init = await pravo(root, ["init"], { env });
  assert.equal(init.code, 0, init.stderr);
  return root;
}

Deno.test("apply sent SIGINT mid-walk: cancels the waiting nodes, starts nothing new, records what was done and not, releases the lock, exits 130", async () => {
  const root = await sleepsRoot();
  const r = await interruptApply(root, "SIGINT");
  // The plan and the nodes' lines come first (apply's progress), then the summary.
  assert.match(r.stdout, /^Apply interrupted \(SIGINT\)\. Resources: 1 added/m);
  assert.match(r.stdout, /^fast: Creation complete after \d+s/m);
  assert.match(r.stdout, /^slow: Creation cancelled after \d+s$/m);
  assert.doesNotMatch(r.stdout, /^after: Creating/m);
  assert.match(r.stdout, /Cancelled: slow, slow2\./);
  assert.match(r.stdout, /Not started: after\./);
  assert.match(r.stderr, /Interrupt received \(SIGINT\): stopping/);
  assert.match(r.stderr, /Interrupted while waiting/);
  const log = await pravo(root, ["state", "log", "--address", "after"]);
  assert.match(log.stdout, /x after \(interrupted: create not started on SIGINT\)/);
  await checkInterrupted(root, r, "SIGINT");
});

Deno.test("apply sent SIGTERM (as pravo mcp stops a call) with the narrow permissions: the same, and --json says so", async () => {
  const root = await sleepsRoot();
  const r = await interruptApply(root, "SIGTERM", { narrow: true, json: true });
  const doc = JSON.parse(r.stdout);
  assert.equal(doc.interrupted, "SIGTERM");
  assert.equal(doc.ok, false);
  assert.deepEqual(
    Object.fromEntries(doc.nodes.map((n: { address: string; status: string }) => [
      n.address,
      n.status,
    ])),
    { fast: "applied", slow: "cancelled", slow2: "cancelled", after: "not_started" },
  );
  assert.equal(doc.summary.cancelled, 2);
  assert.equal(doc.summary.not_started, 1);
  assert.equal(r.stderr, "", "with --json, no note on standard error");
  await checkInterrupted(root, r, "SIGTERM");
});

Deno.test("a run killed with SIGKILL under the narrow permissions: the next apply sees its process gone and takes the lock over at once", async () => {
  const root = await sleepsRoot();
  const r = await interruptApply(root, "SIGKILL", { narrow: true });
  assert.notEqual(r.code, 0);
  const locks = await pravo(root, ["state", "locks"]);
  assert.match(locks.stdout, /stale: +its process \d+ on host .* is gone/);
  await writeFiles(root, { "main.cue": SLEEPS("0s") });
  // Under the same narrow permissions, which cannot read /proc: the lock's
  // beacon tells. Without it this waits 10 s and exits 4.
  const next = start(root, ["apply", "-auto-approve"], { narrow: true });
  const done = await next.done;
  assert.equal(done.code, 0, done.stderr);
  assert.match(done.stderr, /Warning: Took over the state lock of "test" \(command "apply"\)/);
  assert.match(done.stderr, /is gone/);
});

Deno.test("a second SIGINT stops at once; the state is whole and the next apply runs", async () => {
  const root = await sleepsRoot();
  const run = start(root, ["apply", "-auto-approve"]);
  await until(async () => (await readState(root)).records.has("fast"), "fast to be applied");
  Deno.kill(run.pid, "SIGINT");
  try {
    Deno.kill(run.pid, "SIGINT");
  } catch (e) {
    // The first one was enough: the run ended (and was reaped) in between,
    // on a machine that paused this test there. The checks below allow it.
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  const r = await run.done;
  assert.equal(r.code, 130, r.stderr);
  assert.match(r.stdout + r.stderr, /Stopped at once by a second SIGINT|Apply interrupted/);
  const db = new DatabaseSync(`${root}/.pravo/state.db`, { readOnly: true });
  try {
    assert.equal(db.prepare("PRAGMA integrity_check").get()?.integrity_check, "ok");
  } finally {
    db.close();
  }
  await writeFiles(root, { "main.cue": SLEEPS("0s") });
  const next = await pravo(root, ["apply", "-auto-approve"]);
  assert.equal(next.code, 0, next.stderr);
  assert.equal((await readState(root)).records.size, 4);
});

Deno.test("an interrupt while nothing is held (waiting for the lock) stops at once with 130; the holder keeps its lock", async () => {
  const root = await sleepsRoot();
  const holder = start(root, ["apply", "-auto-approve"]);
  await until(async () => (await readState(root)).records.has("fast"), "fast to be applied");
  const waiter = start(root, ["--actor", "second", "apply", "-auto-approve"]);
  // Once it has opened the state it waits for the lock, holding nothing
  // (and it listens for signals before any command starts).
  await until(
    () => hasOpen(waiter.pid, `${root}/.pravo/state.db`),
    "the second run to open the state",
  );
  Deno.kill(waiter.pid, "SIGINT");
  const w = await waiter.done;
  assert.equal(w.code, 130, w.stderr);
  assert.match(w.stderr, /Interrupted by SIGINT/);
  assert.match(w.stderr, /held no lock and no reservation/);
  assert.equal((await readState(root)).locks[0]?.actor, "test", "the first run still holds it");
  Deno.kill(holder.pid, "SIGINT");
  assert.equal((await holder.done).code, 130);
  assert.deepEqual((await readState(root)).locks, []);
});

Deno.test("a saved plan interrupted mid-walk: its reservation is released and the plan is stale", async () => {
  const root = await sleepsRoot();
  const plan = await pravo(root, ["plan", "--reserve", "--out", "x.plan"]);
  assert.equal(plan.code, 2, plan.stderr);
  const reserved = await pravo(root, ["--json", "state", "locks"]);
  assert.equal(JSON.parse(reserved.stdout).reservations.length, 1);
  const run = start(root, ["apply", "x.plan"]);
  await until(async () => (await readState(root)).records.has("fast"), "fast to be applied");
  Deno.kill(run.pid, "SIGINT");
  const r = await run.done;
  assert.equal(r.code, 130, r.stderr);
  const locks = await pravo(root, ["--json", "state", "locks"]);
  assert.deepEqual(JSON.parse(locks.stdout), {
    format_version: "1.0",
    lock: null,
    reservations: [],
  });
  const again = await pravo(root, ["apply", "x.plan"]);
  assert.equal(again.code, 6, again.stderr);
});

Deno.test("pravo state unlock: refused without a terminal or --force; with --force releases the lock, logged with actor and reason; an unknown id is refused", async () => {
  const root = await sleepsRoot();
  const run = start(root, ["apply", "-auto-approve"]);
  await until(async () => (await readState(root)).records.has("fast"), "fast to be applied");
  Deno.kill(run.pid, "SIGKILL");
  await run.done;
  const id = (await readState(root)).locks[0].id;

  const refused = await pravo(root, ["state", "unlock", id]);
  assert.equal(refused.code, 64);
  assert.match(refused.stderr, /state unlock needs a terminal, or --force/);
  assert.equal((await readState(root)).locks.length, 1, "refused: nothing changed");

  const wrong = await pravo(root, ["state", "unlock", "--force", crypto.randomUUID()]);
  assert.equal(wrong.code, 1);
  assert.match(wrong.stderr, new RegExp(`No state lock .*The state lock is ${id}`, "s"));

  const serial = (await readState(root)).serial;
  const ok = await pravo(root, [
    "--actor",
    "ops",
    "--reason",
    "the apply was killed",
    "state",
    "unlock",
    "-force",
    id,
  ]);
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, new RegExp(`Released the state lock ${id} of "test"`));
  const state = await readState(root);
  assert.deepEqual(state.locks, []);
  assert.equal(state.serial, serial + 1);
  const entry = state.log[0];
  assert.equal(entry.command, "state unlock");
  assert.equal(entry.actor, "ops");
  assert.equal(entry.reason, "the apply was killed");
  assert.deepEqual(entry.changes.map((c) => [c.address, c.action, c.before?.id]), [[
    "(state lock)",
    "unlock",
    id,
  ]]);
  const again = await pravo(root, ["state", "unlock", "--force", id]);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /The state is not locked/);
});

// --- PostgreSQL --------------------------------------------------------------

const PG = Deno.env.get("PRAVO_TEST_PG") ?? "";
if (PG === "") {
  console.log("tests/interrupt_test.ts: PostgreSQL tests skipped: PRAVO_TEST_PG names no server");
}
const pgEnv = () => ({
  PRAVO_STATE: `${PG}${PG.includes("?") ? "&" : "?"}root=test/interrupt/${crypto.randomUUID()}`,
});
const pgTest = (name: string, fn: () => Promise<void>) =>
  Deno.test({ name, ignore: PG === "", sanitizeResources: false, sanitizeOps: false, fn });

pgTest(
  "PostgreSQL: apply sent SIGINT mid-walk releases the lock, records what was and was not done, exits 130",
  async () => {
    const env = pgEnv();
    const root = await sleepsRoot(env);
    const r = await interruptApply(root, "SIGINT", { env });
    assert.match(r.stdout, /Apply interrupted \(SIGINT\)/);
    await checkInterrupted(root, r, "SIGINT", env);
  },
);

pgTest(
  "PostgreSQL: SIGTERM with the narrow permissions, then state unlock of a killed run's lock",
  async () => {
    const env = pgEnv();
    const root = await sleepsRoot(env);
    const r = await interruptApply(root, "SIGTERM", { env, narrow: true });
    await checkInterrupted(root, r, "SIGTERM", env);

    await writeFiles(root, { "main.cue": SLEEPS("300s").replaceAll("slow", "nap") });
    const run = start(root, ["apply", "-auto-approve"], { env });
    // `fast` is already recorded (the apply above finished the work): wait
    // until this run has destroyed `slow`, so it is in the middle of its walk
    // (creating `nap`, 300 s) and not still planning, when the lock is forced.
    // Forced while it plans, the run rightly fails at its first write and is
    // gone before the SIGINT below.
    await until(
      async () => {
        const state = await readState(root, env);
        return state.locks.length > 0 && !state.records.has("slow");
      },
      "the lock to be taken and slow destroyed",
    );
    const id = (await readState(root, env)).locks[0].id;
    const ok = await pravo(root, [
      "--actor",
      "ops",
      "--reason",
      "stuck",
      "state",
      "unlock",
      "--force",
      id,
    ], {
      env,
    });
    assert.equal(ok.code, 0, ok.stderr);
    // The holder was alive: the operator is warned.
    assert.match(ok.stderr, /The lock's holder may still be running/);
    const state = await readState(root, env);
    assert.deepEqual(state.locks, []);
    assert.deepEqual(state.log[0].changes.map((c) => [c.action, c.before?.id]), [["unlock", id]]);
    assert.equal(state.log[0].actor, "ops");
    Deno.kill(run.pid, "SIGINT");
    await run.done;
  },
);

Deno.test("plan --reserve whose plan file cannot be written releases the reservation it made (as an interrupt there does)", async () => {
  const root = await sleepsRoot();
  // A name the file system takes, but not with the temporary file's suffix
  // (".NAME.UUID.tmp" passes 255 bytes): the write fails after the reservation.
  const r = await pravo(root, ["plan", "--reserve", "--out", "x".repeat(220) + ".plan"]);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /Cannot write the plan file/);
  const locks = await pravo(root, ["--json", "state", "locks"]);
  assert.deepEqual(JSON.parse(locks.stdout).reservations, []);
});

Deno.test("state migrate interrupted while it holds the lock copies nothing and releases the lock", async () => {
  const root = await sleepsRoot();
  const lib = new URL("../lib/", import.meta.url).href;
  // In a process of its own: the interrupt arrives before the copy is written.
  const script = `
    import { Interrupts } from "${lib}workspace/interrupts.ts";
    import { migrateState } from "${lib}state/migrate.ts";
    import { stateLocation } from "${lib}state/open.ts";
    const root = ${JSON.stringify(root)};
    const interrupts = new Interrupts();
    interrupts.receive("SIGTERM");
    try {
      await migrateState(await stateLocation({ root, state: undefined }), await stateLocation({ root, state: "sqlite:copy.db" }), { actor: "t", reason: "", root, interrupts });
      console.log("copied");
    } catch (e) {
      console.log(e.kind, e.diagnostics?.[0]?.summary, e.diagnostics?.[0]?.detail);
    }`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      "--quiet",
      "--config",
      new URL("../deno.json", import.meta.url).pathname,
      script,
    ],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  assert.match(
    text,
    /^terminated Interrupted by SIGTERM Nothing was copied; the source is unchanged\./,
  );
  await assert.rejects(Deno.stat(`${root}/copy.db`));
  assert.deepEqual((await readState(root)).locks, []);
});
