/**
 * `pravo show --format terraform` against `terraform show -json`, field by
 * field: one configuration written for Terraform 1.11.4 (HCL) and for pravo
 * (CUE, at the addresses a converted root has: `aws_s3_bucket: b: ...`), on
 * the real `hashicorp/aws` 5.100.0 and moto_server, each tool planning and
 * applying its own objects (names with a random suffix, one per tool).
 *
 * Three plans, each made by both tools and compared:
 *
 * 1. everything to create (and a data source read during the plan);
 * 2. after an apply: an update (a bucket's tags), two replacements (an SSM
 *    parameter, and one with `create_before_destroy`), a delete (a table
 *    that left the configuration), a `count` that shrinks, and the rest
 *    unchanged; pravo plans with `--refresh all`, as Terraform refreshes;
 * 3. after another apply, nothing to do: Terraform with `-refresh=false`,
 *    pravo incremental, so that every pravo node is one the plan skipped
 *    and its values come from the state.
 *
 * Each tool's suffix is written `SUFFIX` before comparing. Every field must
 * be equal but those DIFFERENCES lists, each with why. No secret value may
 * appear in pravo's output. About 6 minutes on two busy cores. When
 * Terraform, the provider mirror or moto_server is missing, this file fails
 * and names it.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { awsProviderHcl, awsProviderPath, moto } from "./plugin/_aws.ts";
import { terraform as terraformRun, terraformEnv } from "./_terraform.ts";
import { awsProviderCue, awsRoot, type PluginRoot } from "./plugin/_roots.ts";

awsProviderPath(); // fails the file, naming it, when the provider is missing
const MOTO = await moto();
const SCRIPT = fileURLToPath(new URL("../scripts/pravo", import.meta.url));
const RAND = crypto.randomUUID().slice(0, 8);
const TF_SUFFIX = `tf${RAND}`;
const PV_SUFFIX = `pv${RAND}`;
const SERVICES = ["s3", "iam", "sts", "ssm", "dynamodb"];

/** The Terraform configuration, version 1 or 2 (the changes of plan 2). */
function hcl(v: 1 | 2): string {
  return `terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "5.100.0" }
  }
}

${awsProviderHcl({ endpoint: JSON.stringify(MOTO.url), services: SERVICES })}
variable "suffix" {
  default = "${TF_SUFFIX}"
}

resource "aws_s3_bucket" "b" {
  bucket = "tfshow-\${var.suffix}"
  tags   = { team = "${v === 1 ? "a" : "b"}" }
}

resource "aws_ssm_parameter" "secret" {
  name  = "/tfshow/\${var.suffix}/${v === 1 ? "secret" : "secret2"}"
  type  = "SecureString"
  value = "s3cr3t-\${var.suffix}"
}

resource "aws_ssm_parameter" "q" {
  name        = "/tfshow/\${var.suffix}/${v === 1 ? "q" : "q2"}"
  type        = "String"
  value       = "plain-\${var.suffix}"
  description = "for \${aws_s3_bucket.b.arn}"
  lifecycle {
    create_before_destroy = true
  }
}

resource "aws_ssm_parameter" "n" {
  count = ${v === 1 ? 2 : 1}
  name  = "/tfshow/\${var.suffix}/n\${count.index}"
  type  = "String"
  value = "count-\${count.index}-\${var.suffix}"
}

data "aws_iam_policy_document" "assume" {
  statement {
    actions = ["sts:AssumeRole"]
    principals {
      type        = "Service"
      identifiers = ["lambda.amazonaws.com"]
    }
  }
}

resource "aws_iam_role" "r" {
  name               = "tfshow-\${var.suffix}"
  assume_role_policy = data.aws_iam_policy_document.assume.json
}

resource "aws_iam_role_policy" "rp" {
  name   = "inline"
  role   = aws_iam_role.r.id
  policy = jsonencode({ Version = "2012-10-17", Statement = [{ Effect = "Allow", Action = ["s3:GetObject"], Resource = ["\${aws_s3_bucket.b.arn}/*"] }] })
}
${
    v === 1
      ? `
resource "aws_dynamodb_table" "t" {
  name         = "tfshow-\${var.suffix}"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "id"
  attribute {
    name = "id"
    type = "S"
  }
}
`
      : ""
  }
output "bucket_arn" {
  value = aws_s3_bucket.b.arn
}

output "role_name" {
  value = aws_iam_role.r.name
}
`;
}

