/**
 * `pravo mcp` driven by a real client: the SDK's `Client` over
 * `StdioClientTransport`, on the seed page's root. Each test starts its own
 * server and makes several calls on it.
 */

import assert from "node:assert/strict";
import { existsSync, symlinkSync } from "node:fs";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import { INSTRUCTIONS } from "../mcp/server.ts";
import { call, connect, exitCode, rawServer, text, type ToolResult } from "./mcp/_client.ts";
import { approverKey, makeRoot, pravo, SEED_VALID, seedRoot, sleepyPlanned } from "./_pravo.ts";
import { processesWith, waitFor } from "./_processes.ts";

/** The seed page's thirteen tools, in its order. */
const TOOLS = [
  "pravo_validate",
  "pravo_plan",
  "pravo_show_plan",
  "pravo_apply_plan",
  "pravo_schema",
  "pravo_why",
  "pravo_state_query",
  "pravo_state_show",
  "pravo_dependents",
  "pravo_state_log",
  "pravo_locks",
  "pravo_drift",
  "pravo_providers",
];
const WRITERS = ["pravo_plan", "pravo_apply_plan"];

/** A tool as tools/list describes it. */
interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: {
    type: string;
    // deno-lint-ignore no-explicit-any
    properties?: Record<string, Record<string, any>>;
    required?: string[];
  };
  outputSchema?: { type: string; required?: string[] };
  annotations?: {
    title?: string;
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
}

async function listTools(s: { client: { listTools(): Promise<unknown> } }): Promise<ListedTool[]> {
  return ((await s.client.listTools()) as { tools: ListedTool[] }).tools;
}

const refusedText = (name: string, v: string) =>
  `${name} ${JSON.stringify(v)} is not a usable value: it is empty or begins with "-"`;

/** A result that the server refused before running anything. */
function assertRefused(r: ToolResult, includes: string): void {
  assert.equal(r.isError, true, text(r));
  assert.equal(r.structuredContent, undefined, "a refusal runs nothing: no exit code");
  assert.ok(text(r).includes(includes), `${JSON.stringify(text(r))} lacks ${includes}`);
}

/** The seed page's policy, outside the specification's directory: policy/keep.cue. */
async function keepPolicy(root: string): Promise<string> {
  await Deno.mkdir(`${root}/policy`);
  await Deno.writeTextFile(`${root}/policy/keep.cue`, "summary: destroy: 0\n");
  return `${root}/policy/keep.cue`;
}

Deno.test("pravo mcp answers initialize with the version the client asked for, 2024-11-05 to the SDK's latest", async () => {
  const root = await seedRoot();
  const versions = SUPPORTED_PROTOCOL_VERSIONS.filter((v: string) => v >= "2024-11-05").sort();
  assert.equal(versions[0], "2024-11-05");
  assert.equal(versions.at(-1), LATEST_PROTOCOL_VERSION);
  for (const v of versions) {
    await using s = await connect(root, { protocolVersion: v });
    assert.equal(s.negotiated, v);
    assert.deepEqual(s.client.getServerVersion(), { name: "pravo", version: "0.1.0-dev" });
    assert.deepEqual(s.client.getServerCapabilities(), { tools: {} });
    assert.equal(s.client.getInstructions(), INSTRUCTIONS);
  }
  // A version the server does not speak is answered with its newest.
  const raw = rawServer(root);
  await raw.send(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2099-01-01",
        capabilities: {},
        clientInfo: { name: "x", version: "1" },
      },
    }) + "\n",
  );
  assert.equal(JSON.parse(await raw.read()).result.protocolVersion, LATEST_PROTOCOL_VERSION);
  assert.equal((await raw.end()).code, 0);
});

