/**
 * The most used AWS resources and data sources, each through the whole
 * lifecycle on the real `hashicorp/aws` 5.100.0 (from the Terraform
 * mirror) against moto_server, through the real pravo (scripts/pravo):
 *
 * plan (each resource to create, each data source read), apply, what was
 * made seen through the `aws` CLI, `plan --refresh all` with nothing to do,
 * then every resource forgotten (`state rm`) and imported again with the ID
 * its Terraform documentation gives, a `plan --refresh all` after the
 * imports, an apply of what it shows and a plan with nothing to do, and
 * destroy, after which the `aws` CLI finds nothing of the root.
 *
 * The plan right after the imports is not empty, as under Terraform: a few
 * inputs of four types are kept only in the state, and the provider cannot
 * read them back from AWS (KNOWN_AFTER_IMPORT says which, and why). The
 * test asserts exactly those, and nothing else.
 *
 * One root, to keep the time low: about 5 minutes on two busy cores, of
 * which 30 imports take half (each evaluates the root and starts the
 * provider, about 5 s) and the provider's wait for the SQS queue's
 * attributes 25 s. Names carry a random suffix, so that runs sharing a
 * moto_server do not meet. When the mirror or
 * moto_server is missing, this file fails and says which (`_aws.ts`).
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { zipBytes } from "../../lib/providers/install/_testing.ts";
import { records } from "../_pravo.ts";
import { awsCli, awsProviderPath, moto } from "./_aws.ts";
import { awsProviderCue, awsRoot, type PluginRoot, script, type Scripted } from "./_roots.ts";

awsProviderPath(); // fails the file, naming it, when the provider is missing
const MOTO = await moto();
const SUFFIX = crypto.randomUUID().slice(0, 8);

/** The services the root calls; `cloudwatchlogs` is the provider's name for CloudWatch Logs. */
const SERVICES = [
  "s3",
  "iam",
  "sts",
  "sqs",
  "sns",
  "dynamodb",
  "kms",
  "ssm",
  "secretsmanager",
  "cloudwatchlogs",
  "lambda",
  "ec2",
];

/**
 * The root: every resource and data source, one node each. `aws_ami_ids`
 * finds the AMI (`aws_ami`, a data source named like a resource type, is
 * read in aws_data_test.ts).
 */