/** The same configuration for pravo, as a converted root writes it. */
function cue(v: 1 | 2): string {
  return String.raw`package tfshow

import (
	"encoding/json"
	"list"
	aws "pravo.dev/providers/hashicorp/aws"
)

${awsProviderCue(MOTO.url, "$aws", SERVICES)}
var: suffix: *"${PV_SUFFIX}" | string @tag(suffix)

aws_s3_bucket: b: $aws.#Resource.aws_s3_bucket & {
	bucket: "tfshow-\(var.suffix)"
	tags: team: "${v === 1 ? "a" : "b"}"
}

aws_ssm_parameter: secret: $aws.#Resource.aws_ssm_parameter & {
	name:  "/tfshow/\(var.suffix)/${v === 1 ? "secret" : "secret2"}"
	type:  "SecureString"
	value: "s3cr3t-\(var.suffix)"
}

aws_ssm_parameter: q: $aws.#Resource.aws_ssm_parameter & {
	name:        "/tfshow/\(var.suffix)/${v === 1 ? "q" : "q2"}"
	type:        "String"
	value:       "plain-\(var.suffix)"
	description: "for \(aws_s3_bucket.b.arn)"
	lifecycle: create_before_destroy: true
}

aws_ssm_parameter: n: {for i in list.Range(0, ${v === 1 ? 2 : 1}, 1) {
	"\(i)": $aws.#Resource.aws_ssm_parameter & {
		name:  "/tfshow/\(var.suffix)/n\(i)"
		type:  "String"
		value: "count-\(i)-\(var.suffix)"
	}
}}

data: aws_iam_policy_document: assume: $aws.#Data.aws_iam_policy_document & {
	statement: [{
		actions: ["sts:AssumeRole"]
		principals: [{type: "Service", identifiers: ["lambda.amazonaws.com"]}]
	}]
}

aws_iam_role: r: $aws.#Resource.aws_iam_role & {
	name:               "tfshow-\(var.suffix)"
	assume_role_policy: data.aws_iam_policy_document.assume.json
}

aws_iam_role_policy: rp: $aws.#Resource.aws_iam_role_policy & {
	name:   "inline"
	role:   aws_iam_role.r.id
	policy: json.Marshal({Version: "2012-10-17", Statement: [{Effect: "Allow", Action: ["s3:GetObject"], Resource: ["\(aws_s3_bucket.b.arn)/*"]}]})
}
${
    v === 1
      ? String.raw`
aws_dynamodb_table: t: $aws.#Resource.aws_dynamodb_table & {
	name:         "tfshow-\(var.suffix)"
	billing_mode: "PAY_PER_REQUEST"
	hash_key:     "id"
	attribute: [{name: "id", type: "S"}]
}
`
      : ""
  }
outputs: {
	bucket_arn: aws_s3_bucket.b.arn
	role_name:  aws_iam_role.r.name
}
`;
}

/** A field of pravo's output allowed to differ from Terraform's, and why. */
interface Difference {
  /** Matched against the field's path, arrays of resources indexed by address. */
  path: RegExp;
  why: string;
  /** What pravo's side must hold there instead, when it holds something. */
  pravo?: (v: unknown) => boolean;
}

/**
 * The fields that differ, each with its reason (docs/reference/show.md
 * lists them for users). Everything else must be equal.
 */
const DIFFERENCES: Difference[] = [
  {
    path: /^(prior_state\.)?terraform_version$/,
    why: "pravo is not Terraform: it writes the Terraform release whose format it follows, " +
      "and its own version as build metadata",
    pravo: (v) => typeof v === "string" && /^1\.11\.4\+pravo\./.test(v),
  },
  {
    path: /^timestamp$/,
    why: "each plan was made at its own time",
    pravo: (v) => typeof v === "string" && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(v),
  },
  {
    // The SecureString's value, and the sensitive values of the other parameters.
    path: /(\.change\.(before|after)|\.values)\.value$|expressions\.value\.constant_value$/,
    why: "secret values are never written: the value is left out, and marked in *_sensitive",
    pravo: (v) => v === undefined,
  },
  {
    path:
      /^planned_values\.root_module\.resources\[aws_ssm_parameter\.(secret|q)\]\.sensitive_values\.(value|value_wo)$/,
    why: "Terraform 1.11.4 leaves the schema's sensitive marks out of planned_values for a " +
      "replaced resource (it keeps them for a created one); pravo marks them alike",
    pravo: (v) => v === true,
  },
  {
    path: /\[aws_iam_role\.r\]\.(change\.(before|after)|values)\.(unique_id|create_date)$/,
    why: "AWS (moto) gives each role its own id and creation time; each tool made its own role",
  },
];

