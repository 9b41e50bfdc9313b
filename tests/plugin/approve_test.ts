/**
 * Governance on a plugin provider, as an operator and an agent run it:
 * `pravo approve` through scripts/pravo (its narrow permissions) on a plan
 * of a root whose nodes are a Terraform-protocol provider's (the fake
 * provider, protocol 6), then `pravo mcp --require-approval --approver`
 * applying it through the MCP SDK's client (issue "Every feature on every
 * provider": approve exited 7 on every plugin root, "has no managed type",
 * because scripts/pravo gave approve no read of the provider schemas).
 */
import assert from "node:assert/strict";
import { FAKE_SOURCE, FAKE_VERSION, fakeMirror, pluginRoot } from "./_roots.ts";
import { approverKey, call, connect, SCRIPT, text } from "../mcp/_client.ts";

const MAIN = `package demo

import fake "pravo.dev/providers/pravo/fake"

$fake: fake.#Provider & {endpoint: "http://fake.example"}

alpha: $fake.#Resource.fake_thing & {name: "alpha"}
`;

/** scripts/pravo in the root, with the root's environment. */
async function script(root: string, env: Record<string, string>, args: string[]) {
  const out = await new Deno.Command(SCRIPT, {
    args,
    cwd: root,
    env: { ...env, PRAVO_ACTOR: "operator", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, out: dec.decode(out.stdout) + dec.decode(out.stderr) };
}

Deno.test("approve on a plugin root through scripts/pravo, then --require-approval applies it through MCP", async () => {
  const mirror = await fakeMirror();
  const r = await pluginRoot({ "main.cue": MAIN }, {
    source: FAKE_SOURCE,
    version: FAKE_VERSION,
    mirror: mirror.dir,
  });
  const op = await approverKey();
  try {
    const plan = await script(r.root, r.env, ["plan", "--out", "a.plan"]);
    assert.equal(plan.code, 2, plan.out);
    // show and approve open the plan and check it against the provider's schema.
    const show = await script(r.root, r.env, ["show", "a.plan", "--json"]);
    assert.equal(show.code, 0, show.out);
    const approve = await script(r.root, r.env, [
      "--reason",
      "reviewed",
      "approve",
      "a.plan",
      "--key",
      op.key,
    ]);
    assert.equal(approve.code, 0, approve.out);

    const s = await connect(r.root, {
      script: true,
      env: r.env,
      args: ["--require-approval", "--approver", op.pub, "--actor", "agent"],
    });
    try {
      const res = await call(s, "pravo_apply_plan", { planfile: "a.plan" });
      assert.equal(res.structuredContent?.exit_code, 0, text(res));
    } finally {
      await s.close();
    }
    const state = await script(r.root, r.env, ["state", "show", "alpha", "--json"]);
    assert.equal(JSON.parse(state.out).record.attributes.name, "alpha", state.out);
  } finally {
    await Deno.remove(r.root, { recursive: true });
    await Deno.remove(op.dir, { recursive: true });
  }
});