Deno.test("tools/list: the thirteen tools, each with a title, annotations, an input and an output schema; readOnlyHint on the eleven that change nothing; an unknown tool is -32602", async () => {
  const root = await seedRoot();
  await using s = await connect(root);
  const tools = await listTools(s);
  assert.deepEqual(tools.map((t) => t.name), TOOLS);
  for (const t of tools) {
    assert.ok(t.title, `${t.name} has a title`);
    assert.equal(t.annotations?.title, t.title);
    assert.ok(t.description, `${t.name} has a description`);
    assert.equal(t.inputSchema.type, "object");
    assert.equal(t.outputSchema?.type, "object");
    assert.deepEqual(t.outputSchema?.required, ["exit_code"]);
    for (const [k, p] of Object.entries(t.inputSchema.properties ?? {})) {
      assert.ok((p as { description?: string }).description, `${t.name}.${k} is described`);
    }
    const a = t.annotations!;
    for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]) {
      assert.equal(typeof (a as Record<string, unknown>)[hint], "boolean", `${t.name} ${hint}`);
    }
    assert.equal(a.readOnlyHint, !WRITERS.includes(t.name), `${t.name} readOnlyHint`);
    assert.equal(a.destructiveHint, t.name === "pravo_apply_plan", `${t.name} destructiveHint`);
    if (a.readOnlyHint && t.name !== "pravo_drift") assert.equal(a.idempotentHint, true);
  }
  assert.equal(tools.filter((t) => t.annotations?.readOnlyHint).length, 11);
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  // The seed's arguments, types and required arguments.
  const props = (n: string) => Object.keys(byName[n].inputSchema.properties ?? {}).sort();
  const required = (n: string) => byName[n].inputSchema.required ?? [];
  assert.deepEqual(props("pravo_plan"), [
    "destroy",
    "full",
    "include_skipped",
    "out",
    "refresh",
    "replace",
    "reserve",
    "tags",
  ]);
  assert.deepEqual(byName.pravo_plan.inputSchema.properties!.refresh.enum, [
    "age",
    "expired",
    "false",
    "all",
  ]);
  assert.deepEqual(required("pravo_show_plan"), ["planfile"]);
  assert.deepEqual(props("pravo_apply_plan"), ["only", "planfile"]);
  assert.deepEqual(required("pravo_apply_plan"), ["planfile"]);
  assert.deepEqual(required("pravo_schema"), ["types"]);
  assert.deepEqual(required("pravo_why"), ["addrs"]);
  assert.deepEqual(required("pravo_state_query"), ["expression"]);
  assert.deepEqual(required("pravo_state_show"), ["addr"]);
  assert.deepEqual(required("pravo_dependents"), ["addr"]);
  assert.deepEqual(props("pravo_drift"), ["due", "limit", "tags"]);
  assert.equal(byName.pravo_drift.inputSchema.properties!.limit.type, "integer");
  assert.equal(byName.pravo_drift.inputSchema.properties!.limit.minimum, 1);
  assert.deepEqual(props("pravo_providers"), []);
  for (const n of ["pravo_validate", "pravo_state_log", "pravo_locks"]) {
    assert.deepEqual(props(n), ["tags"]);
  }

  // A tool that does not exist is a JSON-RPC error, and the server goes on.
  await assert.rejects(
    () => call(s, "pravo_destroy"),
    (e: Error & { code?: number }) => {
      assert.equal(e.code, -32602);
      assert.equal(e.message, "MCP error -32602: unknown tool pravo_destroy");
      return true;
    },
  );
  assert.equal(exitCode(await call(s, "pravo_providers")), 0);
});

