/**
 * Governance round 3, item 3: a plan document that a Terraform tool could
 * take for its own. pravo's plan document shares Terraform's JSON plan
 * `format_version` ("1.0") without that format's fields, so a check written
 * for Terraform's plans (conftest, OPA: "every resource_changes entry ...")
 * finds nothing to refuse and passes. Every plan document pravo prints, by
 * the CLI and through the MCP server, says what it is: `"format":
 * "pravo-plan"`, beside its version, and holds no field of Terraform's
 * format, so that a tool can tell them apart.
 *
 * @module
 */

import assert from "node:assert/strict";
import { call, connect, makeRoot, pravo, SEED, text } from "../mcp/_client.ts";

/** What identifies a document as Terraform's JSON plan (its top-level fields). */
const TERRAFORM_PLAN_FIELDS = [
  "terraform_version",
  "resource_changes",
  "planned_values",
  "prior_state",
  "configuration",
];

function assertPravoPlan(doc: Record<string, unknown>, where: string): void {
  assert.equal(doc.format, "pravo-plan", where);
  assert.equal(doc.format_version, "1.0", where);
  for (const f of TERRAFORM_PLAN_FIELDS) assert.ok(!(f in doc), `${where}: ${f}`);
}

Deno.test("adversarial: every plan document says it is pravo's, not Terraform's, from the CLI and the MCP server", async () => {
  const root = await makeRoot({ "main.cue": SEED });
  try {
    assert.equal((await pravo(root, ["init"])).code, 0);
    const planned = await pravo(root, ["plan", "--json", "--out", "a.plan"]);
    assert.equal(planned.code, 2, planned.stderr);
    assertPravoPlan(JSON.parse(planned.stdout), "plan --json");
    const shown = await pravo(root, ["show", "--json", "a.plan"]);
    assert.equal(shown.code, 0, shown.stderr);
    assertPravoPlan(JSON.parse(shown.stdout), "show --json");
    const destroy = await pravo(root, ["plan", "--destroy", "--json"]);
    assertPravoPlan(JSON.parse(destroy.stdout), "plan --destroy --json");
    const s = await connect(root);
    try {
      assertPravoPlan(
        JSON.parse(text(await call(s, "pravo_plan", { out: "b.plan" }))),
        "pravo_plan",
      );
      assertPravoPlan(
        JSON.parse(text(await call(s, "pravo_show_plan", { planfile: "b.plan" }))),
        "pravo_show_plan",
      );
    } finally {
      await s.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("adversarial: a policy can require the document's identity", async () => {
  const root = await makeRoot({ "main.cue": SEED });
  const policies = await Deno.makeTempDir({ prefix: "pravo-policies-" });
  try {
    await Deno.writeTextFile(`${policies}/identity.cue`, `format: "pravo-plan"\n`);
    await Deno.writeTextFile(`${policies}/tf.cue`, `format: "terraform-plan"\n`);
    assert.equal((await pravo(root, ["init"])).code, 0);
    const r = await pravo(root, ["plan", "--policy", `${policies}/identity.cue`]);
    assert.equal(r.code, 2, r.stderr);
    const refused = await pravo(root, ["plan", "--policy", `${policies}/tf.cue`]);
    assert.equal(refused.code, 5, refused.stdout + refused.stderr);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(policies, { recursive: true });
  }
});
