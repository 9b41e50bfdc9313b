/**
 * Issue 10, beyond the list: files the agent puts where pravo reads or
 * writes, tried as an agent would, through the real `pravo mcp` and edits
 * in the root. The agent may have made symbolic links (and, through any
 * program it reaches, FIFOs): a plan file, the approvals file, the settings
 * the server watches, a `.cue` file, a cache entry or `.pravo` itself may be
 * a FIFO, a link to `/dev/zero`, a link outside the root, or huge. Each test
 * reproduces a hole found on main and asserts that it is closed.
 *
 * @module
 */

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  approverKey,
  call,
  connect,
  exitCode,
  pravo,
  SEED,
  seedRoot,
  text,
  type ToolResult,
  waitFor,
} from "../mcp/_client.ts";
/** The bound on the approvals file (lib/plan/approval.ts). */
const MAX_APPROVALS_BYTES = 16 * 1024 * 1024;

/** Makes a FIFO: what an agent could leave where pravo reads a file. */
async function mkfifo(path: string): Promise<void> {
  const r = await new Deno.Command("mkfifo", { args: [path] }).output();
  if (!r.success) throw new Error(`mkfifo ${path} failed`);
}

/** A refusal made before any process ran, whose text matches. */
function assertRefused(r: ToolResult, re: RegExp): void {
  assert.equal(r.isError, true, text(r));
  assert.equal(r.structuredContent, undefined, text(r));
  assert.match(text(r), re);
}

Deno.test("a FIFO or a link to /dev/zero as the plan file or the approvals file does not stall the server: refused at once, and the next call answered", async () => {
  const root = await seedRoot();
  await using op = await approverKey();
  assert.equal((await pravo(root, ["plan", "--out", "ok.plan"])).code, 2);
  await mkfifo(join(root, "fifo.plan"));
  await using s = await connect(root, { args: ["--approver", op.pub] });
  // The server reads the plan file to look its approval up: a FIFO blocked
  // it (and every other client) for good on main.
  assertRefused(
    await call(s, "pravo_apply_plan", { planfile: "fifo.plan" }),
    /planfile "fifo\.plan" cannot be read: it is not a plan file: it is a FIFO/,
  );
  // The child that shows it is not stalled either.
  const shown = await call(s, "pravo_show_plan", { planfile: "fifo.plan" });
  assert.equal(exitCode(shown), 1, text(shown));
  assert.match(text(shown), /It is not a plan file: it is a FIFO/);
  // The approvals file as a FIFO, a link to /dev/zero, a link to a file elsewhere.
  const approvals = join(root, ".pravo", "approvals.jsonl");
  await mkfifo(approvals);
  assertRefused(
    await call(s, "pravo_apply_plan", { planfile: "ok.plan" }),
    /the approvals file \.pravo\/approvals\.jsonl cannot be used: it is a FIFO/,
  );
  await Deno.remove(approvals);
  await Deno.symlink("/dev/zero", approvals);
  assertRefused(
    await call(s, "pravo_apply_plan", { planfile: "ok.plan" }),
    /cannot be used: it is a symbolic link/,
  );
  await Deno.remove(approvals);
  // Still serving.
  const v = await call(s, "pravo_validate", {});
  assert.equal(exitCode(v), 0, text(v));
  // An approval the operator makes now is found as before.
  assert.equal((await pravo(root, ["approve", "ok.plan", "--key", op.key])).code, 0);
  const applied = await call(s, "pravo_apply_plan", { planfile: "ok.plan" });
  assert.equal(exitCode(applied), 0, text(applied));
});

Deno.test("an approvals file grown past its bound is refused with a message, not read whole", async () => {
  const root = await seedRoot();
  await using op = await approverKey();
  assert.equal((await pravo(root, ["plan", "--out", "ok.plan"])).code, 2);
  assert.equal((await pravo(root, ["approve", "ok.plan", "--key", op.key])).code, 0);
  const approvals = join(root, ".pravo", "approvals.jsonl");
  const f = await Deno.open(approvals, { append: true });
  await f.truncate(MAX_APPROVALS_BYTES + 1); // what an agent appends with its editor
  f.close();
  await using s = await connect(root, { args: ["--approver", op.pub] });
  assertRefused(
    await call(s, "pravo_apply_plan", { planfile: "ok.plan" }),
    /approvals\.jsonl cannot be used: it is 16777217 bytes, more than the 16777216 pravo reads there/,
  );
});

