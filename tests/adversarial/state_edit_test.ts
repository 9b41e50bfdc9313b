/**
 * Issue 12's state edits under the threat model of issue 10: the agent
 * reaches pravo only through `pravo mcp` and the files of the root.
 *
 * - No tool edits the state: there is no import, state mv, state rm or
 *   destroy tool, and naming one is a protocol error.
 * - A `moved` entry the agent writes cannot take a node that an operator
 *   reserved: the plan is refused (exit 4), as a change would be.
 * - A move is in the plan document that policies judge (`moved_from`), so
 *   that operators can refuse moves made through the agent.
 */

import assert from "node:assert/strict";
import { call, connect, makeRoot, pravo, text } from "../mcp/_client.ts";
import { records } from "../_pravo.ts";

const HEAD = `package demo

import rnd "pravo.dev/providers/hashicorp/random"

$random: rnd.#Provider
`;

async function applied(): Promise<string> {
  const root = await makeRoot({
    "main.cue": HEAD + "keep: $random.#Resource.random_pet & {}\n",
  });
  assert.equal((await pravo(root, ["init"])).code, 0);
  assert.equal((await pravo(root, ["apply", "-auto-approve"])).code, 0);
  return root;
}

/** The agent renames keep to kept with a moved entry, as it may edit any .cue file. */
async function agentRenames(root: string): Promise<void> {
  await Deno.writeTextFile(
    `${root}/main.cue`,
    HEAD + 'kept: $random.#Resource.random_pet & {}\nmoved: [{from: "keep", to: "kept"}]\n',
  );
}

Deno.test("no MCP tool edits the state: import, state mv, state rm and destroy are not tools", async () => {
  const root = await applied();
  const s = await connect(root, { script: true });
  try {
    const { tools } = await s.client.listTools();
    const names = tools.map((t: { name: string }) => t.name);
    for (const n of names) {
      assert.doesNotMatch(n, /import|state_mv|state_rm|move|forget|destroy|unlock|release/, n);
    }
    for (const n of ["pravo_import", "pravo_state_mv", "pravo_state_rm", "pravo_destroy"]) {
      await assert.rejects(call(s, n, { addr: "keep", id: "x" }), /unknown tool/);
    }
  } finally {
    await s.close();
  }
  assert.deepEqual([...(await records(root)).keys()], ["keep"]);
});

Deno.test("a moved entry written by the agent cannot take a node an operator reserved", async () => {
  const root = await applied();
  // The operator reserves keep for a plan of their own.
  const reserved = await pravo(root, [
    "plan",
    "--replace",
    "keep",
    "--reserve",
    "--out",
    "op.plan",
    "--actor",
    "operator",
  ]);
  assert.equal(reserved.code, 2, reserved.stderr);
  await agentRenames(root);
  const s = await connect(root, { script: true, args: ["--actor", "agent"] });
  try {
    const r = await call(s, "pravo_plan", { out: "agent.plan" });
    assert.equal(r.isError, true);
    assert.equal(r.structuredContent?.exit_code, 4, text(r));
    assert.match(text(r), /Reserved by operator/);
    assert.match(text(r), /keep/);
    await assert.rejects(Deno.stat(`${root}/agent.plan`));
  } finally {
    await s.close();
  }
  assert.deepEqual([...(await records(root)).keys()], ["keep"]);
});

Deno.test("a move is in the plan document, so a server policy can refuse moves made by the agent", async () => {
  const root = await applied();
  const dir = await Deno.makeTempDir({ prefix: "pravo-policy-" });
  const policy = `${dir}/no_moves.cue`;
  await Deno.writeTextFile(
    policy,
    `rules: no_moves: {
	message: "this plan moves nodes: an operator does that"
	nodes: [for n in plan.nodes if n.moved_from != _|_ {n.address}]
	deny: len(nodes) > 0
}
`,
  );
  await agentRenames(root);
  const s = await connect(root, { script: true, args: ["--policy", policy] });
  try {
    const r = await call(s, "pravo_plan", { out: "agent.plan" });
    assert.equal(r.isError, true);
    assert.equal(r.structuredContent?.exit_code, 5, text(r));
    assert.match(text(r), /"moved_from": "keep"/);
    assert.match(text(r), /this plan moves nodes: an operator does that/);
    await assert.rejects(Deno.stat(`${root}/agent.plan`));
  } finally {
    await s.close();
  }
  assert.deepEqual([...(await records(root)).keys()], ["keep"]);
});
