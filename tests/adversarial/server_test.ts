/**
 * Issue 10, holes 7, 8, 9, 12 and 13, as an agent would try them: through
 * the real `pravo mcp` (the SDK's client, or raw lines where a client
 * library would not send them) and edits of the files in the root. Each
 * test reproduces a hole found on main and asserts that it is closed.
 *
 * The PostgreSQL variant needs `PRAVO_TEST_PG` (`.ci/run` starts a server).
 */

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { call, connect, exitCode, rawServer, text } from "../mcp/_client.ts";
import { makeRoot, pravo, SEED, seedRoot, sleepyPlanned } from "../_pravo.ts";
import { processesWith, waitFor } from "../_processes.ts";
import { openStore } from "../../lib/state/open.ts";
import { PG, pgRoot, stateTest } from "../_pg.ts";

if (PG === "") {
  console.log("tests/adversarial/server_test.ts: the PostgreSQL test skipped: no PRAVO_TEST_PG");
}

/** The seed root with a second resource, so that two states can be told apart. */
const OTHER = SEED.replace("base:", "other:");

const TAGGED = `package demo

import rnd "pravo.dev/providers/hashicorp/random"

$random: rnd.#Provider

env:    string @tag(env)
region: string | *"none" @tag(region)

base: $random.#Resource.random_integer & {min: 1, max: 9, seed: env + "/" + region}
`;

async function records(root: string, state?: string): Promise<string[]> {
  const store = await openStore({ root, state });
  try {
    return (await store.listRecords()).map((r) => r.address).sort();
  } finally {
    await store.close();
  }
}

/** A raw server on a sleepyPlanned() root, applying x.plan as request 1: its child has started. */
async function applyingRaw(root: string): Promise<ReturnType<typeof rawServer>> {
  const raw = rawServer(root);
  await raw.send(
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"pravo_apply_plan","arguments":{"planfile":"x.plan"}}}\n',
  );
  await waitFor(() => processesWith(root).length > 0, 20_000, "the child to start");
  return raw;
}

Deno.test("hole 7: a policy replaced by `// nothing` mid-session still judges every plan and apply; the server warns on stderr", async () => {
  const root = await seedRoot({});
  await Deno.mkdir(`${root}/policy`);
  const policy = `${root}/policy/keep.cue`;
  await Deno.writeTextFile(policy, "summary: destroy: 0\n");
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
  // A destroy plan made outside the server, with no policy: the agent will try to apply it.
  assert.equal((await pravo(root, ["plan", "--destroy", "--out", "gone.plan"])).code, 2);
  await using s = await connect(root, { args: ["--policy", policy] });
  const before = await call(s, "pravo_plan", { destroy: true });
  assert.equal(exitCode(before), 5, text(before));
  // The agent edits the policy with its editor tools, then removes it.
  await Deno.writeTextFile(policy, "// nothing\n");
  const plan = await call(s, "pravo_plan", { destroy: true, out: "x.plan" });
  assert.equal(exitCode(plan), 5, text(plan));
  assert.equal(existsSync(`${root}/x.plan`), false);
  await Deno.remove(policy);
  const apply = await call(s, "pravo_apply_plan", { planfile: "gone.plan" });
  assert.equal(exitCode(apply), 5, text(apply));
  assert.match(text(apply), /summary\.destroy/);
  assert.deepEqual(await records(root), ["base"]);
  await waitFor(
    () => /Warning: The policy .*keep\.cue changed since the server started/.test(s.stderr()),
    5_000,
    "the warning on stderr",
  );
});

Deno.test("hole 8: the server's --state reaches every child: plan and apply land on the state the operator named, not the root's default", async () => {
  const root = await makeRoot({ "main.cue": SEED });
  const elsewhere = await Deno.makeTempDir({ prefix: "pravo-state-" });
  const state = `sqlite:${elsewhere}/state.db`;
  assert.equal((await pravo(root, ["--state", state, "init"])).code, 0);
  // Through scripts/pravo: the children have the narrow permissions, and the
  // state outside the root is granted to them alone.
  await using s = await connect(root, { script: true, args: ["--state", state] });
  const plan = await call(s, "pravo_plan", { out: "x.plan" });
  assert.equal(exitCode(plan), 2, text(plan));
  const apply = await call(s, "pravo_apply_plan", { planfile: "x.plan" });
  assert.equal(exitCode(apply), 0, text(apply));
  const show = await call(s, "pravo_state_show", { addr: "base" });
  assert.equal(exitCode(show), 0, text(show));
  assert.deepEqual(await records(root, state), ["base"]);
  assert.equal(existsSync(`${root}/.pravo/state.db`), false, "the default state was used");
});