Deno.test("pravo.jsonc or a policy in the root turned into a FIFO or a link to /dev/zero mid-session: every call is answered, and the server warns", async () => {
  const root = await seedRoot({ "pravo.jsonc": "{}\n" });
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
  await Deno.mkdir(join(root, "policy"));
  const policy = join(root, "policy", "keep.cue");
  await Deno.writeTextFile(policy, "summary: destroy: 0\n");
  await using s = await connect(root, { args: ["--policy", policy] });
  assert.equal(exitCode(await call(s, "pravo_validate", {})), 0);
  await Deno.remove(join(root, "pravo.jsonc"));
  await Deno.symlink("/dev/zero", join(root, "pravo.jsonc"));
  await Deno.remove(policy);
  await mkfifo(policy);
  // On main the server read both whole on every call: /dev/zero without
  // end, and the FIFO blocked for good.
  for (let i = 0; i < 2; i++) {
    const r = await call(s, "pravo_plan", { destroy: true });
    assert.equal(exitCode(r), 5, text(r)); // the pinned policy still judges
  }
  await waitFor(
    () => /The policy .*keep\.cue changed since the server started/.test(s.stderr()),
    5_000,
    "the warning about the policy",
  );
  assert.match(s.stderr(), /pravo\.jsonc changed since the server started/);
});

Deno.test("a FIFO or a link to /dev/zero at pravo.jsonc, pravo.lock.json or a policy when the server starts: a clear error, not a server that never answers", async () => {
  for (const name of ["pravo.jsonc", "pravo.lock.json"]) {
    const root = await seedRoot();
    await Deno.remove(join(root, name)).catch(() => {});
    await mkfifo(join(root, name));
    const r = await pravo(root, ["mcp"], { stdin: "" });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`${name.replace(/\./g, "\\.")}"\n\nIt is a FIFO`), r.stderr);
  }
  const root = await seedRoot();
  await Deno.symlink("/dev/zero", join(root, "p.cue.policy"));
  const r = await pravo(root, ["mcp", "--policy", join(root, "p.cue.policy")], { stdin: "" });
  assert.equal(r.code, 5, r.stderr);
  assert.match(r.stderr, /it is a device/);
});