/** A path step for an element: the address of a resource, else its index. */
function step(v: unknown, i: number): string {
  const a = v && typeof v === "object" ? (v as { address?: unknown }).address : undefined;
  return typeof a === "string" ? `[${a}]` : `[${i}]`;
}

/** Each tool's suffix written SUFFIX, in every string. */
function normalize(v: unknown, suffix: string): unknown {
  if (typeof v === "string") return v.split(suffix).join("SUFFIX");
  if (Array.isArray(v)) return v.map((x) => normalize(x, suffix));
  if (v && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normalize(x, suffix)]));
  }
  return v;
}

/** The fields where the two documents differ: path, Terraform's value, pravo's. */
function differences(tf: unknown, pv: unknown, at = ""): [string, unknown, unknown][] {
  const out: [string, unknown, unknown][] = [];
  const isObj = (x: unknown): x is Record<string, unknown> =>
    !!x && typeof x === "object" && !Array.isArray(x);
  if (isObj(tf) && isObj(pv)) {
    for (const k of [...new Set([...Object.keys(tf), ...Object.keys(pv)])].sort()) {
      out.push(...differences(tf[k], pv[k], at ? `${at}.${k}` : k));
    }
  } else if (Array.isArray(tf) && Array.isArray(pv) && tf.length === pv.length) {
    const keyed = tf.every((x, i) => step(x, i) === step(pv[i], i));
    if (!keyed) out.push([`${at} (order)`, tf.map(step), pv.map(step)]);
    else tf.forEach((x, i) => out.push(...differences(x, pv[i], `${at}${step(x, i)}`)));
  } else if (JSON.stringify(tf) !== JSON.stringify(pv)) {
    out.push([at, tf, pv]);
  }
  return out;
}

/** Asserts that the documents are equal but for DIFFERENCES; returns the reasons used. */
function assertSameFields(tf: Record<string, unknown>, pv: Record<string, unknown>, what: string) {
  // Terraform's order of relevant_attributes is not defined (it sorts by a
  // Go rendering of another list): compare them as sets.
  const sorted = (d: Record<string, unknown>) => ({
    ...d,
    relevant_attributes: (d.relevant_attributes as { resource: string; attribute: unknown }[])
      ?.map((x) => JSON.stringify([x.resource, x.attribute])).sort(),
  });
  const unexplained: string[] = [];
  for (const [path, t, p] of differences(sorted(tf), sorted(pv))) {
    const d = DIFFERENCES.find((x) => x.path.test(path));
    if (d && (!d.pravo || d.pravo(p))) continue;
    unexplained.push(
      `${path}:\n    terraform: ${JSON.stringify(t)}\n    pravo:     ${JSON.stringify(p)}`,
    );
  }
  assert.deepEqual(unexplained, [], `${what}: fields that differ from Terraform's`);
}

/** The tools' runs. */
const TF_DIR = await Deno.makeTempDir({ prefix: "pravo-tfshow-tf-" });
let TF_ENV: Record<string, string>;

const terraform = (args: string[]) => terraformRun(join(TF_DIR, "root"), args, TF_ENV);

/** Terraform: write the configuration, plan to a file, and show it as JSON. */
async function terraformPlan(v: 1 | 2, extra: string[] = []): Promise<Record<string, unknown>> {
  await Deno.writeTextFile(join(TF_DIR, "root", "main.tf"), hcl(v));
  await terraform(["plan", "-input=false", "-no-color", "-out=tf.plan", ...extra]);
  return JSON.parse(await terraform(["show", "-json", "tf.plan"]));
}

let ROOT: PluginRoot;