function rootCue(zip: string, zipHash: string): string {
  return String.raw`package awsall

import (
	"encoding/json"
	aws "pravo.dev/providers/hashicorp/aws"
)

suffix: "${SUFFIX}"

${awsProviderCue(MOTO.url, "$aws", SERVICES)}
me:    $aws.#Data.aws_caller_identity & {}
here:  $aws.#Data.aws_region & {}
zones: $aws.#Data.aws_availability_zones & {state: "available"}

// S3: a bucket and its sub-resources, and an object in it.
files: $aws.#Resource.aws_s3_bucket & {
	bucket: "pravo-all-\(suffix)"
	tags: team: "platform"
}
files_versioning: $aws.#Resource.aws_s3_bucket_versioning & {
	bucket: files.id
	versioning_configuration: [{status: "Enabled"}]
}
files_policy: $aws.#Resource.aws_s3_bucket_policy & {
	bucket: files.id
	policy: json.Marshal({
		Version: "2012-10-17"
		Statement: [{
			Sid:    "AppReads"
			Effect: "Allow"
			Principal: AWS: app.arn
			Action:   "s3:GetObject"
			Resource: "\(files.arn)/*"
		}]
	})
}
files_public_access: $aws.#Resource.aws_s3_bucket_public_access_block & {
	bucket:                  files.id
	block_public_acls:       true
	block_public_policy:     true
	ignore_public_acls:      true
	restrict_public_buckets: true
}
files_encryption: $aws.#Resource.aws_s3_bucket_server_side_encryption_configuration & {
	bucket: files.id
	rule: [{apply_server_side_encryption_by_default: [{sse_algorithm: "AES256"}]}]
}
readme: $aws.#Resource.aws_s3_object & {
	bucket:       files.id
	key:          "README.txt"
	content:      "hello from pravo"
	content_type: "text/plain"
}

// IAM: a role from a policy document, a managed policy attached, an inline one.
assume_lambda: $aws.#Data.aws_iam_policy_document & {
	statement: [{
		effect: "Allow"
		actions: ["sts:AssumeRole"]
		principals: [{type: "Service", identifiers: ["lambda.amazonaws.com"]}]
	}]
}
app: $aws.#Resource.aws_iam_role & {
	name:               "pravo-all-\(suffix)"
	assume_role_policy: assume_lambda.json
}
read_jobs: $aws.#Resource.aws_iam_policy & {
	name: "pravo-all-read-\(suffix)"
	policy: json.Marshal({
		Version: "2012-10-17"
		Statement: [{Effect: "Allow", Action: ["sqs:ReceiveMessage", "sqs:DeleteMessage"], Resource: jobs.arn}]
	})
}
app_read_jobs: $aws.#Resource.aws_iam_role_policy_attachment & {
	role:       app.name
	policy_arn: read_jobs.arn
}
app_logs: $aws.#Resource.aws_iam_role_policy & {
	name: "logs"
	role: app.id
	policy: json.Marshal({
		Version: "2012-10-17"
		Statement: [{Effect: "Allow", Action: ["logs:PutLogEvents"], Resource: "*"}]
	})
}

// SQS and SNS: a queue that a topic delivers to. The queue's policy is
// its own attribute, not an aws_sqs_queue_policy: the provider waits about
// 25 s for a queue's attributes to settle, on create and again for the
// policy resource on create and on destroy, and a minute is a lot in CI.
// The policy names the queue by its ARN, made from the data sources (the
// queue's own arn would be a cycle).
jobs: $aws.#Resource.aws_sqs_queue & {
	name:                       "pravo-all-jobs-\(suffix)"
	message_retention_seconds:  86400
	visibility_timeout_seconds: 45
	policy:                     events_send_jobs.json
}
events: $aws.#Resource.aws_sns_topic & {
	name: "pravo-all-events-\(suffix)"
}
events_send_jobs: $aws.#Data.aws_iam_policy_document & {
	statement: [{
		effect: "Allow"
		actions: ["sqs:SendMessage"]
		resources: ["arn:aws:sqs:\(here.name):\(me.account_id):pravo-all-jobs-\(suffix)"]
		principals: [{type: "Service", identifiers: ["sns.amazonaws.com"]}]
		condition: [{test: "ArnEquals", variable: "aws:SourceArn", values: [events.arn]}]
	}]
}
events_to_jobs: $aws.#Resource.aws_sns_topic_subscription & {
	topic_arn: events.arn
	protocol:  "sqs"
	endpoint:  jobs.arn
}

sessions: $aws.#Resource.aws_dynamodb_table & {
	name:         "pravo-all-sessions-\(suffix)"
	billing_mode: "PAY_PER_REQUEST"
	hash_key:     "id"
	attribute: [{name: "id", type: "S"}]
}

// KMS, SSM, Secrets Manager.
app_key: $aws.#Resource.aws_kms_key & {
	description:             "pravo all \(suffix)"
	deletion_window_in_days: 7
}
app_key_alias: $aws.#Resource.aws_kms_alias & {
	name:          "alias/pravo-all-\(suffix)"
	target_key_id: app_key.key_id
}
mode: $aws.#Resource.aws_ssm_parameter & {
	name:  "/pravo-all/\(suffix)/mode"
	type:  "String"
	value: "blue"
}
db: $aws.#Resource.aws_secretsmanager_secret & {
	name:                    "pravo-all-\(suffix)"
	recovery_window_in_days: 0
}
db_value: $aws.#Resource.aws_secretsmanager_secret_version & {
	secret_id:     db.id
	secret_string: json.Marshal({user: "app", password: "s3cret"})
}

// Lambda, and its log group.
fn_logs: $aws.#Resource.aws_cloudwatch_log_group & {
	name:              "/aws/lambda/pravo-all-\(suffix)"
	retention_in_days: 7
}
fn: $aws.#Resource.aws_lambda_function & {
	function_name:    "pravo-all-\(suffix)"
	role:             app.arn
	runtime:          "python3.12"
	handler:          "handler.handler"
	filename:         "${zip}"
	source_code_hash: "${zipHash}"
	depends_on: [fn_logs]
}

// A network, and an instance in it.
net: $aws.#Resource.aws_vpc & {
	cidr_block: "10.42.0.0/16"
	tags: Name: "pravo-all-\(suffix)"
}
subnet: $aws.#Resource.aws_subnet & {
	vpc_id:            net.id
	cidr_block:        "10.42.1.0/24"
	availability_zone: zones.names[0]
}
gateway: $aws.#Resource.aws_internet_gateway & {
	vpc_id: net.id
}
routes: $aws.#Resource.aws_route_table & {
	vpc_id: net.id
	route: [{cidr_block: "0.0.0.0/0", gateway_id: gateway.id}]
}
subnet_routes: $aws.#Resource.aws_route_table_association & {
	subnet_id:      subnet.id
	route_table_id: routes.id
}
web: $aws.#Resource.aws_security_group & {
	name:        "pravo-all-web-\(suffix)"
	description: "web"
	vpc_id:      net.id
}
web_https: $aws.#Resource.aws_vpc_security_group_ingress_rule & {
	security_group_id: web.id
	cidr_ipv4:         "0.0.0.0/0"
	ip_protocol:       "tcp"
	from_port:         443
	to_port:           443
}
ubuntu: $aws.#Data.aws_ami_ids & {
	owners: ["amazon"]
	filter: [{name: "name", values: ["ubuntu/images/hvm-ssd/ubuntu-trusty-14.04-amd64-server-*"]}]
}
server: $aws.#Resource.aws_instance & {
	ami:           ubuntu.ids[0]
	instance_type: "t3.micro"
	subnet_id:     subnet.id
	vpc_security_group_ids: [web.id]
	tags: Name: "pravo-all-\(suffix)"
}

outputs: {
	account: me.account_id
	region:  here.name
	queue:   jobs.url
}
`;
}

