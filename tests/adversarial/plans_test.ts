/**
 * Issue 10, holes 1, 2, 3 and 6, tried as an agent would: through the real
 * `pravo mcp` (the SDK's client), and with the editor an operator gives it
 * in the root. Each test reproduces a hole as it was on main and asserts
 * that it is closed.
 *
 * - Hole 1: self-approval, by writing a plan onto `.pravo/approvals.jsonl`
 *   or appending approval lines with an editor.
 * - Hole 2: `out` destroying what it lands on (the state, the lock file, a
 *   `.cue` file, a policy, any file; through links).
 * - Hole 3: a plan file edited so that what is shown and judged is not what
 *   is applied.
 * - Hole 6: the plan file swapped between the approval check and apply.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { call, connect, exitCode, text, type ToolResult } from "../mcp/_client.ts";
import { approverKey, makeRoot, pravo, records, SEED, seedRoot } from "../_pravo.ts";
import { keyFromBytes } from "../../lib/keys/key.ts";
import { loadApproverPublicKey } from "../../lib/keys/approver.ts";
import { approvalsFile, signApproval } from "../../lib/plan/approval.ts";
import { planFileBytes, readPlanFile, sha256Hex } from "../../lib/plan/planfile.ts";
import { callTool } from "../../mcp/server.ts";
import { tools } from "../../mcp/tools.ts";

const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));

/** A key known to the test, given to the CLI and to the server alike. */
const KEY_TEXT = "adversarial tests' 32-byte key!!";
const KEY = keyFromBytes(new TextEncoder().encode(KEY_TEXT), "test");
const ENV = { PRAVO_KEY: btoa(KEY_TEXT) };

/** A refusal: an error result, with the exit code when a command ran. */
function assertFails(r: ToolResult, code: number | undefined, re: RegExp): void {
  assert.equal(r.isError, true, text(r));
  assert.equal(exitCode(r), code, text(r));
  assert.match(text(r), re);
}

async function bytes(path: string): Promise<string> {
  return sha256Hex(await Deno.readFile(path));
}