Deno.test("the seed's workflow through scripts/pravo mcp (narrow permissions): schema, validate, plan with out, show, apply, state; exit codes as the seed says; actor and reason recorded", async () => {
  const root = await seedRoot();
  const s = await connect(root, { script: true, args: ["--actor", "agent", "--reason", "why"] });
  try {
    const schema = await call(s, "pravo_schema", { types: ["random_integer"], required: true });
    assert.equal(exitCode(schema), 0, text(schema));
    assert.equal(schema.isError, false);
    assert.ok(JSON.parse(text(schema)).types[0].attributes.min);

    const validate = await call(s, "pravo_validate");
    assert.deepEqual(validate, {
      content: [{
        type: "text",
        text: JSON.stringify(SEED_VALID, null, 2),
      }],
      isError: false,
      structuredContent: { exit_code: 0 },
    });

    // Exit 2 is changes: isError true, and the plan document in the text.
    const plan = await call(s, "pravo_plan", { out: "x.plan" });
    assert.equal(plan.isError, true);
    assert.equal(exitCode(plan), 2);
    const doc = JSON.parse(text(plan));
    assert.equal(doc.summary.add, 1);
    assert.equal(doc.actor, "agent");
    assert.ok(existsSync(`${root}/x.plan`));

    const show = await call(s, "pravo_show_plan", { planfile: "x.plan" });
    assert.equal(JSON.parse(text(show)).id, doc.id);

    const apply = await call(s, "pravo_apply_plan", { planfile: "x.plan" });
    assert.equal(exitCode(apply), 0, text(apply));
    assert.equal(apply.isError, false);
    assert.equal(JSON.parse(text(apply)).summary.added, 1);

    const record = await call(s, "pravo_state_show", { addr: "base" });
    assert.equal(exitCode(record), 0, text(record));
    const result = JSON.parse(text(record)).record.attributes.result;
    assert.ok(result >= 1 && result <= 9);

    // A second apply of the same plan: the state moved since (stale), and the server goes on.
    const again = await call(s, "pravo_apply_plan", { planfile: "x.plan" });
    assert.equal(again.isError, true);
    assert.equal(exitCode(again), 6, text(again));

    const log = await call(s, "pravo_state_log");
    assert.equal(exitCode(log), 0);
    const entry = JSON.parse(text(log)).entries[0];
    assert.equal(entry.actor, "agent");
    assert.equal(entry.reason, "why");

    const query = await call(s, "pravo_state_query", { expression: "nodes.base.attributes.max" });
    assert.equal(exitCode(query), 0, text(query));
    assert.ok(text(query).includes("9"));
    assert.equal(exitCode(await call(s, "pravo_dependents", { addr: "base" })), 0);
    assert.equal(exitCode(await call(s, "pravo_why", { addrs: ["base"] })), 0);
    assert.equal(exitCode(await call(s, "pravo_locks")), 0);
    assert.equal(exitCode(await call(s, "pravo_providers")), 0);
    const due = await call(s, "pravo_drift", { due: true, limit: 1 });
    assert.equal(exitCode(due), 0, text(due));
  } finally {
    await s.close();
  }
  // The command line sees what the agent did, with who and why.
  const log = JSON.parse((await pravo(root, ["--json", "state", "log"])).stdout);
  assert.equal(log.entries[0].actor, "agent");
  assert.equal(log.entries[0].reason, "why");
});

Deno.test("the positional-argument rule: planfile, addr, addrs, types, expression empty or beginning with - are refused alike with and without --policy", async () => {
  const root = await seedRoot();
  const policy = await keepPolicy(root);
  const plain = await connect(root);
  const guarded = await connect(root, { args: ["--policy", policy] });
  const cases: [string, string, (v: string) => unknown][] = [
    ["pravo_show_plan", "planfile", (v) => v],
    ["pravo_apply_plan", "planfile", (v) => v],
    ["pravo_state_show", "addr", (v) => v],
    ["pravo_dependents", "addr", (v) => v],
    ["pravo_why", "addrs", (v) => ["base", v]],
    ["pravo_schema", "types", (v) => [v]],
    ["pravo_state_query", "expression", (v) => v],
  ];
  try {
    for (const [tool, arg, value] of cases) {
      for (const v of ["", "-x", "-auto-approve", "--json"]) {
        const args = { [arg]: value(v) };
        const a = await call(plain, tool, args);
        const b = await call(guarded, tool, args);
        assert.deepEqual(a, {
          content: [{ type: "text", text: refusedText(arg, v) }],
          isError: true,
        }, `${tool} ${arg}=${JSON.stringify(v)}`);
        assert.deepEqual(b, a, `${tool} ${arg}=${JSON.stringify(v)} with --policy`);
      }
    }
    assert.ok(!existsSync(`${root}/.pravo/approvals.jsonl`));
  } finally {
    await plain.close();
    await guarded.close();
  }
});

Deno.test("a plan the server's policy refuses returns the plan document then the error object, exit code 5, and no plan file", async () => {
  const root = await seedRoot();
  const policy = await keepPolicy(root);
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
  // A destroy plan saved from the command line, which the agent then tries to apply.
  assert.equal((await pravo(root, ["plan", "--destroy", "--out", "d.plan"])).code, 2);
  await using s = await connect(root, { args: ["--policy", policy] });
  const r = await call(s, "pravo_plan", { destroy: true, out: "x.plan" });
  assert.equal(r.isError, true);
  assert.equal(exitCode(r), 5, text(r));
  assert.ok(!existsSync(`${root}/x.plan`), "no plan file is written");
  const t = text(r);
  const split = t.indexOf("\n}\n{") + 2;
  assert.ok(split > 2, t);
  const doc = JSON.parse(t.slice(0, split));
  assert.equal(doc.summary.destroy, 1);
  const error = JSON.parse(t.slice(split + 1));
  assert.equal(error.error, true);
  assert.equal(error.exit_code, 5);
  assert.ok(JSON.stringify(error.diagnostics).includes("keep.cue"));

  // A tool argument cannot remove the policy: the saved destroy plan is refused too.
  const apply = await call(s, "pravo_apply_plan", { planfile: "d.plan" });
  assert.equal(exitCode(apply), 5, text(apply));
  assert.equal(exitCode(await call(s, "pravo_state_show", { addr: "base" })), 0);
});

