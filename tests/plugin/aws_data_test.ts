/**
 * The most used data source of AWS configurations, on the real
 * hashicorp/aws provider: `aws_iam_policy_document` with a plain
 * statement plans (it failed with "read_jobs_doc.override_json cannot be
 * both null and string", an attribute the configuration never sets), and a
 * module's input left null reaches it as unset. It is computed by the
 * provider itself: no AWS endpoint is called.
 */
import assert from "node:assert/strict";
import { awsRoot } from "./_roots.ts";

const MAIN = `package demo

import aws "pravo.dev/providers/hashicorp/aws"

$aws: aws.#Provider & {
	region:                      "us-east-1"
	access_key:                  "test"
	secret_key:                  "test"
	skip_credentials_validation: true
	skip_requesting_account_id:  true
	skip_metadata_api_check:     "true"
}

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
  const r = await awsRoot({ "main.cue": MAIN });
  try {
    const plan = await r.run(["plan", "--json"]);
    assert.equal(plan.code, 0, plan.stdout + plan.stderr);
    const outputs = JSON.parse(plan.stdout).outputs;
    const read = JSON.parse(outputs.read);
    assert.deepEqual(read.Statement, [{
      Effect: "Allow",
      Action: "sqs:ReceiveMessage",
      Resource: "*",
    }]);
    const send = JSON.parse(outputs.send_doc);
    assert.equal(send.Statement[0].Action, "sqs:SendMessage");
    assert.ok(!("Sid" in send.Statement[0]), "a null sid is unset");
  } finally {
    await Deno.remove(r.root, { recursive: true });
  }
});
