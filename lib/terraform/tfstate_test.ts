import assert from "node:assert/strict";
import type { Diagnostic } from "../diag/diag.ts";
import { instanceAddress, parseTfState, type TfState } from "./tfstate.ts";

/** A state of format 4 with every field this reader takes, as Terraform 1.11.4 writes them. */
const FULL = `{
  "version": 4,
  "terraform_version": "1.11.4",
  "serial": 11,
  "lineage": "434c2d69-ff09-7890-4562-b087a3369d9b",
  "outputs": {
    "zone": {"value": "a", "type": "string"},
    "arn": {"value": "x", "type": "string", "sensitive": true}
  },
  "resources": [
    {
      "mode": "data",
      "type": "aws_iam_policy_document",
      "name": "d",
      "provider": "provider[\\"registry.terraform.io/hashicorp/aws\\"]",
      "instances": [{"schema_version": 0, "attributes": {"id": "1"}, "sensitive_attributes": []}]
    },
    {
      "mode": "managed",
      "type": "aws_s3_bucket",
      "name": "c",
      "provider": "provider[\\"registry.terraform.io/hashicorp/aws\\"].west",
      "instances": [
        {
          "index_key": 0,
          "schema_version": 0,
          "attributes": {"bucket": "c-0", "tags": null},
          "sensitive_attributes": [],
          "private": "eyJhIjoxfQ==",
          "create_before_destroy": true
        },
        {
          "index_key": 1,
          "status": "tainted",
          "schema_version": 0,
          "attributes": {"bucket": "c-1"},
          "sensitive_attributes": []
        }
      ]
    },
    {
      "module": "module.m[\\"a\\"]",
      "mode": "managed",
      "type": "aws_ssm_parameter",
      "name": "p",
      "provider": "provider[\\"registry.opentofu.org/hashicorp/aws\\"]",
      "instances": [
        {
          "index_key": "k",
          "schema_version": 2,
          "attributes": {"value": "s3cret", "tags": {"note": "s3cret"}, "list": ["x"]},
          "sensitive_attributes": [
            [{"type": "get_attr", "value": "value"}],
            [{"type": "get_attr", "value": "tags"}, {"type": "index", "value": {"value": "note", "type": "string"}}],
            [{"type": "get_attr", "value": "list"}, {"type": "index", "value": {"value": 0, "type": "number"}}]
          ],
          "dependencies": ["module.m[\\"a\\"].aws_s3_bucket.inner"]
        },
        {
          "index_key": "k",
          "deposed": "00000001",
          "schema_version": 2,
          "attributes": {"value": "old"}
        }
      ]
    },
    {
      "mode": "managed",
      "type": "null_resource",
      "name": "old",
      "provider": "provider[\\"registry.terraform.io/hashicorp/null\\"]",
      "instances": [{"schema_version": 0, "attributes_flat": {"id": "123", "triggers.%": "0"}}]
    }
  ],
  "check_results": null
}
`;

function read(text: string): TfState {
  const r = parseTfState(text, "terraform.tfstate");
  if (!("state" in r)) throw new Error(r.diagnostics.map((d) => d.summary).join("; "));
  return r.state;
}

function refused(text: string): Diagnostic[] {
  const r = parseTfState(text, "terraform.tfstate");
  assert.ok("diagnostics" in r, "refused");
  return r.diagnostics;
}

/** A state of format 4 with one managed resource, its first instance's fields replaced. */
function withInstance(fields: Record<string, unknown>): string {
  return JSON.stringify(
    {
      version: 4,
      terraform_version: "1.11.4",
      serial: 1,
      lineage: "l",
      outputs: {},
      resources: [{
        mode: "managed",
        type: "aws_s3_bucket",
        name: "b",
        provider: 'provider["registry.terraform.io/hashicorp/aws"]',
        instances: [{ schema_version: 0, attributes: { bucket: "b" }, ...fields }],
      }],
    },
    null,
    2,
  );
}

Deno.test("parseTfState() reads the state's version, lineage, serial and output names", () => {
  const s = read(FULL);
  assert.equal(s.file, "terraform.tfstate");
  assert.equal(s.terraformVersion, "1.11.4");
  assert.equal(s.serial, 11);
  assert.equal(s.lineage, "434c2d69-ff09-7890-4562-b087a3369d9b");
  assert.deepEqual(s.outputs, {
    zone: { value: "a", sensitive: false },
    arn: { value: "x", sensitive: true },
  });
  assert.equal(s.resources.length, 4);
});