Deno.test("hole 8: the server's -t reaches every child; an agent tag may add keys, repeat the operator's value, but not change it", async () => {
  const root = await seedRoot({ "main.cue": TAGGED });
  await using s = await connect(root, {
    args: ["-t", "env=prod", "--actor", "op-agent", "--reason", "r1"],
  });
  const v = await call(s, "pravo_validate");
  assert.equal(exitCode(v), 0, text(v));
  const plan = await call(s, "pravo_plan", { tags: ["region=eu"] });
  assert.equal(exitCode(plan), 2, text(plan));
  const doc = JSON.parse(text(plan));
  assert.deepEqual(doc.tags, { env: "prod", region: "eu" });
  assert.equal(doc.actor, "op-agent");
  assert.equal(doc.reason, "r1");
  assert.equal(exitCode(await call(s, "pravo_plan", { tags: ["env=prod"] })), 2);
  const refused = await call(s, "pravo_plan", { tags: ["env=dev"] });
  assert.equal(refused.isError, true);
  assert.equal(refused.structuredContent, undefined, "refused before any process ran");
  assert.match(text(refused), /^tag "env" is set by the operator for this server \(env=prod\)/);
});

Deno.test("hole 9 (SQLite): state.url edited in pravo.jsonc mid-session moves no tool to another state", async () => {
  const root = await makeRoot({ "main.cue": OTHER });
  // State b holds `other`; state a, the one the server starts with, holds `base`.
  await Deno.writeTextFile(`${root}/pravo.jsonc`, '{"state": {"url": "sqlite:.pravo/b.db"}}');
  assert.equal((await pravo(root, ["init"])).code, 0);
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
  await Deno.writeTextFile(`${root}/main.cue`, SEED);
  await Deno.writeTextFile(`${root}/pravo.jsonc`, '{"state": {"url": "sqlite:.pravo/a.db"}}');
  assert.equal((await pravo(root, ["init"])).code, 0);
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
  await using s = await connect(root, { script: true });
  assert.equal(exitCode(await call(s, "pravo_state_show", { addr: "base" })), 0);
  // The agent points the root at the other state.
  await Deno.writeTextFile(`${root}/pravo.jsonc`, '{"state": {"url": "sqlite:.pravo/b.db"}}');
  const base = await call(s, "pravo_state_show", { addr: "base" });
  assert.equal(exitCode(base), 0, text(base));
  const other = await call(s, "pravo_state_show", { addr: "other" });
  assert.notEqual(exitCode(other), 0, text(other));
  const plan = await call(s, "pravo_plan", { out: "p.plan" });
  assert.equal(exitCode(plan), 0, `no changes on state a: ${text(plan)}`);
  // Even a pravo.jsonc that no longer parses changes nothing for the server.
  await Deno.writeTextFile(`${root}/pravo.jsonc`, "{ not json");
  assert.equal(exitCode(await call(s, "pravo_state_log")), 0);
  await waitFor(() => /pravo\.jsonc changed since/.test(s.stderr()), 5_000, "the warning");
});

stateTest(
  "hole 9 (PostgreSQL): editing state.root from r1 to r2 mid-session reads and writes r1 still",
  async () => {
    const url = new URL(PG);
    const password = decodeURIComponent(url.password);
    url.password = "";
    const bare = url.toString();
    const r1 = `adv/${crypto.randomUUID()}/r1`;
    const r2 = `adv/${crypto.randomUUID()}/r2`;
    const env = { PGPASSWORD: password };
    const config = (key: string) => JSON.stringify({ state: { url: bare, root: key } });
    const root = await makeRoot({ "main.cue": OTHER, "pravo.jsonc": config(r2) });
    assert.equal((await pravo(root, ["init"], { env })).code, 0);
    assert.equal((await pravo(root, ["apply", "-auto-approve"], { env })).code, 0);
    await Deno.writeTextFile(`${root}/main.cue`, SEED);
    await Deno.writeTextFile(`${root}/pravo.jsonc`, config(r1));
    assert.equal((await pravo(root, ["init"], { env })).code, 0);
    assert.equal((await pravo(root, ["apply", "-auto-approve"], { env })).code, 0);
    await using s = await connect(root, { script: true, env });
    await Deno.writeTextFile(`${root}/pravo.jsonc`, config(r2));
    const base = await call(s, "pravo_state_show", { addr: "base" });
    assert.equal(exitCode(base), 0, text(base));
    const other = await call(s, "pravo_state_show", { addr: "other" });
    assert.notEqual(exitCode(other), 0, text(other));
    const plan = await call(s, "pravo_plan", { destroy: true, out: "d.plan" });
    assert.equal(exitCode(plan), 2, text(plan));
    assert.deepEqual(JSON.parse(text(plan)).nodes.map((n: { address: string }) => n.address), [
      "base",
    ]);
    const apply = await call(s, "pravo_apply_plan", { planfile: "d.plan" });
    assert.equal(exitCode(apply), 0, text(apply));
    // r2 keeps its node; r1 lost its own.
    assert.deepEqual(await records(root, pgRoot(r2)), ["other"]);
    assert.deepEqual(await records(root, pgRoot(r1)), []);
  },
  { pgOnly: true },
);