/** The data sources of the root. */
const DATA = ["assume_lambda", "events_send_jobs", "here", "me", "ubuntu", "zones"];

/** A record's attributes, as `records()` gives them. */
type Attrs = Record<string, unknown>;

/**
 * Each managed resource of the root, with its type and the import ID of
 * its type, in the format the provider's documentation ("Import") gives,
 * made from what the state held before the record was forgotten.
 */
const MANAGED: Record<string, { type: string; id: (a: Attrs) => string }> = {
  files: { type: "aws_s3_bucket", id: () => `pravo-all-${SUFFIX}` }, // the bucket's name
  files_versioning: { type: "aws_s3_bucket_versioning", id: (a) => `${a.bucket}` },
  files_policy: { type: "aws_s3_bucket_policy", id: (a) => `${a.bucket}` },
  files_public_access: { type: "aws_s3_bucket_public_access_block", id: (a) => `${a.bucket}` },
  files_encryption: {
    type: "aws_s3_bucket_server_side_encryption_configuration",
    id: (a) => `${a.bucket}`,
  },
  readme: { type: "aws_s3_object", id: (a) => `${a.bucket}/${a.key}` }, // BUCKET/KEY
  app: { type: "aws_iam_role", id: () => `pravo-all-${SUFFIX}` }, // the role's name
  read_jobs: { type: "aws_iam_policy", id: (a) => `${a.arn}` }, // the policy's ARN
  // ROLE/POLICY_ARN
  app_read_jobs: { type: "aws_iam_role_policy_attachment", id: (a) => `${a.role}/${a.policy_arn}` },
  app_logs: { type: "aws_iam_role_policy", id: (a) => `${a.role}:${a.name}` }, // ROLE:NAME
  jobs: { type: "aws_sqs_queue", id: (a) => `${a.url}` }, // the queue's URL
  events: { type: "aws_sns_topic", id: (a) => `${a.arn}` }, // the topic's ARN
  events_to_jobs: { type: "aws_sns_topic_subscription", id: (a) => `${a.arn}` }, // its ARN
  sessions: { type: "aws_dynamodb_table", id: () => `pravo-all-sessions-${SUFFIX}` }, // its name
  app_key: { type: "aws_kms_key", id: (a) => `${a.key_id}` }, // the key's ID
  app_key_alias: { type: "aws_kms_alias", id: () => `alias/pravo-all-${SUFFIX}` }, // alias/NAME
  mode: { type: "aws_ssm_parameter", id: () => `/pravo-all/${SUFFIX}/mode` }, // its name
  db: { type: "aws_secretsmanager_secret", id: (a) => `${a.arn}` }, // the secret's ARN
  // SECRET_ARN|VERSION_ID
  db_value: {
    type: "aws_secretsmanager_secret_version",
    id: (a) => `${a.arn}|${a.version_id}`,
  },
  fn_logs: { type: "aws_cloudwatch_log_group", id: () => `/aws/lambda/pravo-all-${SUFFIX}` },
  fn: { type: "aws_lambda_function", id: () => `pravo-all-${SUFFIX}` }, // the function's name
  net: { type: "aws_vpc", id: (a) => `${a.id}` }, // vpc-...
  subnet: { type: "aws_subnet", id: (a) => `${a.id}` }, // subnet-...
  gateway: { type: "aws_internet_gateway", id: (a) => `${a.id}` }, // igw-...
  routes: { type: "aws_route_table", id: (a) => `${a.id}` }, // rtb-...
  // SUBNET_ID/ROUTE_TABLE_ID
  subnet_routes: {
    type: "aws_route_table_association",
    id: (a) => `${a.subnet_id}/${a.route_table_id}`,
  },
  web: { type: "aws_security_group", id: (a) => `${a.id}` }, // sg-...
  web_https: {
    type: "aws_vpc_security_group_ingress_rule",
    id: (a) => `${a.security_group_rule_id}`, // sgr-...
  },
  server: { type: "aws_instance", id: (a) => `${a.id}` }, // i-...
};