Deno.test("parseTfState() reads each resource's module, mode, type, name and provider with its alias", () => {
  const [d, c, p] = read(FULL).resources;
  assert.equal(d.mode, "data");
  assert.equal(d.instances[0].address, "data.aws_iam_policy_document.d");
  assert.equal(c.mode, "managed");
  assert.equal(c.provider.address, "registry.terraform.io/hashicorp/aws");
  assert.equal(c.provider.alias, "west");
  assert.equal(p.module, 'module.m["a"]');
  assert.equal(p.provider.hostname, "registry.opentofu.org");
  assert.equal(p.provider.alias, undefined);
  assert.deepEqual(c.at, { file: "terraform.tfstate", line: 18, column: 5 });
});

Deno.test("parseTfState() reads each instance: index key, schema version, attributes, private, create_before_destroy, status", () => {
  const [, c, p] = read(FULL).resources;
  const [c0, c1] = c.instances;
  assert.equal(c0.address, "aws_s3_bucket.c[0]");
  assert.equal(c0.indexKey, 0);
  assert.deepEqual(c0.attributes, { bucket: "c-0", tags: null });
  assert.equal(c0.private, "eyJhIjoxfQ==");
  assert.equal(c0.createBeforeDestroy, true);
  assert.equal(c0.tainted, false);
  assert.equal(c1.tainted, true);
  assert.equal(c1.createBeforeDestroy, false);
  const [p0, deposed] = p.instances;
  assert.equal(p0.address, 'module.m["a"].aws_ssm_parameter.p["k"]');
  assert.equal(p0.schemaVersion, 2);
  assert.deepEqual(p0.dependencies, ['module.m["a"].aws_s3_bucket.inner']);
  assert.equal(p0.deposed, undefined);
  assert.equal(deposed.deposed, "00000001");
  assert.deepEqual(p0.at, { file: "terraform.tfstate", line: 48, column: 9 });
});

Deno.test("parseTfState() reads sensitive_attributes as Terraform 1.11 writes them: get_attr and index steps", () => {
  const p0 = read(FULL).resources[2].instances[0];
  assert.deepEqual(p0.sensitivePaths, [["value"], ["tags", "note"], ["list", 0]]);
});

Deno.test("parseTfState() keeps Terraform 0.11's attributes_flat apart, for the caller to refuse", () => {
  const old = read(FULL).resources[3].instances[0];
  assert.equal(old.attributes, undefined);
  assert.deepEqual(old.attributesFlat, { id: "123", "triggers.%": "0" });
});

Deno.test("parseTfState() refuses what is not JSON, with the line and column", () => {
  const [d] = refused('{\n  "version": 4,\n  oops\n}');
  assert.equal(d.summary, "terraform.tfstate is not a Terraform state file");
  assert.match(d.detail, /It is not JSON: .*terraform state pull/);
  assert.deepEqual(d.range, { file: "terraform.tfstate", line: 3, column: 3 });
});