/** pravo: write the configuration, plan to a file, and show it in Terraform's format. */
async function pravoPlan(v: 1 | 2, extra: string[] = []): Promise<Record<string, unknown>> {
  await Deno.writeTextFile(join(ROOT.root, "main.cue"), cue(v));
  const p = await ROOT.run(["plan", "--out", "pv.plan", ...extra]);
  assert.ok(p.code === 0 || p.code === 2, `pravo plan failed:\n${p.stdout}${p.stderr}`);
  // Through scripts/pravo, with the permissions it grants show.
  const out = await new Deno.Command(SCRIPT, {
    args: ["--no-color", "show", "--format", "terraform", "pv.plan"],
    cwd: ROOT.root,
    env: ROOT.env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, `pravo show failed:\n${text}${new TextDecoder().decode(out.stderr)}`);
  assert.ok(!text.includes(`s3cr3t-${PV_SUFFIX}`), "the SecureString's value is never written");
  assert.ok(!text.includes(`plain-${PV_SUFFIX}`), "nor the other parameters' sensitive values");
  return JSON.parse(text);
}

/** Both tools plan version `v`, at once. */
async function bothPlan(v: 1 | 2, tfExtra: string[] = [], pvExtra: string[] = []) {
  const [tf, pv] = await Promise.all([terraformPlan(v, tfExtra), pravoPlan(v, pvExtra)]);
  const docs = {
    tf: normalize(tf, TF_SUFFIX) as Record<string, unknown>,
    pv: normalize(pv, PV_SUFFIX) as Record<string, unknown>,
  };
  // To look at both documents: PRAVO_TEST_KEEP_PLANS=DIR.
  const keep = Deno.env.get("PRAVO_TEST_KEEP_PLANS");
  if (keep) {
    const name = `${v}${tfExtra.join("")}${pvExtra.join("")}`;
    await Deno.writeTextFile(join(keep, `tf${name}.json`), JSON.stringify(docs.tf, null, 2));
    await Deno.writeTextFile(join(keep, `pv${name}.json`), JSON.stringify(docs.pv, null, 2));
  }
  return docs;
}

async function bothApply() {
  const [, a] = await Promise.all([
    terraform(["apply", "-input=false", "-no-color", "tf.plan"]),
    ROOT.run(["apply", "pv.plan"]),
  ]);
  assert.equal(a.code, 0, `pravo apply failed:\n${a.stdout}${a.stderr}`);
}

function actions(doc: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (
    const rc of (doc.resource_changes ?? []) as { address: string; change: { actions: string[] } }[]
  ) {
    out[rc.address] = rc.change.actions.join(",");
  }
  return out;
}

Deno.test({
  name: "show --format terraform writes the fields terraform show -json writes for the same plans",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    await Deno.mkdir(join(TF_DIR, "root"));
    TF_ENV = await terraformEnv(TF_DIR);
    await Deno.writeTextFile(join(TF_DIR, "root", "main.tf"), hcl(1));
    ROOT = await awsRoot({ "main.cue": cue(1) });
    await terraform(["init", "-input=false", "-no-color"]);
    try {
      await t.step("a plan that creates everything, and reads a data source", async () => {
        const { tf, pv } = await bothPlan(1);
        await bothApply(); // first, so that the next steps have what they need
        assert.deepEqual(actions(pv), {
          "aws_dynamodb_table.t": "create",
          "aws_iam_role.r": "create",
          "aws_iam_role_policy.rp": "create",
          "aws_s3_bucket.b": "create",
          "aws_ssm_parameter.n[0]": "create",
          "aws_ssm_parameter.n[1]": "create",
          "aws_ssm_parameter.q": "create",
          "aws_ssm_parameter.secret": "create",
        });
        assertSameFields(tf, pv, "create");
      });
      await t.step(
        "a plan that updates, replaces (both orders), deletes and leaves alone",
        async () => {
          const { tf, pv } = await bothPlan(2, [], ["--refresh", "all"]);
          await bothApply();
          assert.deepEqual(actions(pv), {
            "aws_dynamodb_table.t": "delete",
            "aws_iam_role.r": "no-op",
            "aws_iam_role_policy.rp": "no-op",
            "aws_s3_bucket.b": "update",
            "aws_ssm_parameter.n[0]": "no-op",
            "aws_ssm_parameter.n[1]": "delete",
            "aws_ssm_parameter.q": "create,delete",
            "aws_ssm_parameter.secret": "delete,create",
          });
          assertSameFields(tf, pv, "update, replace, delete");
        },
      );
      await t.step("a plan with nothing to do, every pravo node skipped", async () => {
        const { tf, pv } = await bothPlan(2, ["-refresh=false"]);
        assert.ok(Object.values(actions(pv)).every((a) => a === "no-op"), "all no-op");
        assert.equal(pv.applyable, false);
        assertSameFields(tf, pv, "no-op");
      });
    } finally {
      await Promise.all([
        terraform(["destroy", "-auto-approve", "-input=false", "-no-color"]).catch(() => ""),
        ROOT.run(["destroy", "-auto-approve"]),
      ]);
      await Deno.remove(TF_DIR, { recursive: true }).catch(() => {});
    }
  },
});