Deno.test("paths an agent passes stay inside the root: .., an absolute path elsewhere and a symbolic link out are refused", async () => {
  const root = await seedRoot();
  const elsewhere = await makeRoot({});
  symlinkSync(elsewhere, `${root}/out`);
  assert.equal((await pravo(elsewhere, ["--version"])).code, 0);
  await Deno.writeTextFile(`${elsewhere}/y.plan`, "{}");
  symlinkSync(`${elsewhere}/y.plan`, `${root}/y.plan`);
  await using s = await connect(root);
  for (const out of ["../x.plan", `${elsewhere}/x.plan`, "out/x.plan", "a/../../x.plan"]) {
    const r = await call(s, "pravo_plan", { out });
    assertRefused(r, `out ${JSON.stringify(out)} is outside the root`);
  }
  for (const planfile of ["../y.plan", `${elsewhere}/y.plan`, "y.plan", "out/y.plan"]) {
    for (const tool of ["pravo_show_plan", "pravo_apply_plan"]) {
      assertRefused(await call(s, tool, { planfile }), "is outside the root");
    }
  }
  assert.deepEqual([...Deno.readDirSync(elsewhere)].map((e) => e.name), ["y.plan"]);
  // Inside the root, an absolute path is fine.
  const r = await call(s, "pravo_plan", { out: `${root}/in.plan` });
  assert.equal(exitCode(r), 2, text(r));
  assert.ok(existsSync(`${root}/in.plan`));
});

Deno.test("--read-only: no pravo_apply_plan, pravo_plan without out and reserve, every tool read-only", async () => {
  const root = await seedRoot();
  await using s = await connect(root, { args: ["--read-only"] });
  const tools = await listTools(s);
  assert.deepEqual(
    tools.map((t) => t.name),
    TOOLS.filter((n) => n !== "pravo_apply_plan"),
  );
  for (const t of tools) assert.equal(t.annotations?.readOnlyHint, true, t.name);
  const plan = tools.find((t) => t.name === "pravo_plan")!;
  const props = Object.keys(plan.inputSchema.properties ?? {});
  assert.ok(!props.includes("out") && !props.includes("reserve"), props.join(","));
  assertRefused(
    await call(s, "pravo_plan", { out: "x.plan" }),
    `pravo_plan has no argument "out"`,
  );
  assertRefused(await call(s, "pravo_plan", { reserve: true }), `no argument "reserve"`);
  await assert.rejects(() => call(s, "pravo_apply_plan", { planfile: "x.plan" }), /-32602/);
  const r = await call(s, "pravo_plan");
  assert.equal(exitCode(r), 2, text(r));
  assert.deepEqual([...Deno.readDirSync(root)].map((e) => e.name).sort(), [
    ".pravo",
    "main.cue",
    "pravo.lock.json",
  ]);
});

Deno.test("--require-approval: an unapproved plan is refused, `pravo approve` lets it through, another file is refused", async () => {
  const root = await seedRoot();
  await using op = await approverKey();
  assert.equal((await pravo(root, ["plan", "--out", "x.plan"])).code, 2);
  assert.equal((await pravo(root, ["plan", "--out", "y.plan"])).code, 2);
  await using s = await connect(root, { args: ["--require-approval", "--approver", op.pub] });
  assertRefused(
    await call(s, "pravo_apply_plan", { planfile: "x.plan" }),
    "is not approved: this server applies only plans an operator approved",
  );
  const approve = await pravo(root, [
    "--actor",
    "operator",
    "--reason",
    "reviewed",
    "approve",
    "x.plan",
    "--key",
    op.key,
  ]);
  assert.equal(approve.code, 0, approve.stderr);

  // Another plan of the same root is another file: not approved.
  assertRefused(await call(s, "pravo_apply_plan", { planfile: "y.plan" }), "is not approved");

  const r = await call(s, "pravo_apply_plan", { planfile: "x.plan" });
  assert.equal(exitCode(r), 0, text(r));

  // The approved name, now holding another plan, is refused.
  await Deno.copyFile(`${root}/y.plan`, `${root}/x.plan`);
  assertRefused(await call(s, "pravo_apply_plan", { planfile: "x.plan" }), "is not approved");
  // No tool approves.
  const tools = await listTools(s);
  assert.ok(!tools.some((t) => /approve/.test(t.name)));
});