Deno.test("a .cue file that is a link outside the root, or into .pravo/, is not read: a diagnostic, and nothing of what it leads to", async () => {
  const outside = await Deno.makeTempDir({ prefix: "pravo-outside-" });
  // A file elsewhere that happens to be CUE of the same package: on main it
  // was read as part of the specification, and its values came back.
  await Deno.writeTextFile(
    join(outside, "creds.txt"),
    'package demo\n\noutside_password: "s3cret-from-outside"\n',
  );
  const root = await seedRoot({
    "main.cue": SEED + "\noutputs: {leak: outside_password}\n",
  });
  await Deno.symlink(join(outside, "creds.txt"), join(root, "creds.cue"));
  const s = await connect(root, { script: true });
  try {
    for (const tool of ["pravo_validate", "pravo_plan"]) {
      const r = await call(s, tool, {});
      assert.doesNotMatch(text(r), /s3cret-from-outside/);
      assert.equal(exitCode(r), 3, text(r));
      assert.match(
        text(r),
        /Cannot read creds\.cue: a symbolic link on the way leads outside the root/,
      );
    }
    // A link to pravo's own files: the state is not read as a source either.
    await Deno.remove(join(root, "creds.cue"));
    await Deno.symlink(".pravo/state.db", join(root, "state.cue"));
    const r = await call(s, "pravo_validate", {});
    assert.equal(exitCode(r), 3, text(r));
    assert.match(
      text(r),
      /Cannot read state\.cue: it is in \.pravo\/, which holds pravo's own files/,
    );
  } finally {
    await s.close();
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("a link as .pravo/cache (or .pravo itself) does not make pravo write outside the root; a FIFO or a link to /dev/zero as a cache entry does not stall it", async () => {
  const outside = await Deno.makeTempDir({ prefix: "pravo-outside-" });
  const root = await seedRoot();
  assert.equal((await pravo(root, ["validate"])).code, 0); // fills the cache
  const cache = join(root, ".pravo", "cache");
  const entries = [...Deno.readDirSync(cache)].map((e) => e.name);
  assert.ok(entries.length > 0, "the cache has entries");
  // Each entry the agent can see becomes a FIFO or a link to /dev/zero: the
  // next evaluation of the same source reads it.
  for (const [i, name] of entries.entries()) {
    await Deno.remove(join(cache, name));
    if (i % 2) await Deno.symlink("/dev/zero", join(cache, name));
    else await mkfifo(join(cache, name));
  }
  const s = await connect(root, { script: true });
  try {
    const v = await call(s, "pravo_validate", {});
    assert.equal(exitCode(v), 0, text(v));
    // The cache folder as a link to a folder outside.
    await Deno.remove(cache, { recursive: true });
    await Deno.symlink(outside, cache);
    await Deno.writeTextFile(join(root, "main.cue"), SEED + "\n// a new source: a new entry\n");
    const again = await call(s, "pravo_validate", {});
    assert.equal(exitCode(again), 0, text(again));
    assert.deepEqual([...Deno.readDirSync(outside)], [], "nothing was written outside the root");
  } finally {
    await s.close();
  }
  // .pravo itself as a link (state and all): the operator's next command
  // does not follow it to another root's state either.
  const other = await seedRoot();
  await Deno.remove(join(root, ".pravo"), { recursive: true });
  await Deno.symlink(join(other, ".pravo"), join(root, ".pravo"));
  const plan = await pravo(root, ["plan"]);
  assert.equal(plan.code, 1, plan.stderr);
  assert.match(plan.stderr, /leads outside the root/);
  await Deno.writeTextFile(join(root, "main.cue"), SEED + "\n// once more\n");
  assert.equal((await pravo(root, ["validate"])).code, 0);
  assert.equal(
    existsSync(join(other, ".pravo", "cache")),
    false,
    "no cache written through .pravo",
  );
  await Deno.remove(outside, { recursive: true });
});

/** Where the kernel writes a core dump: a file in the working directory, or elsewhere. */
function coreInWorkingDirectory(): boolean {
  try {
    const pattern = Deno.readTextFileSync("/proc/sys/kernel/core_pattern").trim();
    return !pattern.startsWith("|") && !pattern.includes("/");
  } catch {
    return false;
  }
}

Deno.test({
  name:
    "a call the agent makes run out of memory leaves no core dump in the root (it held pravo's key)",
  ignore: !coreInWorkingDirectory(),
  fn: async () => {
    const root = await seedRoot();
    // Enough fields that parsing them fills a 128 MiB JavaScript heap.
    const big = ["package demo", ""];
    for (let i = 0; i < 1_500_000; i++) big.push(`f${i}: [1, 2, 3]`);
    await Deno.writeTextFile(join(root, "big.cue"), big.join("\n") + "\n");
    const main = new URL("../../main.ts", import.meta.url).pathname;
    // The operator's shell has core dumps on; the server and its children inherit that.
    const server = new Deno.Command("bash", {
      args: [
        "-c",
        `ulimit -c unlimited && exec "$0" run -A --quiet "$1" mcp --call-memory 256`,
        Deno.execPath(),
        main,
      ],
      cwd: root,
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const w = server.stdin.getWriter();
    await w.write(
      new TextEncoder().encode(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "pravo_validate", arguments: {} },
        }) + "\n",
      ),
    );
    await w.close();
    const out = new TextDecoder().decode((await server.output()).stdout);
    assert.match(out, /\[died: the pravo process ran out of memory \(256 MiB/);
    const cores = [...Deno.readDirSync(root)].filter((e) => /^core/.test(e.name));
    for (const c of cores) await Deno.remove(join(root, c.name));
    assert.deepEqual(cores.map((c) => c.name), [], "a core file was left in the root");
  },
});