Deno.test("hole 2: out never lands on the state, the lock file, a .cue file, a policy, a file that is not a plan, or a link", async () => {
  const root = await seedRoot();
  await Deno.mkdir(join(root, "policy"));
  await Deno.writeTextFile(join(root, "policy", "keep.cue"), "summary: destroy: 0\n");
  await Deno.writeTextFile(join(root, "notes.txt"), "the agent's notes\n");
  await Deno.writeTextFile(join(root, "pravo.jsonc"), "{}\n");
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
  // Links the agent made: to the state, and to pravo's folder.
  await Deno.symlink(join(root, ".pravo", "state.db"), join(root, "state.plan"));
  await Deno.symlink(".pravo", join(root, "hidden"));
  const targets = [
    ".pravo/state.db",
    "pravo.lock.json",
    "pravo.jsonc",
    "main.cue",
    "policy/keep.cue",
    "notes.txt",
  ];
  const before = await Promise.all(targets.map((t) => bytes(join(root, t))));
  const s = await connect(root);
  try {
    for (
      const [out, re] of [
        [".pravo/state.db", /is under \.pravo\//],
        [".pravo/approvals.jsonl", /is under \.pravo\//],
        [".pravo/x.plan", /is under \.pravo\//],
        ["pravo.lock.json", /names the root's pravo\.lock\.json/],
        ["pravo.jsonc", /names the root's pravo\.jsonc/],
        ["main.cue", /is a \.cue file/],
        ["policy/keep.cue", /is a \.cue file/],
        ["policy/new.cue", /is a \.cue file/],
        ["notes.txt", /is an existing file that is not a pravo plan file/],
        ["state.plan", /is a symbolic link/],
        ["hidden/state.db", /under \.pravo\/ through a symbolic link/],
        ["hidden/x.plan", /under \.pravo\/ through a symbolic link/],
      ] as const
    ) {
      assertFails(await call(s, "pravo_plan", { out }), 64, re);
    }
    // Nothing was touched: the state still reads, every file is as it was.
    const after = await Promise.all(targets.map((t) => bytes(join(root, t))));
    assert.deepEqual(after, before);
    const show = await call(s, "pravo_state_show", { addr: "base" });
    assert.equal(exitCode(show), 0, text(show));
    // A plan file may be written, and written again.
    assert.equal(exitCode(await call(s, "pravo_plan", { out: "ok.plan" })), 0);
    assert.equal(exitCode(await call(s, "pravo_plan", { out: "ok.plan", full: true })), 0);
  } finally {
    await s.close();
  }
  // The command line follows the same rule.
  const cli = await pravo(root, ["plan", "--out", ".pravo/state.db"]);
  assert.equal(cli.code, 64, cli.stderr);
  assert.equal(await bytes(join(root, ".pravo", "state.db")), before[0]);
});

Deno.test("hole 1: no self-approval, neither through out nor by appending lines to the approvals file", async () => {
  const root = await seedRoot();
  await using op = await approverKey();
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
  // A plan the operator approved (for the last case below).
  await Deno.writeTextFile(
    join(root, "main.cue"),
    SEED.replace(/base:/, "extra: $random.#Resource.random_integer & {min: 1, max: 2}\nbase:"),
  );
  assert.equal((await pravo(root, ["plan", "--out", "ok.plan"])).code, 2);
  assert.equal((await pravo(root, ["approve", "ok.plan", "--key", op.key])).code, 0);
  await using s = await connect(root, {
    args: ["--actor", "agent", "--require-approval", "--approver", op.pub],
  });
  // The plan file as its own approval: out cannot reach the approvals file.
  assertFails(
    await call(s, "pravo_plan", { destroy: true, out: ".pravo/approvals.jsonl" }),
    64,
    /is under \.pravo\//,
  );
  assertFails(
    await call(s, "pravo_apply_plan", { planfile: ".pravo/approvals.jsonl" }),
    undefined,
    /is not approved/,
  );
  // The agent's destroy plan, and approvals it writes with its editor.
  const d = await call(s, "pravo_plan", { destroy: true, out: "d.plan" });
  assert.equal(exitCode(d), 2, text(d));
  const digest = await bytes(join(root, "d.plan"));
  const opPub = await loadApproverPublicKey(op.pub, { root });
  const agentPair = await crypto.subtle.generateKey({ name: "Ed25519" }, true, [
    "sign",
    "verify",
  ]) as CryptoKeyPair;
  const agentKey = { key: agentPair.privateKey, fingerprint: "feedfacefeedface", source: "x" };
  const statement = {
    domain: "pravo plan approval v1",
    plan_sha256: digest,
    plan_id: "whatever",
    state_lineage: "whatever",
    actor: "operator",
    reason: "looks fine",
    approved_at: new Date().toISOString(),
  };
  const genuine = JSON.parse(
    (await Deno.readTextFile(approvalsFile(root))).trim().split("\n")[0],
  );
  const forged = [
    // The form main accepted: a digest and nothing else.
    { plan_id: "whatever", digest, actor: "operator", reason: "", at: "now" },
    // A statement with a signature that is not one.
    { statement, key: opPub.fingerprint, signature: btoa("x".repeat(64)) },
    // Signed, by a key the agent made; naming its own key, or the operator's.
    await signApproval(statement, agentKey),
    { ...(await signApproval(statement, agentKey)), key: opPub.fingerprint },
    // The operator's genuine approval of another plan, its digest replaced.
    { ...genuine, statement: { ...genuine.statement, plan_sha256: digest } },
  ];
  for (const line of forged) {
    await Deno.writeTextFile(approvalsFile(root), JSON.stringify(line) + "\n", {
      append: true,
    });
    assertFails(
      await call(s, "pravo_apply_plan", { planfile: "d.plan" }),
      undefined,
      /is not approved: this server applies only plans an operator approved after review, with `pravo approve d\.plan --key FILE`/,
    );
  }
  // The approved file's name, now holding the agent's plan.
  const again = await call(s, "pravo_plan", { destroy: true, out: "ok.plan" });
  assert.equal(exitCode(again), 2, text(again));
  assertFails(
    await call(s, "pravo_apply_plan", { planfile: "ok.plan" }),
    undefined,
    /is not approved/,
  );
  assert.equal((await records(root)).size, 1, "nothing was destroyed");
  // What the operator approves is applied.
  assert.equal((await pravo(root, ["approve", "d.plan", "--key", op.key])).code, 0);
  const applied = await call(s, "pravo_apply_plan", { planfile: "d.plan" });
  assert.equal(exitCode(applied), 0, text(applied));
  assert.equal((await records(root)).size, 0);
});

Deno.test("hole 3: an edited plan file, its digest recomputed, is refused before it is shown, judged or applied", async () => {
  const root = await makeRoot({ "main.cue": SEED.replace("max: 9", "max: 5") });
  assert.equal((await pravo(root, ["init"], { env: ENV })).code, 0);
  const policyDir = await Deno.makeTempDir({ prefix: "pravo-policy-" });
  const policy = join(policyDir, "small.cue");
  await Deno.writeTextFile(
    policy,
    `rules: small: {
	message: "max must stay at most 10"
	nodes: [for n in plan.nodes if n.after != null if n.after.max != _|_ if n.after.max > 10 {n.address}]
	deny: len(nodes) > 0
}
`,
  );
  const s = await connect(root, { args: ["--policy", policy], env: ENV });
  try {
    assert.equal(exitCode(await call(s, "pravo_plan", { out: "x.plan" })), 2);
    const path = join(root, "x.plan");
    const { plan } = readPlanFile(path, KEY);
    const base = plan.nodes.find((n) => n.address === "base")!;
    assert.equal(base.after!.max, 5);
    // The edit of main's hole: config says 99 while after says 5, written as
    // the unsealed format with its digest recomputed.
    base.config.max = 99;
    const body = JSON.stringify(plan);
    await Deno.writeTextFile(
      join(root, "old.plan"),
      JSON.stringify({ pravo_plan: "1.0", digest: sha256Hex(body), body: plan }),
    );
    for (const tool of ["pravo_show_plan", "pravo_apply_plan"]) {
      assertFails(await call(s, tool, { planfile: "old.plan" }), 7, /old format 1\.0/);
    }
    // An edit of the sealed file: one character of it changed.
    const outer = JSON.parse(await Deno.readTextFile(path));
    const c = outer.sealed[40] === "A" ? "B" : "A";
    outer.sealed = outer.sealed.slice(0, 40) + c + outer.sealed.slice(41);
    await Deno.writeTextFile(join(root, "edited.plan"), JSON.stringify(outer));
    for (const tool of ["pravo_show_plan", "pravo_apply_plan"]) {
      assertFails(
        await call(s, tool, { planfile: "edited.plan" }),
        7,
        /not written by pravo with this key, or it was edited/,
      );
    }
    // Even sealed with the key (as a pravo with a bug might): the parts
    // disagree, and apply refuses before the policy or anything else runs.
    await Deno.writeFile(join(root, "sealed.plan"), planFileBytes(plan, KEY));
    assertFails(
      await call(s, "pravo_apply_plan", { planfile: "sealed.plan" }),
      7,
      /The plan shows max = 5 after apply, and apply would use 99/,
    );
    assert.equal((await records(root)).size, 0, "nothing was applied");
    // The plan as pravo wrote it: shown, judged and applied as 5.
    const ok = await call(s, "pravo_apply_plan", { planfile: "x.plan" });
    assert.equal(exitCode(ok), 0, text(ok));
    assert.equal((await records(root)).get("base")!.attributes.max, 5);
  } finally {
    await s.close();
    await Deno.remove(policyDir, { recursive: true });
  }
});

Deno.test("hole 3: a plan sealed with another key is refused, saying which key it needs", async () => {
  const root = await seedRoot();
  const theirs = { PRAVO_KEY: btoa("someone else's key of 32 bytes!!") };
  assert.equal((await pravo(root, ["plan", "--out", "p.plan"], { env: theirs })).code, 2);
  await using s = await connect(root, { env: ENV });
  for (const tool of ["pravo_show_plan", "pravo_apply_plan"]) {
    assertFails(
      await call(s, tool, { planfile: "p.plan" }),
      8,
      new RegExp(`this pravo's key is ${KEY.fingerprint} .*\\$PRAVO_KEY or \\$PRAVO_KEY_FILE`),
    );
  }
  assert.equal((await records(root)).size, 0);
});

Deno.test("hole 3: a plan file keeps the secrets it carries unreadable to whoever reads the root", async () => {
  const root = await makeRoot({
    "main.cue": `package sec

import loc "pravo.dev/providers/hashicorp/local"

$local: loc.#Provider

f: $local.#Resource.local_file & {filename: "out.txt", sensitive_content: "s3cret-value-42"}
`,
  });
  assert.equal((await pravo(root, ["init"])).code, 0);
  await using s = await connect(root);
  assert.equal(exitCode(await call(s, "pravo_plan", { out: "s.plan" })), 2);
  const raw = await Deno.readTextFile(join(root, "s.plan"));
  assert.ok(!raw.includes("s3cret-value-42"));
  assert.ok(!raw.includes("out.txt"), "nothing of the plan is in clear");
});

Deno.test("hole 6: apply checks the digest of the bytes it parsed: a file swapped after the approval check is refused", async () => {
  const root = await seedRoot();
  const op = await approverKey();
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
  await Deno.writeTextFile(
    join(root, "main.cue"),
    SEED.replace(/base:/, "extra: $random.#Resource.random_integer & {min: 1, max: 2}\nbase:"),
  );
  // A: the plan the operator approves. B: a destroy nobody approved.
  assert.equal((await pravo(root, ["plan", "--out", "x.plan"])).code, 2);
  assert.equal((await pravo(root, ["plan", "--destroy", "--out", "b.plan"])).code, 2);
  assert.equal((await pravo(root, ["approve", "x.plan", "--key", op.key])).code, 0);
  const approved = await bytes(join(root, "x.plan"));

  // The CLI: apply told to expect A's digest, given B.
  const cli = await pravo(root, ["apply", `--expect-digest=${approved}`, "b.plan"]);
  assert.equal(cli.code, 7, cli.stderr);
  assert.match(cli.stderr, /changed since it was approved/);

  // The server, deterministically: the file is swapped for B after the server
  // hashed it and before apply reads it (the child swaps it, then runs pravo).
  const swapper = join(op.dir, "swap-then-pravo");
  await Deno.writeTextFile(
    swapper,
    `#!/usr/bin/env bash\ncp b.plan x.plan\nexec ${
      JSON.stringify(Deno.execPath())
    } run -A --quiet ${JSON.stringify(MAIN)} "$@"\n`,
  );
  await Deno.chmod(swapper, 0o755);
  const apply = tools({ readOnly: false }).find((t) => t.name === "pravo_apply_plan")!;
  const opts = {
    root,
    policies: [],
    readOnly: false,
    requireApproval: true,
    approvers: [await loadApproverPublicKey(op.pub, { root })],
    maxResultBytes: 40960,
    timeoutMs: 120_000,
  };
  const swapped = await callTool(opts, { command: swapper, prefix: [] }, apply, {
    planfile: "x.plan",
  });
  assertFails(swapped, 7, /changed since it was approved/);
  assert.equal(
    await bytes(join(root, "x.plan")),
    await bytes(join(root, "b.plan")),
    "it was swapped",
  );
  assert.equal((await records(root)).size, 1, "nothing was destroyed");
  // The name now holds B, which the server refuses before any process runs.
  await Deno.writeTextFile(
    swapper,
    `#!/usr/bin/env bash\nexec ${JSON.stringify(Deno.execPath())} run -A --quiet ${
      JSON.stringify(MAIN)
    } "$@"\n`,
  );
  const plain = await callTool(opts, { command: swapper, prefix: [] }, apply, {
    planfile: "x.plan",
  });
  assertFails(plain, undefined, /is not approved/); // x.plan is B now
  await Deno.remove(op.dir, { recursive: true });
});

Deno.test("hole 6: apply reads the plan file once: what it parses is what it hashes, whatever the file holds on a later read", async () => {
  const root = await seedRoot();
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
  assert.equal((await pravo(root, ["plan", "--replace", "base", "--out", "a.plan"])).code, 2);
  assert.equal((await pravo(root, ["plan", "--destroy", "--out", "b.plan"])).code, 2);
  const approved = await bytes(join(root, "a.plan"));
  // The plan file is a pipe: each time it is opened it holds the next file,
  // B (the destroy) first, then A (the approved one) on every later open. On
  // main, apply parsed B, then read the file again for its digest and found
  // A's: it applied the destroy. Read once, B is B; and since a plan file
  // must be a regular file, the pipe is not read at all.
  const fifo = join(root, "p.plan");
  const mk = await new Deno.Command("mkfifo", { args: [fifo] }).output();
  assert.equal(mk.code, 0);
  // A process group of its own (setsid), so that the writer it has forked,
  // waiting for a reader, ends with it.
  const feeder = new Deno.Command("setsid", {
    // The pause between two files lets the reader see the end of the first
    // (a pipe ends when its writer closes and no other has opened it).
    args: [
      "bash",
      "-c",
      "cat b.plan > p.plan; while :; do sleep 0.5; cat a.plan > p.plan; done",
    ],
    cwd: root,
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    const r = await pravo(root, ["apply", `--expect-digest=${approved}`, "p.plan"]);
    // A plan file is a regular file: a pipe is refused before anything is
    // read from it (tests/adversarial/files_test.ts), so neither file is.
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /It is not a plan file: it is a FIFO/);
    assert.equal((await records(root)).size, 1, "nothing was destroyed");
  } finally {
    Deno.kill(-feeder.pid, "SIGKILL");
    await feeder.status;
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the reason given with a plan reaches the log entry of the apply that carries it out, whoever applies it", async () => {
  const root = await seedRoot();
  const op = await approverKey();
  assert.equal(
    (await pravo(root, [
      "--actor",
      "operator",
      "--reason",
      "rotate base",
      "plan",
      "--out",
      "r.plan",
    ]))
      .code,
    2,
  );
  assert.equal((await pravo(root, ["approve", "r.plan", "--key", op.key])).code, 0);
  const s = await connect(root, {
    args: ["--actor", "agent", "--reason", "asked to", "--approver", op.pub],
  });
  try {
    assert.equal(exitCode(await call(s, "pravo_apply_plan", { planfile: "r.plan" })), 0);
    const log = JSON.parse(text(await call(s, "pravo_state_log")));
    const e = log.entries[0];
    assert.deepEqual(
      [e.actor, e.reason, e.plan_actor, e.plan_reason],
      ["agent", "asked to", "operator", "rotate base"],
    );
  } finally {
    await s.close();
    await Deno.remove(op.dir, { recursive: true });
  }
  const human = await pravo(root, ["state", "log"]);
  assert.match(
    human.stdout,
    /apply {2}by agent: asked to {2}\(plan [0-9a-f-]+, planned by operator: rotate base\)/,
  );
});