Deno.test("--max-result-bytes: a longer result is cut and is still one JSON document, with a note that says how to get the rest", async () => {
  const root = await seedRoot();
  await using s = await connect(root, { args: ["--max-result-bytes", "1024"] });
  const r = await call(s, "pravo_schema", { types: ["random_integer", "random_string"] });
  assert.equal(exitCode(r), 0);
  const t = text(r);
  assert.ok(new TextEncoder().encode(t).length <= 1024, t);
  const doc = JSON.parse(t);
  const m =
    /^the result is (\d+) bytes and this server returns at most 1024; narrow the request, or ask the operator to raise --max-result-bytes; lists, objects and strings marked \[cut\] were shortened$/
      .exec(doc.cut);
  assert.ok(m, doc.cut);
  assert.ok(Number(m[1]) > 1024);
  assert.ok(JSON.stringify(doc.partial).includes("[cut: "), t);
  // A small result is whole.
  assert.ok(JSON.parse(text(await call(s, "pravo_validate"))).valid);
});

Deno.test("--timeout stops a call that runs longer, and the result says so", async () => {
  const root = await sleepyPlanned(30);
  await using s = await connect(root, { args: ["--timeout", "2s"] });
  const r = await call(s, "pravo_apply_plan", { planfile: "x.plan" });
  assert.equal(r.isError, true);
  assert.ok(
    text(r).endsWith(
      "[stopped: the call ran longer than 2 s, the server's limit: it was sent SIGTERM and ended within 10 s; ask the operator to raise --timeout, or narrow the request]",
    ),
    text(r),
  );
  assert.equal(processesWith(root).length, 0);
  // Stopped before its 30 s were over: nap was never recorded.
  const list = await pravo(root, ["--json", "state", "list"]);
  assert.equal(list.code, 0, list.stderr);
  assert.doesNotMatch(list.stdout, /"nap"/);
});

Deno.test("cancellation: notifications/cancelled from the client's AbortSignal ends the child; progress comes while it runs", async () => {
  const root = await sleepyPlanned(30);
  await using s = await connect(root);
  const abort = new AbortController();
  const progress: number[] = [];
  const pending = call(s, "pravo_apply_plan", { planfile: "x.plan" }, {
    signal: abort.signal,
    onprogress: (p) => progress.push(p.progress),
  });
  pending.catch(() => {});
  // The child runs with the root in its permission flags.
  await waitFor(() => processesWith(root).length > 0, 20_000, "the child to start");
  await waitFor(() => progress.length > 0, 20_000, "a progress notification");
  abort.abort("enough");
  await assert.rejects(pending);
  // The server gives it GRACE_MS (10 s) after SIGTERM, then kills it: wait longer than that.
  await waitFor(() => processesWith(root).length === 0, 30_000, "the child to end");
  // Nothing was applied, and the server goes on.
  const show = await call(s, "pravo_state_show", { addr: "nap" });
  assert.notEqual(exitCode(show), 0, text(show));
  assert.equal(exitCode(await call(s, "pravo_validate")), 0);
});

Deno.test("a line that is not JSON gets -32700 and the server answers the next request; closing stdin ends it with 0", async () => {
  const root = await seedRoot();
  const raw = rawServer(root);
  await raw.send("this is not json\n");
  const parse = JSON.parse(await raw.read());
  assert.equal(parse.id, null);
  assert.equal(parse.error.code, -32700);
  await raw.send(`{"jsonrpc":"2.0","id":7,"method":"tools/list"}\n`);
  const list = JSON.parse(await raw.read());
  assert.equal(list.id, 7);
  assert.equal(list.result.tools.length, 13);
  // A request too large for one message: a clear error, and the server goes on.
  await raw.send(
    `{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{"x":"${"a".repeat(1100 * 1024)}"}}\n`,
  );
  const big = JSON.parse(await raw.read());
  assert.equal(big.error.code, -32600);
  assert.match(big.error.message, /^Request too large/);
  await raw.send(`{"jsonrpc":"2.0","id":9,"method":"tools/list"}\n`);
  assert.equal(JSON.parse(await raw.read()).id, 9);
  const status = await raw.end();
  assert.equal(status.code, 0);
});
