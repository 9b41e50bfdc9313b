/**
 * The most used data source of AWS configurations, on the real
 * hashicorp/aws provider: `aws_iam_policy_document` with a plain
 * statement plans (it failed with "read_jobs_doc.override_json cannot be
 * both null and string", an attribute the configuration never sets), and a
 * module's input left null reaches it as unset. It is computed by the
 * provider itself: no AWS endpoint is called.
 */
import assert from "node:assert/strict";
import { awsProviderCue, awsRoot } from "./_roots.ts";
import { moto } from "./_aws.ts";

const MAIN = `package demo

import aws "pravo.dev/providers/hashicorp/aws"

${awsProviderCue(undefined)}
#Doc: {
	#var: {actions: [...string], sid: *null | string}
	doc: $aws.#Data.aws_iam_policy_document & {
		statement: [{sid: #var.sid, effect: "Allow", actions: #var.actions, resources: ["*"]}]
	}
}

read_jobs_doc: $aws.#Data.aws_iam_policy_document & {
	statement: [{effect: "Allow", actions: ["sqs:ReceiveMessage"], resources: ["*"]}]
}
send: #Doc & {#var: actions: ["sqs:SendMessage"]}

outputs: {
	read: read_jobs_doc.json
	send_doc: send.doc.json
}
`;

Deno.test("aws_iam_policy_document plans with a plain statement, and through a module with a null input", async () => {
  await using r = await awsRoot({ "main.cue": MAIN });
  const outputs = JSON.parse((await r.expect(["plan", "--json"])).stdout).outputs;
  const read = JSON.parse(outputs.read);
  assert.deepEqual(read.Statement, [{
    Effect: "Allow",
    Action: "sqs:ReceiveMessage",
    Resource: "*",
  }]);
  const send = JSON.parse(outputs.send_doc);
  assert.equal(send.Statement[0].Action, "sqs:SendMessage");
  assert.ok(!("Sid" in send.Statement[0]), "a null sid is unset");
});

Deno.test("a data source whose type shares its name with a resource's plans with its own attributes (aws_vpc, aws_ami)", async () => {
  // It failed with Unsupported attribute "ipv6_cidr_block_network_border_group":
  // the resource's optional and computed attributes were put on the data source.
  await using m = await moto();
  await using r = await awsRoot({
    "main.cue": `package demo

import aws "pravo.dev/providers/hashicorp/aws"

${awsProviderCue(m.url, "$aws", ["ec2", "sts"])}
default_vpc: $aws.#Data.aws_vpc & {default: true}
image: $aws.#Data.aws_ami & {owners: ["amazon"], most_recent: true}
outputs: {vpc: default_vpc.id, ami: image.id}
`,
  });
  const outputs = JSON.parse((await r.expect(["plan", "--json"])).stdout).outputs;
  assert.match(outputs.vpc, /^vpc-/);
  assert.match(outputs.ami, /^ami-/);
});
