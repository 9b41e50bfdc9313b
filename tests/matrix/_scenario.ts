/**
 * The rows of the feature matrix (cells.ts), each a test of what a user
 * sees, run in order against one world: a root whose node `a` is read by
 * node `b` and by the output `first`, through the world's pravo (the CLI
 * with its narrow permissions, or the bundle) and its MCP server through
 * the SDK's client. The steps build on each other (apply before the state
 * commands, a lock before `state unlock`), so a world runs them all, in
 * the order of `ROWS`.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { call, type Session, text } from "../mcp/_client.ts";
import { ROWS, runs, type World } from "./cells.ts";

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** What a world gives the rows. */
export interface WorldRoot {
  world: World;
  root: string;
  /** `pravo ARGS` in the root, with the world's tags and environment. */
  run(args: string[]): Promise<RunResult>;
  /** `pravo mcp ARGS` in the root, connected to the SDK's client. */
  mcp(args?: string[]): Promise<Session>;
  /** Starts `pravo ARGS` in the background; the process to kill. */
  spawn(args: string[]): Deno.ChildProcess;
  /**
   * The root's main.cue: `a` (with `lifecycle: prevent_destroy: protect`,
   * the tag `protect`), `b` reading `a`, the output `first`.
   */
  main: string;
  /** The type of `a`, for `schema`. */
  typeA: string;
  /** The source of `a`'s provider, for `providers`. */
  providerA: string;
  /** The attribute of `a` that `b` reads and the output `first` is. */
  attrA: string;
  /** The ID `import` takes for `b`, from its record's attributes. */
  importId(attrs: Record<string, unknown>): string;
  /** Changes `a`'s real object behind pravo's back, for drift, given its record's attributes. */
  driftA(attrs: Record<string, unknown>): Promise<void>;
  /** A `state migrate --to` target in the other store, and what to pass to read it back. */
  migrateTo: string;
}

/** Asserts the exit code, showing what the command printed when it differs. */
function code(r: RunResult, want: number, what: string): void {
  assert.equal(r.code, want, `${what}: exit ${r.code}\n${r.stdout}\n${r.stderr}`);
}

function json(r: RunResult): Record<string, unknown> {
  try {
    return JSON.parse(r.stdout);
  } catch {
    throw new Error(`not one JSON document:\n${r.stdout}\n${r.stderr}`);
  }
}

/** A JSON document as the rows read it. */
// deno-lint-ignore no-explicit-any
type Doc = Record<string, any>;

interface Shared {
  approver?: { key: string; pub: string };
  session?: Session;
  planId?: string;
  reservation?: string;
}

const write = (w: WorldRoot, file: string, text: string) =>
  Deno.writeTextFile(join(w.root, file), text);

/** Each row's test. */
/**
 * Calls the tool `name` with `args` on the session the mcp-* rows share, and
 * asserts the exit code of its process (`exit`, 0 unless given); its text.
 */
async function agent(
  s: Shared,
  name: string,
  opts: { args?: Record<string, unknown>; exit?: number } = {},
): Promise<string> {
  const r = await call(s.session!, name, opts.args ?? {});
  assert.equal(r.structuredContent?.exit_code, opts.exit ?? 0, text(r));
  return text(r);
}