/**
 * What differs in the plan right after the imports, and nothing else: the
 * inputs that AWS does not keep, so that the provider's ImportResourceState
 * and ReadResource cannot give them and leave them null (as the provider's
 * own acceptance tests say, with ImportStateVerifyIgnore), while the
 * configuration sets them or the schema defaults them. Terraform plans the
 * same updates after `terraform import`. Applying them changes nothing in
 * AWS that matters, and the plan after is empty.
 */
const KNOWN_AFTER_IMPORT: Record<string, string[]> = {
  // Only used when the key is deleted, and a flag of the CreateKey call.
  app_key: ["bypass_policy_lockout_safety_check", "deletion_window_in_days"],
  // Only for HTTP(S) subscriptions; the provider's own settings.
  events_to_jobs: ["confirmation_timeout_in_minutes", "endpoint_auto_confirms"],
  // The local zip and its hash (5.100 reads the code's hash into code_sha256
  // only), and `publish`, a flag of the call.
  fn: ["filename", "publish", "source_code_hash"],
  // The object's body is not read back; force_destroy is the provider's own.
  readme: ["content", "force_destroy"],
};

/** pravo through scripts/pravo (narrow permissions), in the root. */
const run = (r: PluginRoot, args: string[]): Promise<Scripted> =>
  script(r, args, "aws-resources-test");

/** The `aws` CLI on moto, its JSON answer parsed. */
const aws = (args: string[]): Promise<Record<string, unknown>> => awsCli(MOTO.url, args);

interface PlanNode {
  address: string;
  action: string;
  changed?: string[];
}

function planNodes(out: string): PlanNode[] {
  return JSON.parse(out.slice(out.indexOf("{"))).nodes;
}

/** The nodes of a plan that do something, with their action. */
function changes(out: string): Record<string, string> {
  return Object.fromEntries(
    planNodes(out).filter((n) => n.action !== "no-op" && n.action !== "read").map((
      n,
    ) => [n.address, n.action]),
  );
}

