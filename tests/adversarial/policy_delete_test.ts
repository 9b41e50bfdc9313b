/**
 * Governance round 3, item 1: a "no destroy" policy let the agent destroy
 * by replacing. With `summary: destroy: 0` a destroy plan was refused, but
 * `pravo_plan {replace: ["db"], out}` then `pravo_apply_plan` deleted the
 * operator's object and made a new one; so did a change that forces a
 * replacement. `summary.delete` counts every object a plan deletes,
 * whatever the action, and `summary: delete: 0` refuses each way, through
 * the MCP server (at plan and at apply) and on the command line.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { appliedRoot, records } from "../_pravo.ts";
import { call, connect, exitCode, pravo, text } from "../mcp/_client.ts";

const MAIN = (dbFields = 'max: 9, seed: "db"', extra = "") =>
  `package demo

import rnd "pravo.dev/providers/hashicorp/random"

$random: rnd.#Provider

db:    $random.#Resource.random_integer & {min: 1, ${dbFields}}
cache: $random.#Resource.random_pet & {lifecycle: create_before_destroy: true}
${extra}`;

/** A root applied by the operator, and a policy outside it; `await using` removes both. */
async function setUp(
  policy: string,
): Promise<{ root: string; policy: string } & AsyncDisposable> {
  const root = await appliedRoot({ "main.cue": MAIN() });
  const dir = await Deno.makeTempDir({ prefix: "pravo-policy-" });
  await Deno.writeTextFile(join(dir, "keep.cue"), policy);
  return {
    root,
    policy: join(dir, "keep.cue"),
    async [Symbol.asyncDispose]() {
      await Deno.remove(root, { recursive: true });
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** The ids of the objects now: what a deletion would change. */
async function ids(root: string): Promise<Record<string, unknown>> {
  return Object.fromEntries([...(await records(root))].map(([a, r]) => [a, r.attributes.id]));
}

Deno.test("adversarial: summary: delete: 0 refuses every plan that deletes an object, through the MCP server", async () => {
  await using t = await setUp("summary: delete: 0\n");
  const before = await ids(t.root);
  const s = await connect(t.root, { args: ["--policy", t.policy] });
  try {
    const refused = async (what: string, args: Record<string, unknown>) => {
      const r = await call(s, "pravo_plan", { ...args, out: "x.plan" });
      assert.equal(exitCode(r), 5, `${what}: ${text(r)}`);
      assert.match(text(r), /summary\.delete/, what);
      await assert.rejects(Deno.stat(join(t.root, "x.plan")), Deno.errors.NotFound, what);
    };
    await refused("a requested replacement", { replace: ["db"] });
    await refused("a create-before-destroy replacement", { replace: ["cache"] });
    await refused("a destroy", { destroy: true });
    // An attribute that forces a replacement, written by the agent.
    await Deno.writeTextFile(join(t.root, "main.cue"), MAIN('max: 5, seed: "db"'));
    await refused("a change that forces a replacement", {});
    // A node removed from the configuration.
    await Deno.writeTextFile(
      join(t.root, "main.cue"),
      MAIN().replace(/cache: .*\n/, ""),
    );
    await refused("a node removed", {});
    // What deletes nothing still plans: a new node.
    await Deno.writeTextFile(
      join(t.root, "main.cue"),
      MAIN(undefined, "more: $random.#Resource.random_pet & {length: 2}\n"),
    );
    const ok = await call(s, "pravo_plan", { out: "y.plan" });
    assert.equal(exitCode(ok), 2, text(ok));
    assert.equal(JSON.parse(text(ok)).summary.delete, 0);
  } finally {
    await s.close();
  }
  assert.deepEqual(await ids(t.root), before);
});

Deno.test("adversarial: a replacement planned outside the server is refused at pravo_apply_plan, and the object stays", async () => {
  await using t = await setUp("summary: delete: 0\n");
  const before = await ids(t.root);
  // A plan the policy never saw (made on the command line without it).
  const planned = await pravo(t.root, ["plan", "--replace", "db", "--out", "r.plan"]);
  assert.equal(planned.code, 2, planned.stderr);
  const s = await connect(t.root, { args: ["--policy", t.policy] });
  try {
    const r = await call(s, "pravo_apply_plan", { planfile: "r.plan" });
    assert.equal(exitCode(r), 5, text(r));
    assert.match(text(r), /summary\.delete/);
  } finally {
    await s.close();
  }
  assert.deepEqual(await ids(t.root), before);
  // The command line judges the same way.
  const cli = await pravo(t.root, ["apply", "r.plan", "--policy", t.policy]);
  assert.equal(cli.code, 5, cli.stdout + cli.stderr);
  assert.match(cli.stderr, /Rule "summary\.delete" failed: .*Nodes: db\./);
  assert.deepEqual(await ids(t.root), before);
});

Deno.test("adversarial: summary: destroy: 0 counts destroys only: the document's delete shows what a replacement loses", async () => {
  await using t = await setUp("summary: destroy: 0\n");
  const r = await pravo(t.root, ["plan", "--replace", "db", "--json", "--policy", t.policy]);
  assert.equal(r.code, 2, r.stderr);
  const doc = JSON.parse(r.stdout);
  assert.equal(doc.summary.destroy, 0);
  assert.equal(doc.summary.replace, 1);
  assert.equal(doc.summary.delete, 1);
});