const STEPS: Record<string, (w: WorldRoot, s: Shared) => Promise<void>> = {
  async init(w) {
    const r = await w.run(["init"]);
    code(r, 0, "init");
  },
  async validate(w) {
    const r = await w.run(["validate"]);
    code(r, 0, "validate");
    assert.match(r.stdout, /The specification is valid/);
    const bad = await w.run(["--json", "validate"]);
    code(bad, 0, "validate --json");
    assert.equal(json(bad).valid, true);
  },
  async fmt(w) {
    await write(w, "extra.cue", "package matrix\n\n_x:    1\n");
    const check = await w.run(["fmt", "--check"]);
    code(check, 3, "fmt --check on a file that would change");
    code(await w.run(["fmt"]), 0, "fmt");
    code(await w.run(["fmt", "--check"]), 0, "fmt --check after fmt");
    assert.equal(await Deno.readTextFile(join(w.root, "extra.cue")), "package matrix\n\n_x: 1\n");
    await Deno.remove(join(w.root, "extra.cue"));
  },
  async schema(w) {
    const r = await w.run(["--json", "schema", w.typeA]);
    code(r, 0, "schema");
    assert.ok(JSON.stringify(json(r)).includes(w.attrA), `${w.typeA} has ${w.attrA}`);
  },
  async providers(w) {
    const r = await w.run(["--json", "providers"]);
    code(r, 0, "providers");
    assert.ok(r.stdout.includes(w.providerA), r.stdout);
  },
  async plan(w) {
    const r = await w.run(["plan"]);
    code(r, 2, "plan");
    assert.match(r.stdout, /Plan: 2 to add, 0 to change, 0 to replace, 0 to destroy\./);
    assert.match(r.stdout, /# a will be created/);
  },
  async "plan-json"(w) {
    const doc = json(await w.run(["plan", "--json"])) as Doc;
    assert.equal(doc.format, "pravo-plan");
    const b = doc.nodes.find((n: Doc) => n.address === "b");
    assert.equal(b.action, "create");
    assert.deepEqual(b.dependencies, ["a"]);
  },
  async "plan-policy"(w) {
    await write(w, "../no-b.cue", 'nodes: [...{address: !="b"}]\n');
    const refused = await w.run(["plan", "--policy", join(w.root, "../no-b.cue")]);
    code(refused, 5, "plan refused by a policy");
    assert.match(refused.stdout + refused.stderr, /nodes/);
    await write(w, "../ok.cue", "summary: destroy: 0\n");
    code(await w.run(["plan", "--policy", join(w.root, "../ok.cue")]), 2, "plan a policy passes");
  },
  async "plan-out"(w, s) {
    code(await w.run(["plan", "--out", "x.plan"]), 2, "plan --out");
    const show = await w.run(["show", "x.plan"]);
    code(show, 0, "show");
    assert.match(show.stdout, /# b will be created/);
    s.planId = (json(await w.run(["--json", "show", "x.plan"])) as Doc).id;
  },
  async approve(w, s) {
    // Outside the root, in the world's directory (removed with it).
    const dir = join(w.root, "..", "keys");
    await Deno.mkdir(dir, { recursive: true });
    const key = await w.run(["approver-key", join(dir, "op")]);
    code(key, 0, "approver-key");
    s.approver = { key: join(dir, "op"), pub: join(dir, "op.pub") };
    const r = await w.run(["approve", "x.plan", "--key", s.approver.key]);
    code(r, 0, "approve");
  },
  async apply(w) {
    const r = await w.run(["apply", "x.plan"]);
    code(r, 0, "apply PLANFILE");
    assert.match(r.stdout, /Apply complete! Resources: 2 added/);
  },
  async "plan-noop"(w) {
    const r = await w.run(["plan"]);
    code(r, 0, "the plan after apply");
    assert.match(r.stdout, /No changes/);
  },
  async "plan-full"(w) {
    code(await w.run(["plan", "--full"]), 0, "plan --full");
    // Every node run, none left as it was without asking its provider.
    const doc = json(await w.run(["plan", "--full", "--json", "--include-skipped"])) as Doc;
    assert.equal(doc.full, true);
    assert.deepEqual(doc.nodes.map((n: Doc) => `${n.address} ${n.action}`).sort(), [
      "a no-op",
      "b no-op",
    ]);
  },
  async "plan-include-skipped"(w) {
    const doc = json(await w.run(["plan", "--json", "--include-skipped"])) as Doc;
    assert.ok(JSON.stringify(doc).includes('"skipped"'), JSON.stringify(doc).slice(0, 400));
  },
  async "plan-refresh"(w) {
    code(await w.run(["plan", "--refresh", "all"]), 0, "plan --refresh all");
    code(await w.run(["plan", "--refresh", "false"]), 0, "plan --refresh false");
  },
  async "plan-replace"(w) {
    const r = await w.run(["plan", "--replace", "a"]);
    code(r, 2, "plan --replace a");
    assert.match(r.stdout, /# a will be replaced, as requested/);
  },
  async "state-list"(w) {
    const r = await w.run(["state", "list"]);
    code(r, 0, "state list");
    assert.deepEqual(r.stdout.trim().split("\n"), ["a", "b"]);
  },
  async "state-show"(w) {
    const doc = json(await w.run(["state", "show", "b", "--json"])) as Doc;
    assert.equal(doc.record.address, "b");
    assert.deepEqual(doc.record.dependencies, ["a"]);
  },
  async "state-query"(w) {
    const r = await w.run(["state", "query", "len(nodes)"]);
    code(r, 0, "state query");
    assert.equal(r.stdout.trim(), "2");
  },
  async "state-dependents"(w) {
    const r = await w.run(["state", "dependents", "a"]);
    code(r, 0, "state dependents");
    assert.match(r.stdout, /1 node depends on a/);
  },
  async "state-log"(w) {
    const r = await w.run(["state", "log", "--limit", "1"]);
    code(r, 0, "state log");
    assert.match(r.stdout, /\+ a/);
    assert.match(r.stdout, /\+ b/);
  },
  async why(w) {
    const r = await w.run(["why", "b"]);
    code(r, 0, "why");
    assert.match(r.stdout, /^b \(.*\): skipped/);
    const doc = json(await w.run(["--json", "why", "b"])) as Doc;
    assert.equal(doc.nodes[0].address, "b");
    assert.equal(doc.nodes[0].reasons[0].kind, "skipped");
  },
  async output(w) {
    const r = await w.run(["output", "first", "--json"]);
    code(r, 0, "output");
    const shown = json(await w.run(["state", "show", "a", "--json"])) as Doc;
    assert.equal(JSON.stringify(json(r)).includes(String(shown.record.attributes[w.attrA])), true);
  },
  async graph(w) {
    const r = await w.run(["graph"]);
    code(r, 0, "graph");
    assert.match(r.stdout, /"b" -> "a"/);
  },
  async drift(w) {
    // What applying `b` did to `a`'s computed values (an S3 bucket's
    // versioning, set by its own resource) is a difference from the state,
    // as Terraform's refresh-only plan shows it: taken in first.
    code(await w.run(["apply", "-auto-approve", "--refresh", "all"]), 0, "apply --refresh all");
    const clean = await w.run(["drift"]);
    code(clean, 0, "drift with nothing changed");
    const shown = json(await w.run(["state", "show", "a", "--json"])) as Doc;
    await w.driftA(shown.record.attributes);
    const found = await w.run(["drift"]);
    code(found, 2, "drift after a change behind pravo's back");
    assert.match(found.stdout, /\ba\b/);
    // Drift and plan agree: the plan puts it back.
    code(await w.run(["plan", "--refresh", "all"]), 2, "plan --refresh all after drift");
    code(await w.run(["apply", "-auto-approve", "--refresh", "all"]), 0, "apply puts it back");
    code(await w.run(["drift"]), 0, "drift after the apply");
    code(await w.run(["drift", "--due"]), 0, "drift --due");
  },
  async "plan-reserve"(w, s) {
    const r = await w.run([
      "--actor",
      "alice",
      "plan",
      "--replace",
      "a",
      "--reserve",
      "--out",
      "r.plan",
    ]);
    code(r, 2, "plan --reserve");
    const locks = json(await w.run(["--json", "state", "locks"])) as Doc;
    assert.equal(locks.reservations.length, 1, JSON.stringify(locks));
    s.reservation = locks.reservations[0].id;
    // Another actor's plan that would change a reserved node is refused.
    const other = await w.run(["--actor", "bob", "plan", "--replace", "a"]);
    code(other, 4, "a plan of a node another actor reserved");
  },
  async "state-locks"(w) {
    const r = await w.run(["state", "locks"]);
    code(r, 0, "state locks");
    assert.match(r.stdout, /State lock: not held\./);
    assert.match(r.stdout, /alice/);
  },
  async "state-release"(w, s) {
    const r = await w.run(["state", "release", s.reservation!]);
    code(r, 0, "state release");
    const locks = json(await w.run(["--json", "state", "locks"])) as Doc;
    assert.equal(locks.reservations.length, 0);
  },
  async "state-unlock"(w) {
    await write(
      w,
      "pause.cue",
      'package matrix\n\nimport tm "pravo.dev/providers/hashicorp/time"\n\n$time: tm.#Provider\n\npause: $time.#Resource.time_sleep & {create_duration: "10m"}\n',
    );
    const child = w.spawn(["apply", "-auto-approve"]);
    let id = "";
    for (let i = 0; i < 300 && !id; i++) {
      await new Promise((r) => setTimeout(r, 200));
      const locks = await w.run(["--json", "state", "locks"]);
      if (locks.code === 0) id = (json(locks) as Doc).lock?.id ?? "";
    }
    child.kill("SIGKILL");
    await child.status;
    assert.ok(id, "the apply took the lock");
    const refused = await w.run(["state", "unlock", id]);
    code(refused, 64, "state unlock without a terminal or --force");
    const r = await w.run(["--actor", "ops", "state", "unlock", "--force", id]);
    code(r, 0, "state unlock --force");
    assert.match(r.stdout, /Released the state lock/);
    await Deno.remove(join(w.root, "pause.cue"));
  },
  async moved(w) {
    await write(
      w,
      "main.cue",
      w.main.replace(/^b:/m, "c:") + '\nmoved: [{from: "b", to: "c"}]\n',
    );
    const r = await w.run(["plan", "--out", "m.plan"]);
    code(r, 2, "plan with a moved entry");
    assert.match(r.stdout, /# b has moved to c/);
    code(await w.run(["apply", "m.plan"]), 0, "apply the move");
    const list = await w.run(["state", "list"]);
    assert.deepEqual(list.stdout.trim().split("\n"), ["a", "c"]);
  },
  async "state-mv"(w) {
    await write(w, "main.cue", w.main);
    const r = await w.run(["state", "mv", "c", "b"]);
    code(r, 0, "state mv");
    code(await w.run(["plan"]), 0, "no-op after moving it back");
  },
  async "state-rm"(w, s) {
    const shown = json(await w.run(["state", "show", "b", "--json"])) as Doc;
    (s as Shared & { bAttrs?: unknown }).bAttrs = shown.record.attributes;
    const r = await w.run(["state", "rm", "b"]);
    code(r, 0, "state rm");
    const plan = await w.run(["plan"]);
    code(plan, 2, "plan after state rm");
    assert.match(plan.stdout, /# b will be created/);
  },
  async import(w, s) {
    const attrs = (s as Shared & { bAttrs?: Record<string, unknown> }).bAttrs!;
    const r = await w.run(["import", "b", w.importId(attrs)]);
    code(r, 0, "import");
    assert.match(r.stdout, /Import successful!/);
    const plan = await w.run(["plan"]);
    code(plan, 0, "no-op after import");
  },
  async "prevent-destroy"(w) {
    const r = await w.run(["-t", "protect=true", "plan", "--destroy"]);
    code(r, 1, "a destroy plan of a protected node");
    assert.match(r.stdout + r.stderr, /prevent_destroy/);
  },
  async incremental(w) {
    await write(w, "main.cue", w.main.replace(/^b: /m, "_edited: true\nb: "));
    const doc = json(await w.run(["plan", "--json", "--include-skipped"])) as Doc;
    assert.equal(doc.full, false, "an incremental plan");
    await write(w, "main.cue", w.main);
  },
  async "refresh-age"(w) {
    const aged = w.main.replace(
      "lifecycle: prevent_destroy: protect",
      'lifecycle: {prevent_destroy: protect, refresh_age: "1s"}',
    );
    assert.notEqual(aged, w.main, "the world's a has lifecycle: prevent_destroy: protect");
    await write(w, "main.cue", aged);
    code(await w.run(["apply", "-auto-approve"]), 0, "apply a refresh age");
    await new Promise((r) => setTimeout(r, 1500));
    const due = json(await w.run(["--json", "drift", "--due"])) as Doc;
    const aDue = due.due.find((d: Doc) => d.address === "a");
    assert.equal(aDue?.refresh_age, "1s", JSON.stringify(due));
    assert.deepEqual(aDue.because, ["refresh_age"]);
    await write(w, "main.cue", w.main);
    code(await w.run(["apply", "-auto-approve"]), 0, "apply without it");
    // Back to its type's own age (a built-in file is read on every plan: 0s).
    const back = json(await w.run(["--json", "drift", "--due"])) as Doc;
    assert.notEqual(back.due.find((d: Doc) => d.address === "a")?.refresh_age, "1s");
  },
  async "mcp-validate"(_w, s) {
    await agent(s, "pravo_validate");
  },
  async "mcp-schema"(w, s) {
    assert.ok((await agent(s, "pravo_schema", { args: { types: [w.typeA] } })).includes(w.attrA));
  },
  async "mcp-providers"(w, s) {
    assert.ok((await agent(s, "pravo_providers")).includes(w.providerA));
  },
  async "mcp-plan"(_w, s) {
    await agent(s, "pravo_plan", { args: { out: "agent.plan", replace: ["a"] }, exit: 2 });
  },
  async "mcp-show-plan"(_w, s) {
    assert.match(
      await agent(s, "pravo_show_plan", { args: { planfile: "agent.plan" } }),
      /"replace"/,
    );
  },
  async "mcp-apply-plan"(_w, s) {
    await agent(s, "pravo_apply_plan", { args: { planfile: "agent.plan" } });
  },
  async "mcp-why"(_w, s) {
    await agent(s, "pravo_why", { args: { addrs: ["b"] } });
  },
  async "mcp-state-query"(_w, s) {
    assert.match(
      await agent(s, "pravo_state_query", { args: { expression: "len(nodes)" } }),
      /\b2\b/,
    );
  },
  async "mcp-state-show"(_w, s) {
    await agent(s, "pravo_state_show", { args: { addr: "a" } });
  },
  async "mcp-dependents"(_w, s) {
    assert.match(await agent(s, "pravo_dependents", { args: { addr: "a" } }), /"b"/);
  },
  async "mcp-state-log"(_w, s) {
    assert.match(await agent(s, "pravo_state_log"), /"actor"/);
  },
  async "mcp-locks"(_w, s) {
    await agent(s, "pravo_locks");
  },
  async "mcp-drift"(_w, s) {
    // Exit 2 when applying a's replacement changed what b manages of it
    // (an S3 bucket's versioning): a difference from the state all the same.
    const r = await call(s.session!, "pravo_drift");
    assert.ok([0, 2].includes(r.structuredContent?.exit_code ?? -1), text(r));
    assert.match(text(r), /"summary"/);
  },
  async "mcp-read-only"(w) {
    const ro = await w.mcp(["--read-only"]);
    try {
      const tools = (await ro.client.listTools()).tools.map((t) => t.name);
      assert.ok(!tools.includes("pravo_apply_plan"), tools.join(", "));
      const r = await call(ro, "pravo_plan");
      assert.equal(r.structuredContent?.exit_code, 0, text(r));
    } finally {
      await ro.close();
    }
  },
  async "mcp-policy"(w) {
    await write(w, "../no-replace.cue", "summary: replace: 0\n");
    const p = await w.mcp(["--policy", join(w.root, "../no-replace.cue")]);
    try {
      const r = await call(p, "pravo_plan", { replace: ["a"] });
      assert.equal(r.structuredContent?.exit_code, 5, text(r));
    } finally {
      await p.close();
    }
  },
  async "mcp-require-approval"(w, s) {
    const p = await w.mcp(["--require-approval", "--approver", s.approver!.pub]);
    try {
      const planned = await call(p, "pravo_plan", { out: "gated.plan", replace: ["a"] });
      assert.equal(planned.structuredContent?.exit_code, 2, text(planned));
      const unapproved = await call(p, "pravo_apply_plan", { planfile: "gated.plan" });
      assert.notEqual(unapproved.structuredContent?.exit_code, 0, text(unapproved));
      code(await w.run(["approve", "gated.plan", "--key", s.approver!.key]), 0, "approve");
      const applied = await call(p, "pravo_apply_plan", { planfile: "gated.plan" });
      assert.equal(applied.structuredContent?.exit_code, 0, text(applied));
    } finally {
      await p.close();
    }
  },
  async destroy(w) {
    const r = await w.run(["destroy", "-auto-approve"]);
    code(r, 0, "destroy");
    assert.match(r.stdout, /Resources: 0 added, 0 changed, 0 replaced, 2 destroyed|2 destroyed/);
    const list = await w.run(["state", "list"]);
    assert.equal(list.stdout.trim(), "");
  },
  async "state-migrate"(w) {
    code(await w.run(["apply", "-auto-approve"]), 0, "apply again, for something to migrate");
    const r = await w.run(["state", "migrate", "--to", w.migrateTo]);
    code(r, 0, "state migrate");
    const list = await w.run(["--state", w.migrateTo, "state", "list"]);
    code(list, 0, "state list on the target");
    assert.deepEqual(list.stdout.trim().split("\n"), ["a", "b"]);
  },
};

/** The MCP session the mcp-* rows share: started before the first, closed after the last. */
function needsSession(id: string): boolean {
  return id.startsWith("mcp-") && !["mcp-read-only", "mcp-policy", "mcp-require-approval"]
    .includes(id);
}

/** Runs every row the world runs, in order, each a step of `t`. */
export async function runWorld(t: Deno.TestContext, w: WorldRoot): Promise<void> {
  const s: Shared = {};
  try {
    for (const row of ROWS) {
      if (!runs(w.world, row)) continue;
      const step = STEPS[row.id];
      assert.ok(step, `no test for the row ${row.id}`);
      if (needsSession(row.id) && !s.session) s.session = await w.mcp();
      if (!needsSession(row.id) && s.session) {
        await s.session.close();
        s.session = undefined;
      }
      const ok = await t.step(`${row.id} (${w.world.id})`, () => step(w, s));
      if (!ok) break; // the rows after build on it
    }
  } finally {
    await s.session?.close();
  }
}

/** The rows that have a test: for the table test. */
export const STEP_IDS = Object.keys(STEPS);
