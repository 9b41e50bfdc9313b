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
import { FAKE_HEADER, fakeRoot, type PluginRoot, script } from "./_roots.ts";
import { approverKey, call, connect, text } from "../mcp/_client.ts";

const MAIN = `${FAKE_HEADER}
alpha: $fake.#Resource.fake_thing & {name: "alpha"}
`;

/** scripts/pravo in the root, with the root's environment, as the operator. */
const operator = (r: PluginRoot, args: string[]) => script(r, args, "operator");

Deno.test("approve on a plugin root through scripts/pravo, then --require-approval applies it through MCP", async () => {
  await using r = await fakeRoot({ "main.cue": MAIN });
  const op = await approverKey();
  try {
    const plan = await operator(r, ["plan", "--out", "a.plan"]);
    assert.equal(plan.code, 2, plan.out);
    // show and approve open the plan and check it against the provider's schema.
    const show = await operator(r, ["show", "a.plan", "--json"]);
    assert.equal(show.code, 0, show.out);
    const approve = await operator(r, [
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
    const state = await operator(r, ["state", "show", "alpha", "--json"]);
    assert.equal(JSON.parse(state.out).record.attributes.name, "alpha", state.out);
  } finally {
    await Deno.remove(op.dir, { recursive: true });
  }
});