Deno.test("parseTfState() refuses terraform show -json's output and says to pull the state", () => {
  const [d] = refused('{"format_version": "1.0", "terraform_version": "1.11.4", "values": {}}');
  assert.equal(d.summary, "terraform.tfstate is Terraform's JSON output, not its state");
  assert.match(d.detail, /terraform state pull > terraform.tfstate`\.$/);
});

Deno.test("parseTfState() refuses an encrypted OpenTofu state and says how to write it in the clear", () => {
  const [d] = refused(
    '{"serial": 1, "lineage": "l", "meta": {}, "encrypted_data": "abc", "encryption_version": "v0"}',
  );
  assert.equal(d.summary, "terraform.tfstate is an encrypted OpenTofu state");
  assert.match(d.detail, /tofu state pull > plain\.tfstate/);
});

Deno.test("parseTfState() refuses JSON without a version, and formats other than 4 with what to do", () => {
  assert.equal(refused('{"a": 1}')[0].summary, "terraform.tfstate is not a Terraform state file");
  const [old] = refused('{"version": 3, "serial": 1, "modules": []}');
  assert.equal(old.summary, "terraform.tfstate is a state of format 3, and pravo reads format 4");
  assert.match(old.detail, /Terraform 0.11 and older.*terraform apply -refresh-only/);
  assert.deepEqual(old.range, { file: "terraform.tfstate", line: 1, column: 13 });
  const [newer] = refused('{"version": 5}');
  assert.equal(
    newer.summary,
    "terraform.tfstate is a state of format 5, newer than pravo reads (4)",
  );
  assert.equal(
    refused('{"version": "4"}')[0].summary,
    'The state\'s "version" is not a whole number',
  );
  assert.equal(refused("[4]")[0].summary, "The state is not an object");
});

Deno.test("parseTfState() names every wrong field at once, each where it is", () => {
  const ds = refused(JSON.stringify(
    {
      version: 4,
      terraform_version: 1,
      serial: -1,
      lineage: "l",
      resources: [{ mode: "other", type: "t", name: "n", provider: "p", instances: [] }],
      outputs: { a: { type: "string" }, b: { value: 1, sensitive: "no" } },
    },
    null,
    2,
  ));
  assert.deepEqual(ds.map((d) => d.summary), [
    '"terraform_version" is not a string',
    '"serial" is not a whole number',
    "The output a has no value",
    "The output b's sensitive is not true or false",
    'resources[0].mode is "other"',
    '"p" is not a provider configuration\'s address',
  ]);
  assert.deepEqual(ds.map((d) => d.range?.line), [3, 4, 16, 21, 8, 11]);
  for (const d of ds) assert.match(d.detail, /\.$/);
});

Deno.test("parseTfState() refuses an instance's fields of the wrong kind", () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ index_key: -1 }, "The index_key of an instance of aws_s3_bucket.b is not a whole number"],
    [{ schema_version: "0" }, "aws_s3_bucket.b's schema_version is not a whole number"],
    [{ attributes: [] }, "aws_s3_bucket.b's attributes is not an object"],
    [{ attributes: undefined }, "aws_s3_bucket.b has no attributes"],
    [{ private: "not base64!" }, "aws_s3_bucket.b's private is not base64"],
    [{ dependencies: [1] }, "aws_s3_bucket.b's dependencies are not a list of addresses"],
    [
      { create_before_destroy: "yes" },
      "aws_s3_bucket.b's create_before_destroy is not true or false",
    ],
    [{ status: "ready" }, 'aws_s3_bucket.b\'s status is "ready"'],
    [{ sensitive_attributes: {} }, "aws_s3_bucket.b's sensitive_attributes is not a list"],
    [
      { sensitive_attributes: [[{ type: "index", value: { value: 0, type: "number" } }]] },
      "aws_s3_bucket.b's sensitive_attributes holds a path pravo cannot read",
    ],
    [
      { sensitive_attributes: [["value"]] },
      "aws_s3_bucket.b's sensitive_attributes holds a path pravo cannot read",
    ],
  ];
  for (const [fields, summary] of cases) {
    const ds = refused(withInstance(fields));
    assert.equal(ds[0].summary, summary, JSON.stringify(fields));
    assert.ok(ds[0].range && ds[0].range.line > 1, summary);
  }
});

Deno.test("parseTfState() refuses providers named as Terraform 0.12 did, and legacy ones, saying how to rewrite them", () => {
  const state = (provider: string) =>
    JSON.stringify({
      version: 4,
      terraform_version: "0.12.31",
      serial: 1,
      lineage: "l",
      resources: [{ mode: "managed", type: "aws_s3_bucket", name: "b", provider, instances: [] }],
    });
  const [legacy] = refused(state("provider.aws"));
  assert.equal(legacy.summary, 'The provider "provider.aws" is written as Terraform 0.12 wrote it');
  assert.match(legacy.detail, /Terraform 0\.13 or later/);
  const [dash] = refused(state('provider["registry.terraform.io/-/aws"]'));
  assert.match(
    dash.detail,
    /terraform state replace-provider registry.terraform.io\/-\/aws registry.terraform.io\/hashicorp\/aws/,
  );
});

Deno.test("parseTfState() reads a state with no resources", () => {
  const s = read('{"version": 4, "terraform_version": "1.8.5", "serial": 0, "lineage": "x"}');
  assert.deepEqual(s.resources, []);
  assert.deepEqual(s.outputs, {});
});

Deno.test("instanceAddress() writes Terraform's instance addresses: index, key, data, module", () => {
  const r = { mode: "managed" as const, type: "aws_instance", name: "web" };
  assert.equal(instanceAddress(r, undefined), "aws_instance.web");
  assert.equal(instanceAddress(r, 0), "aws_instance.web[0]");
  assert.equal(instanceAddress(r, "0"), 'aws_instance.web["0"]');
  assert.equal(instanceAddress({ ...r, mode: "data" }, 'a"b'), 'data.aws_instance.web["a\\"b"]');
  assert.equal(
    instanceAddress({ ...r, module: "module.vpc[1].module.x" }, "k"),
    'module.vpc[1].module.x.aws_instance.web["k"]',
  );
});
