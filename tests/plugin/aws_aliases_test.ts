/**
 * A node of an aliased AWS provider configuration in another region, on
 * the real `hashicorp/aws` 5.100.0 against moto_server, through the real
 * pravo: `$aws` in us-east-1 and `$aws_west` in us-west-2, an SSM parameter
 * made with each. After apply, `plan --refresh all` (which reads every
 * record before the plan's first evaluation) has nothing to do and `drift`
 * finds nothing drifted: each parameter is read in its own region. The
 * parameter of `$aws_west`, removed from the configuration, is deleted in
 * us-west-2, with the configuration its record names.
 *
 * Names carry a random suffix, so that runs sharing a moto_server do not
 * meet. When the mirror or moto_server is missing, this file fails and
 * says which (`_aws.ts`).
 *
 * @module
 */

import assert from "node:assert/strict";
import { awsCli, awsProviderPath, moto } from "./_aws.ts";
import { awsProviderCue, awsRoot, type PluginRoot, script } from "./_roots.ts";

awsProviderPath(); // fails the file, naming it, when the provider is missing
const MOTO = await moto();
const SUFFIX = crypto.randomUUID().slice(0, 8);
const SERVICES = ["ssm", "sts"];

function rootCue(west = true): string {
  const westCue = awsProviderCue(MOTO.url, "$aws_west", SERVICES)
    .replace('"us-east-1"', '"us-west-2"');
  assert.match(westCue, /us-west-2/);
  return String.raw`package awsalias

import aws "pravo.dev/providers/hashicorp/aws"

${awsProviderCue(MOTO.url, "$aws", SERVICES)}
${westCue}
aws_ssm_parameter: e: $aws.#Resource.aws_ssm_parameter & {
	name:  "/pravo/alias-${SUFFIX}/east"
	type:  "String"
	value: "in the east"
}
${
    west
      ? String.raw`aws_ssm_parameter: w: $aws_west.#Resource.aws_ssm_parameter & {
	name:  "/pravo/alias-${SUFFIX}/west"
	type:  "String"
	value: "in the west"
}`
      : ""
  }
`;
}

/** The names of the root's parameters in `region`. */
async function parameters(region: string): Promise<string[]> {
  const out = await awsCli(MOTO.url, [
    "ssm",
    "get-parameters-by-path",
    "--path",
    `/pravo/alias-${SUFFIX}`,
  ], { region });
  return (out.Parameters ?? []).map((p: { Name: string }) => p.Name).sort();
}

async function run(r: PluginRoot, args: string[]) {
  return await script(r, args, "alias-test");
}

Deno.test({
  name:
    "a node of an aliased AWS configuration in another region: refresh, drift and delete use its region",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    await using r = await awsRoot({ "main.cue": rootCue() });
    try {
      const applied = await run(r, ["apply", "-auto-approve"]);
      assert.equal(applied.code, 0, applied.out);
      assert.deepEqual(await parameters("us-east-1"), [`/pravo/alias-${SUFFIX}/east`]);
      assert.deepEqual(await parameters("us-west-2"), [`/pravo/alias-${SUFFIX}/west`]);

      await t.step("plan --refresh all: nothing to do", async () => {
        const plan = await run(r, ["plan", "--refresh", "all"]);
        assert.equal(plan.code, 0, plan.out); // 2 would be changes: a parameter to create
      });

      await t.step("drift: nothing drifted", async () => {
        const drift = await run(r, ["--json", "drift"]);
        assert.equal(drift.code, 0, drift.out);
        const doc = JSON.parse(drift.out);
        assert.equal(doc.summary.drifted + doc.summary.gone, 0, drift.out);
        assert.equal(doc.summary.unchanged, 2, drift.out);
      });

      await t.step("removed from the configuration, it is deleted in its region", async () => {
        await Deno.writeTextFile(`${r.root}/main.cue`, rootCue(false));
        const applied = await run(r, ["apply", "-auto-approve"]);
        assert.equal(applied.code, 0, applied.out);
        assert.deepEqual(await parameters("us-west-2"), []);
        assert.deepEqual(await parameters("us-east-1"), [`/pravo/alias-${SUFFIX}/east`]);
      });
    } finally {
      await run(r, ["apply", "-auto-approve", "--destroy"]).catch(() => undefined);
      await MOTO.stop();
    }
  },
});