Deno.test("hole 12: 40 parallel calls run at most --max-calls processes at once, and all are answered", async () => {
  const root = await seedRoot();
  await using s = await connect(root, { args: ["--max-calls", "2"] });
  let most = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      most = Math.max(
        most,
        processesWith(root).filter((p) => p.argv.includes("providers")).length,
      );
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const results = await Promise.all(
    Array.from({ length: 40 }, () => call(s, "pravo_providers")),
  );
  sampling = false;
  await sampler;
  assert.equal(results.length, 40);
  for (const r of results) assert.equal(exitCode(r), 0, text(r));
  assert.ok(most >= 1 && most <= 2, `${most} children ran at once`);
});

Deno.test("hole 12: a child killed from outside is reported as a clear error result, and the server goes on", async () => {
  const root = await sleepyPlanned(30);
  await using s = await connect(root);
  const pending = call(s, "pravo_apply_plan", { planfile: "x.plan" });
  await waitFor(() => processesWith(root).length > 0, 20_000, "the child to start");
  Deno.kill(processesWith(root)[0].pid, "SIGKILL");
  const r = await pending;
  assert.equal(r.isError, true);
  assert.equal(exitCode(r), 137);
  assert.match(
    text(r),
    /\[died: the pravo process was ended by SIGKILL from outside the server \(the system may have run out of memory\)/,
  );
  assert.equal(exitCode(await call(s, "pravo_validate")), 0);
});

Deno.test("hole 12: a call that needs more memory than --call-memory is stopped by the bound and reported as out of memory", async () => {
  const root = await seedRoot();
  await using s = await connect(root, { args: ["--call-memory", "256"] });
  const r = await call(s, "pravo_state_query", { expression: 'strings.Repeat("x", 400000000)' });
  assert.equal(r.isError, true);
  // Either the engine reports that CUE ran out of memory (exit 3, the
  // process alive), or the process died at the bound and the server says so.
  assert.match(
    text(r),
    /cue-wasm ran out of memory|\[died: the pravo process ran out of memory \(256 MiB, the server's limit per call\)/,
  );
  // No Go runtime dump reaches the agent.
  assert.doesNotMatch(text(r), /goroutine|runtime\.throw/);
  assert.equal(exitCode(await call(s, "pravo_validate")), 0);
});

Deno.test("hole 13: ids that are objects, booleans, fractions get -32600 with id null; an object progressToken -32602; the server goes on and ends 0", async () => {
  const root = await seedRoot();
  const raw = rawServer(root);
  const lines = [
    '{"jsonrpc":"2.0","id":{"a":1},"method":"tools/call","params":{"name":"pravo_validate","arguments":{}}}',
    '{"jsonrpc":"2.0","id":false,"method":"ping"}',
    '{"jsonrpc":"2.0","id":2.5,"method":"tools/list"}',
    '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"pravo_validate","arguments":{},"_meta":{"progressToken":{"t":1}}}}',
    '{"jsonrpc":"2.0","id":4,"method":"ping"}',
  ];
  await raw.send(lines.join("\n") + "\n");
  const answers = [];
  for (let i = 0; i < 5; i++) answers.push(JSON.parse(await raw.read()));
  assert.deepEqual(
    answers.slice(0, 3).map((a) => [a.id, a.error?.code]),
    [[null, -32600], [null, -32600], [null, -32600]],
  );
  assert.deepEqual([answers[3].id, answers[3].error?.code], [3, -32602]);
  assert.deepEqual(answers[4], { jsonrpc: "2.0", id: 4, result: {} });
  const status = await raw.end();
  assert.equal(status.code, 0);
});

Deno.test("hole 13: a second request with the id of one in flight is refused; the first keeps its answer", async () => {
  const root = await sleepyPlanned(3);
  const raw = await applyingRaw(root);
  await raw.send('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
  const refused = JSON.parse(await raw.read());
  assert.equal(refused.id, 1);
  assert.equal(refused.error.code, -32600);
  assert.match(
    refused.error.message,
    /is already used by a request this server is still answering/,
  );
  const first = JSON.parse(await raw.read());
  assert.equal(first.id, 1);
  assert.equal(first.result.structuredContent.exit_code, 0, JSON.stringify(first));
  assert.equal((await raw.end()).code, 0);
});

Deno.test("hole 13: stdin closed while calls run: every call is answered, then the server exits 0", async () => {
  const root = await seedRoot();
  const raw = rawServer(root);
  const calls = ["pravo_validate", "pravo_providers", "pravo_state_log"].map((name, i) =>
    JSON.stringify({
      jsonrpc: "2.0",
      id: i + 1,
      method: "tools/call",
      params: { name, arguments: {} },
    })
  );
  await raw.send(calls.join("\n") + "\n");
  await raw.closeStdin(); // at once, while the calls run
  const seen: number[] = [];
  for (let i = 0; i < 3; i++) {
    const m = JSON.parse(await raw.read());
    assert.equal(m.result.isError, false, JSON.stringify(m));
    seen.push(m.id);
  }
  assert.deepEqual(seen.sort(), [1, 2, 3]);
  const status = await raw.end();
  assert.equal(status.code, 0);
});

Deno.test("hole 13: a 900 KB tag is refused with a short, clear message; huge refused values are not echoed back", async () => {
  const root = await seedRoot();
  await using s = await connect(root);
  const huge = "x=" + "y".repeat(900_000);
  const r = await call(s, "pravo_validate", { tags: [huge] });
  assert.equal(r.isError, true);
  assert.equal(r.structuredContent, undefined);
  assert.equal(
    text(r),
    "tags[0] is 900002 bytes: this server passes at most 65536 bytes in one value. Shorten it",
  );
  const bad = await call(s, "pravo_state_show", { addr: "-" + "z".repeat(500_000) });
  assert.ok(text(bad).length < 500, text(bad).slice(0, 600));
  assert.match(text(bad), /^addr "-z+\.\.\. \(500003 bytes\) is not a usable value/);
  const key = await call(s, "pravo_validate", { ["k".repeat(400_000)]: 1 });
  assert.ok(text(key).length < 500);
});

Deno.test("hole 13: a cut result is still one JSON document, with a note on how to get the rest", async () => {
  const root = await seedRoot();
  await using s = await connect(root, { args: ["--max-result-bytes", "1024"] });
  const r = await call(s, "pravo_state_query", {
    expression: '[for i, _ in list.Repeat([0], 300) {"entry \\(i) of a long list"}]',
  });
  assert.equal(r.isError, false, text(r));
  const t = text(r);
  assert.ok(new TextEncoder().encode(t).length <= 1024, `${t.length}`);
  const doc = JSON.parse(t);
  assert.match(
    doc.cut,
    /^the result is \d+ bytes and this server returns at most 1024; narrow the expression/,
  );
  assert.equal(doc.partial.result[0], "entry 0 of a long list");
  assert.match(doc.partial.result.at(-1), /^\[cut: \d+ more entries\]$/);
});

Deno.test("hole 13: __proto__, constructor and toString are refused as arguments; a __proto__ cannot smuggle out into a read-only server", async () => {
  const root = await seedRoot();
  const raw = rawServer(root, ["--read-only"]);
  const args = [
    '{"__proto__":{"out":"ro.plan"}}',
    '{"constructor":{"out":"ro.plan"}}',
    '{"toString":"x"}',
    '{"hasOwnProperty":"x"}',
  ];
  await raw.send(
    args.map((a, i) =>
      `{"jsonrpc":"2.0","id":${
        i + 1
      },"method":"tools/call","params":{"name":"pravo_plan","arguments":${a}}}`
    ).join("\n") + "\n",
  );
  for (let i = 0; i < args.length; i++) {
    const m = JSON.parse(await raw.read());
    assert.equal(m.result.isError, true, JSON.stringify(m));
    assert.equal(m.result.structuredContent, undefined);
    assert.match(
      m.result.content[0].text,
      /^pravo_plan has no argument "(__proto__|constructor|toString|hasOwnProperty)"/,
    );
  }
  assert.equal((await raw.end()).code, 0);
  assert.equal(existsSync(`${root}/ro.plan`), false);
});

Deno.test("hole 13: SIGTERM to the server stops its running call gracefully, answers it, and exits 143", async () => {
  const root = await sleepyPlanned(30);
  const raw = await applyingRaw(root);
  raw.child.kill("SIGTERM");
  const m = JSON.parse(await raw.read());
  assert.equal(m.id, 1);
  assert.equal(m.result.isError, true);
  assert.match(
    m.result.content[0].text,
    /\[stopped: the server was asked to stop: it was sent SIGTERM/,
  );
  const status = await raw.end();
  assert.equal(status.code, 143);
  assert.equal(processesWith(root).length, 0);
});

// Holes found beyond the issue's list.

Deno.test("beyond: .pravo/state.db swapped for a symbolic link to another root's state mid-session is refused, not followed", async () => {
  const other = await makeRoot({ "main.cue": OTHER });
  assert.equal((await pravo(other, ["init"])).code, 0);
  assert.equal((await pravo(other, ["apply", "-auto-approve"])).code, 0);
  const root = await seedRoot();
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
  const s = await connect(root, { script: true });
  try {
    assert.equal(exitCode(await call(s, "pravo_state_show", { addr: "base" })), 0);
    await Deno.rename(`${root}/.pravo/state.db`, `${root}/.pravo/mine.db`);
    await Deno.symlink(`${other}/.pravo/state.db`, `${root}/.pravo/state.db`);
    const tries: [string, Record<string, unknown>][] = [
      ["pravo_state_show", { addr: "other" }],
      ["pravo_state_log", {}],
    ];
    for (const [tool, args] of tries) {
      const r = await call(s, tool, args);
      assert.equal(exitCode(r), 1, text(r));
      assert.match(text(r), /is not where it was when pravo mcp started/);
      assert.doesNotMatch(text(r), /"address": "other"/);
    }
  } finally {
    await s.close();
  }
  // Started with the link in place, the server does not start at all.
  const status = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", `${new URL("../../main.ts", import.meta.url).pathname}`, "mcp"],
    cwd: root,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(status.code, 1);
  assert.match(new TextDecoder().decode(status.stderr), /is outside the root: it leads to /);
});

Deno.test("beyond: pravo.jsonc naming a SQLite state outside the root does not start the server (only the operator's --state may)", async () => {
  const root = await seedRoot();
  const elsewhere = await Deno.makeTempDir({ prefix: "pravo-state-" });
  await Deno.writeTextFile(
    `${root}/pravo.jsonc`,
    JSON.stringify({ state: { url: `sqlite:${elsewhere}/state.db` } }),
  );
  const raw = rawServer(root);
  const status = await raw.end();
  assert.equal(status.code, 1);
});

Deno.test("beyond: a package.json, deno.json or node_modules the agent writes in the root is not what the children load", async () => {
  const root = await seedRoot({
    "package.json": '{"dependencies": {"jsonc-parser": "3.3.1", "cue-wasm": "1.0.0"}}',
    "deno.json": '{"imports": {"jsonc-parser": "./node_modules/jsonc-parser/index.js"}}',
  });
  for (const pkg of ["jsonc-parser", "cue-wasm"]) {
    await Deno.mkdir(`${root}/node_modules/${pkg}`, { recursive: true });
    await Deno.writeTextFile(
      `${root}/node_modules/${pkg}/package.json`,
      JSON.stringify({ name: pkg, version: "9.9.9", main: "index.js", type: "module" }),
    );
    await Deno.writeTextFile(
      `${root}/node_modules/${pkg}/index.js`,
      `Deno.writeTextFileSync(${JSON.stringify(`${root}/pwned-${pkg}`)}, "x");\nexport {};\n`,
    );
  }
  const s = await connect(root, { script: true });
  try {
    assert.equal(exitCode(await call(s, "pravo_validate")), 0);
    assert.equal(exitCode(await call(s, "pravo_state_log")), 0);
  } finally {
    await s.close();
  }
  assert.equal(existsSync(`${root}/pwned-jsonc-parser`), false);
  assert.equal(existsSync(`${root}/pwned-cue-wasm`), false);
});
