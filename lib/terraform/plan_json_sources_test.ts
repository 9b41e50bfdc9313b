import assert from "node:assert/strict";
import { SourceSites } from "./plan_json_sources.ts";
import { tfIdentity } from "./plan_json_resources.ts";

const MAIN = String.raw`package t

var: region: *"eu" | string @tag(region)
local: names: ["p", "q"]
let prefix = var.region
_hidden: "h"
plain: "x"

aws_s3_bucket: logs: $aws.#Resource.aws_s3_bucket & {bucket: "logs"}
aws_instance: web: {for i in list.Range(0, 2, 1) {"\(i)": $aws.#Resource.aws_instance & {ami: "a"}}}
module: vpc: vpcpkg.#Vpc & {#var: cidr: "10.0.0.0/16"}
module: sub: {for k, v in local.names {(v): subpkg.#Sub & {}}}

refs: $aws.#Resource.aws_instance & {
	a: var.region
	b: aws_s3_bucket.logs.arn
	c: aws_instance.web."1".id
	d: module.vpc.vpc_id
	e: module.sub.p.out.x
	f: "\(prefix)-\(_hidden)-\(plain)"
	g: local.names
	h: aws_s3_bucket.logs
}
each: $aws.#Resource.aws_instance & {for k, v in local.names {(v): {tag: k, val: v, idx: k}}}
counted: {for i in list.Range(0, 2, 1) {"\(i)": $aws.#Resource.aws_instance & {ami: "ami-\(i)"}}}
named: {for k, v in {a: 1} {(k): $aws.#Resource.aws_instance & {ami: "\(k)-\(v)"}}}
`;

function sites() {
  const nodes = new Map([
    ["aws_s3_bucket.logs", tfIdentity("aws_s3_bucket.logs", "aws_s3_bucket", "managed")],
    ['aws_instance.web."0"', tfIdentity('aws_instance.web."0"', "aws_instance", "managed")],
    ['aws_instance.web."1"', tfIdentity('aws_instance.web."1"', "aws_instance", "managed")],
    ["module.vpc.aws_vpc.this", tfIdentity("module.vpc.aws_vpc.this", "aws_vpc", "managed")],
    ["module.sub.p.aws_x.y", tfIdentity("module.sub.p.aws_x.y", "aws_x", "managed")],
    ["refs", tfIdentity("refs", "aws_instance", "managed")],
    ['counted."0"', tfIdentity('counted."0"', "aws_instance", "managed")],
    ["named.a", tfIdentity("named.a", "aws_instance", "managed")],
  ]);
  const s = SourceSites.read([{ name: "main.cue", src: MAIN }], nodes);
  assert.ok(s, "the sources parse");
  return s;
}

function refsOf(s: SourceSites, labels: string[], attr: string): string[] {
  const decls = s.attributes(labels).get(attr) ?? [];
  return s.references(s.within(decls)).flatMap((r) => r.strings);
}

Deno.test("SourceSites reads references as Terraform writes them: the longest first, then what holds them", () => {
  const s = sites();
  assert.deepEqual(refsOf(s, ["refs"], "a"), ["var.region"]);
  assert.deepEqual(refsOf(s, ["refs"], "b"), ["aws_s3_bucket.logs.arn", "aws_s3_bucket.logs"]);
  assert.deepEqual(refsOf(s, ["refs"], "c"), [
    "aws_instance.web[1].id",
    "aws_instance.web[1]",
    "aws_instance.web",
  ]);
  assert.deepEqual(refsOf(s, ["refs"], "d"), ["module.vpc.vpc_id", "module.vpc"]);
  assert.deepEqual(refsOf(s, ["refs"], "e"), [
    'module.sub["p"].out.x',
    'module.sub["p"].out',
    "module.sub",
  ]);
  // A let, a hidden field and a plain field are locals to Terraform.
  assert.deepEqual(refsOf(s, ["refs"], "f"), ["local.prefix", "local._hidden", "local.plain"]);
  assert.deepEqual(refsOf(s, ["refs"], "g"), ["local.names"]);
  assert.deepEqual(refsOf(s, ["refs"], "h"), ["aws_s3_bucket.logs"]);
});

Deno.test("SourceSites reads a comprehension's variables as count.index, each.key and each.value", () => {
  const s = sites();
  assert.deepEqual(refsOf(s, ["counted", "0"], "ami"), ["count.index"]);
  assert.deepEqual(refsOf(s, ["named", "a"], "ami"), ["each.key", "each.value"]);
  assert.equal(s.providerOf(["counted", "0"]), "$aws");
  assert.equal(s.generatorOf(["counted", "0"])?.clauseRefs[0].name, "list");
});

Deno.test("SourceSites finds no attributes for a node its sources do not write", () => {
  assert.equal(sites().attributes(["nowhere"]).size, 0);
  assert.equal(
    SourceSites.read([{ name: "main.cue", src: "package t\na: {" }], new Map()),
    undefined,
  );
});