Deno.test("the most used AWS resources on the real provider against moto: plan, apply, refresh, import, destroy", async (t) => {
  const work = await Deno.makeTempDir({ prefix: "pravo-aws-resources-" });
  const zip = join(work, "fn.zip");
  // Stored, not deflated: enough for Lambda.
  const code = zipBytes([
    { name: "handler.py", data: 'def handler(event, context):\n    return {"ok": True}\n' },
  ], { store: true });
  await Deno.writeFile(zip, code);
  const zipHash = btoa(
    String.fromCharCode(...new Uint8Array(await crypto.subtle.digest("SHA-256", code))),
  );
  const r = await awsRoot({ "main.cue": rootCue(zip, zipHash) });
  const ids: Record<string, string> = {};

  try {
    await t.step("plan: each resource to create, each data source read", async () => {
      const res = await run(r, ["plan", "--out", "all.plan", "--json"]);
      assert.equal(res.code, 2, res.out);
      const nodes = planNodes(res.out);
      const want = Object.fromEntries([
        ...Object.keys(MANAGED).map((a) => [a, "create"]),
        ...DATA.map((a) => [a, "read"]),
      ]);
      assert.deepEqual(Object.fromEntries(nodes.map((n) => [n.address, n.action])), want);
    });

    await t.step("apply the saved plan", async () => {
      const res = await run(r, ["apply", "all.plan"]);
      assert.equal(res.code, 0, res.out);
      assert.match(res.out, new RegExp(`Resources: ${Object.keys(MANAGED).length} added`));
      const recs = await records(r.root);
      for (const [a, m] of Object.entries(MANAGED)) {
        assert.equal(recs.get(a)?.type, m.type, a);
        ids[a] = m.id(recs.get(a)!.attributes as Attrs);
      }
    });

    await t.step("what was made, seen through the aws CLI", async () => {
      const param = await aws(["ssm", "get-parameter", "--name", `/pravo-all/${SUFFIX}/mode`]);
      assert.equal((param.Parameter as Attrs).Value, "blue");
      const queue = await aws([
        "sqs",
        "get-queue-attributes",
        "--queue-url",
        ids.jobs,
        "--attribute-names",
        "MessageRetentionPeriod",
        "VisibilityTimeout",
        "Policy",
      ]);
      const qa = queue.Attributes as Record<string, string>;
      assert.equal(qa.MessageRetentionPeriod, "86400");
      assert.equal(qa.VisibilityTimeout, "45");
      const qp = JSON.parse(qa.Policy);
      assert.equal(qp.Statement[0].Principal.Service, "sns.amazonaws.com");
      assert.equal(
        qp.Statement[0].Resource,
        `arn:aws:sqs:us-east-1:123456789012:pravo-all-jobs-${SUFFIX}`,
      );
      assert.equal(qp.Statement[0].Condition.ArnEquals["aws:SourceArn"], ids.events);
      const rules = await aws([
        "ec2",
        "describe-security-group-rules",
        "--filters",
        `Name=group-id,Values=${ids.web}`,
      ]);
      assert.deepEqual(
        (rules.SecurityGroupRules as Attrs[]).map((x) => ({
          id: x.SecurityGroupRuleId,
          egress: x.IsEgress,
          proto: x.IpProtocol,
          from: x.FromPort,
          to: x.ToPort,
          cidr: x.CidrIpv4,
        })),
        [{ id: ids.web_https, egress: false, proto: "tcp", from: 443, to: 443, cidr: "0.0.0.0/0" }],
      );
      const bucket = `pravo-all-${SUFFIX}`;
      const versioning = await aws(["s3api", "get-bucket-versioning", "--bucket", bucket]);
      assert.equal(versioning.Status, "Enabled");
      const object = await aws([
        "s3api",
        "head-object",
        "--bucket",
        bucket,
        "--key",
        "README.txt",
      ]);
      assert.equal(object.ContentType, "text/plain");
      assert.equal(object.ContentLength, "hello from pravo".length);
      const secret = await aws(["secretsmanager", "get-secret-value", "--secret-id", ids.db]);
      assert.deepEqual(JSON.parse(secret.SecretString as string), {
        user: "app",
        password: "s3cret",
      });
      const fn = await aws(["lambda", "get-function", "--function-name", ids.fn]);
      const conf = fn.Configuration as Attrs;
      assert.equal(conf.Runtime, "python3.12");
      assert.equal(conf.CodeSha256, zipHash);
      const instances = await aws(["ec2", "describe-instances", "--instance-ids", ids.server]);
      const inst = (instances.Reservations as { Instances: Attrs[] }[])[0].Instances[0];
      assert.equal(inst.SubnetId, ids.subnet);
      assert.equal((inst.State as Attrs).Name, "running");
    });

    await t.step("plan --refresh all: nothing to do", async () => {
      const res = await run(r, ["plan", "--refresh", "all"]);
      assert.equal(res.code, 0, res.out);
      assert.match(res.out, /^No changes\./m);
    });

    await t.step("each resource forgotten, and imported by its documented ID", async () => {
      const rm = await run(r, ["state", "rm", ...Object.keys(MANAGED)]);
      assert.equal(rm.code, 0, rm.out);
      const left = await records(r.root);
      assert.deepEqual(Object.keys(MANAGED).filter((a) => left.has(a)), []);
      // One at a time: an import holds the state lock while the provider
      // runs, and does not wait for another's (two at a time on two cores
      // took as long). Run as `deno run -A main.ts`, not through
      // scripts/pravo, whose first step (the grants for the provider)
      // would add a second each: aws_root_test.ts imports through it.
      for (const [a, m] of Object.entries(MANAGED)) {
        const res = await r.run(["import", a, ids[a]]);
        assert.equal(res.code, 0, `${a}: ${res.stdout}${res.stderr}`);
        assert.match(res.stdout, new RegExp(`^${a}: imported ${m.type} from ID`, "m"));
      }
      const recs = await records(r.root);
      for (const [a, m] of Object.entries(MANAGED)) assert.equal(recs.get(a)?.type, m.type, a);
    });

    await t.step("plan --refresh all after the imports: only what AWS does not keep", async () => {
      const res = await run(r, [
        "plan",
        "--refresh",
        "all",
        "--out",
        "after-import.plan",
        "--json",
      ]);
      assert.equal(res.code, 2, res.out);
      const nodes = planNodes(res.out);
      assert.deepEqual(
        changes(res.out),
        Object.fromEntries(Object.keys(KNOWN_AFTER_IMPORT).map((a) => [a, "update"])),
      );
      for (const [a, attrs] of Object.entries(KNOWN_AFTER_IMPORT)) {
        assert.deepEqual(nodes.find((n) => n.address === a)?.changed, attrs, a);
      }
    });

    await t.step("applying that plan, and then nothing is left to do", async () => {
      const res = await run(r, ["apply", "after-import.plan"]);
      assert.equal(res.code, 0, res.out);
      assert.match(res.out, new RegExp(`${Object.keys(KNOWN_AFTER_IMPORT).length} changed`));
      const again = await run(r, ["plan", "--refresh", "all"]);
      assert.equal(again.code, 0, again.out);
      assert.match(again.out, /^No changes\./m);
    });

    await t.step("destroy, and nothing of the root is left", async () => {
      const res = await run(r, ["destroy", "-auto-approve"]);
      assert.equal(res.code, 0, res.out);
      assert.match(res.out, new RegExp(`${Object.keys(MANAGED).length} destroyed`));
      await assertNothingLeft(ids);
    });
  } finally {
    await MOTO.stop();
    await Deno.remove(r.root, { recursive: true });
    await Deno.remove(work, { recursive: true });
  }
});

/** Asks moto, service by service, for what the root made; it finds none of it. */
async function assertNothingLeft(ids: Record<string, string>): Promise<void> {
  const mine = (names: unknown[]) => names.filter((n) => String(n).includes(SUFFIX));
  const none = async (args: string[], key: string, field?: string) => {
    const got = ((await aws(args))[key] as unknown[] | undefined) ?? [];
    const names = field ? (got as Attrs[]).map((x) => x[field]) : got;
    assert.deepEqual(mine(names), [], `aws ${args.join(" ")}`);
  };
  const ec2 = async (what: string, key: string, field: string, id: string) => {
    const got = (await aws(["ec2", what]))[key] as Attrs[];
    assert.deepEqual(got.filter((x) => x[field] === id), [], `aws ec2 ${what}`);
  };
  // Each is a process of its own: all at once.
  await Promise.all([
    none(["s3api", "list-buckets"], "Buckets", "Name"),
    none(["iam", "list-roles"], "Roles", "RoleName"),
    none(["iam", "list-policies", "--scope", "Local"], "Policies", "Arn"),
    none(["sqs", "list-queues"], "QueueUrls"),
    none(["sns", "list-topics"], "Topics", "TopicArn"),
    none(["sns", "list-subscriptions"], "Subscriptions", "SubscriptionArn"),
    none(["dynamodb", "list-tables"], "TableNames"),
    none(["kms", "list-aliases"], "Aliases", "AliasName"),
    // A KMS key is never deleted at once: it waits out its deletion window.
    aws(["kms", "describe-key", "--key-id", ids.app_key]).then((k) =>
      assert.equal((k.KeyMetadata as Attrs).KeyState, "PendingDeletion")
    ),
    none(["ssm", "describe-parameters"], "Parameters", "Name"),
    none(["secretsmanager", "list-secrets"], "SecretList", "Name"),
    none(["logs", "describe-log-groups"], "logGroups", "logGroupName"),
    none(["lambda", "list-functions"], "Functions", "FunctionName"),
    ec2("describe-vpcs", "Vpcs", "VpcId", ids.net),
    ec2("describe-subnets", "Subnets", "SubnetId", ids.subnet),
    ec2("describe-internet-gateways", "InternetGateways", "InternetGatewayId", ids.gateway),
    ec2("describe-route-tables", "RouteTables", "RouteTableId", ids.routes),
    ec2("describe-security-groups", "SecurityGroups", "GroupId", ids.web),
    // A terminated instance stays listed for a while, as on AWS.
    aws(["ec2", "describe-instances", "--instance-ids", ids.server]).then((d) => {
      const inst = (d.Reservations as { Instances: Attrs[] }[])[0].Instances[0];
      assert.equal((inst.State as Attrs).Name, "terminated");
    }),
  ]);
}
