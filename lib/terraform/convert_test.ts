import assert from "node:assert/strict";
import { join } from "node:path";
import { type Conversion, convertTerraform } from "./convert.ts";
import { constraintOf } from "./convert_decls.ts";
import { evaluate } from "../cue/engine.ts";

/** Converts `files` (path → text) written into a fresh directory. */
async function convert(files: Record<string, string>): Promise<Conversion & { dir: string }> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "pravo-convert-unit-" }));
  for (const [name, text] of Object.entries(files)) {
    await Deno.mkdir(join(dir, name, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir, name), text);
  }
  const conv = await convertTerraform({ dir, modulePath: "terraform.local/t", packageName: "t" });
  return { ...conv, dir };
}

function file(c: Conversion, path: string): string {
  const f = c.files.find((x) => x.path === path);
  assert.ok(f, `${path} is written (${c.files.map((x) => x.path).join(", ")})`);
  return f.text;
}

function errors(c: Conversion): string[] {
  return c.diagnostics.filter((d) => d.severity === "error").map((d) =>
    `${d.range?.file}:${d.range?.line}:${d.range?.column} ${d.summary}`
  );
}

Deno.test("convertTerraform() keys count instances, and writes count = c ? 1 : 0 as an if", async () => {
  const c = await convert({
    "main.tf": 'resource "random_pet" "a" {\n  count = 3\n}\n\n' +
      'resource "random_pet" "b" {\n  count  = var.on ? 1 : 0\n  prefix = "b${count.index}"\n}\n\n' +
      'variable "on" {\n  type    = bool\n  default = true\n}\n',
  });
  assert.deepEqual(errors(c), []);
  const text = file(c, "main.cue");
  assert.match(
    text,
    /random_pet: a: \{for count_index in list\.Range\(0, 3, 1\) \{"\\\(count_index\)": /,
  );
  assert.match(
    text,
    /random_pet: b: \{if var\.on \{"0": \$random\.#Resource\.random_pet & \{\n\tprefix: "b\\\(0\)"/,
  );
  assert.match(text, /on: \*true \| bool @tag\(on,type=bool\)/);
});

Deno.test("convertTerraform() writes provider aliases and the resources that use them", async () => {
  const c = await convert({
    "main.tf": 'provider "random" {}\n\nprovider "random" {\n  alias = "b"\n}\n\n' +
      'resource "random_pet" "p" {\n  provider = random.b\n}\n',
  });
  assert.deepEqual(errors(c), []);
  const text = file(c, "main.cue");
  assert.match(text, /\$random_b: random\.#Provider & \{\}/);
  assert.match(text, /random_pet: p: \$random_b\.#Resource\.random_pet & \{\}/);
});

Deno.test("convertTerraform() writes dynamic blocks, lifecycle and depends_on", async () => {
  const c = await convert({
    "main.tf":
      'resource "aws_security_group" "g" {\n  dynamic "ingress" {\n    for_each = var.ports\n' +
      "    iterator = port\n    content {\n      from_port = port.value\n      to_port   = port.value\n    }\n  }\n" +
      "  lifecycle {\n    prevent_destroy = true\n    ignore_changes  = [tags, ingress]\n  }\n" +
      "  depends_on = [aws_vpc.v]\n}\n\n" +
      'resource "aws_vpc" "v" {}\n\nvariable "ports" {\n  type = list(number)\n}\n',
  });
  assert.deepEqual(errors(c), []);
  const text = file(c, "main.cue");
  assert.match(
    text,
    /ingress: \[for port_key, port_value in var\.ports \{\{\n\t\tfrom_port: port_value/,
  );
  assert.match(text, /lifecycle: \{prevent_destroy: true, ignore_changes: \["tags", "ingress"\]\}/);
  assert.match(text, /depends_on: \[aws_vpc\.v\]/);
  assert.deepEqual(c.providers, { "hashicorp/aws": "" });
});

Deno.test("convertTerraform() makes a local module a package with a definition, its providers inputs", async () => {
  const c = await convert({
    "main.tf": 'provider "aws" {\n  alias  = "west"\n  region = "us-west-2"\n}\n\n' +
      'module "net" {\n  source    = "./modules/net"\n  providers = { aws = aws.west }\n  cidr      = "10.0.0.0/16"\n}\n\n' +
      'output "vpc" {\n  value = module.net.vpc_id\n}\n',
    "modules/net/main.tf": 'variable "cidr" {\n  type = string\n}\n\n' +
      'resource "aws_vpc" "this" {\n  cidr_block = var.cidr\n}\n\n' +
      'output "vpc_id" {\n  value       = aws_vpc.this.id\n  description = "The VPC"\n}\n',
  });
  assert.deepEqual(errors(c), []);
  assert.equal(file(c, "cue.mod/module.cue"), 'module: "terraform.local/t"\n');
  const root = file(c, "main.cue");
  assert.match(root, /netpkg "terraform\.local\/t\/modules\/net"/);
  assert.match(
    root,
    /module: net: netpkg\.#Net & \{\n\t#aws: \$aws_west\n\t#var: \{\n\t\tcidr: "10\.0\.0\.0\/16"/,
  );
  assert.match(root, /outputs: vpc: module\.net\.vpc_id/);
  const mod = file(c, "modules/net/main.cue");
  assert.match(mod, /^package net$/m);
  assert.match(mod, /#Net: \{\n\t#aws: aws\.#Provider\n\t#var: cidr: string/);
  assert.match(mod, /aws_vpc: this: #aws\.#Resource\.aws_vpc & \{\n\t\tcidr_block: #var\.cidr/);
  assert.match(mod, /\/\/ The VPC\n\tvpc_id: aws_vpc\.this\.id/);
});

Deno.test("convertTerraform() carries .terraform.lock.hcl's versions, constraints and hashes, not built-in providers'", async () => {
  const c = await convert({
    "main.tf":
      'terraform {\n  required_providers {\n    aws = {\n      source  = "hashicorp/aws"\n' +
      '      version = "~> 5.100"\n    }\n    random = {\n      source = "hashicorp/random"\n    }\n  }\n}\n\n' +
      'resource "aws_s3_bucket" "b" {}\n\nresource "random_pet" "p" {}\n',
    ".terraform.lock.hcl":
      '# generated\nprovider "registry.terraform.io/hashicorp/aws" {\n  version     = "5.100.0"\n' +
      '  constraints = "~> 5.100"\n  hashes = [\n    "h1:b",\n    "h1:a",\n  ]\n}\n\n' +
      'provider "registry.terraform.io/hashicorp/random" {\n  version = "3.6.0"\n  hashes = ["h1:x"]\n}\n',
  });
  assert.deepEqual(errors(c), []);
  assert.deepEqual(c.providers, { "hashicorp/aws": "~> 5.100" });
  assert.deepEqual(c.lock, {
    "registry.terraform.io/hashicorp/aws": {
      version: "5.100.0",
      constraints: "~> 5.100",
      hashes: ["h1:a", "h1:b"],
    },
  });
  assert.ok(c.diagnostics.some((d) => d.summary.includes("built into pravo")));
});

Deno.test("convertTerraform() writes moved blocks with pravo's addresses, and lists import blocks", async () => {
  const c = await convert({
    "main.tf": 'resource "random_pet" "b" {\n  for_each = toset(["x"])\n}\n\n' +
      'moved {\n  from = random_pet.a\n  to   = random_pet.b["x"]\n}\n\n' +
      'import {\n  to = random_pet.b["x"]\n  id = "cat"\n}\n',
  });
  assert.deepEqual(errors(c), []);
  assert.match(
    file(c, "main.cue"),
    /moved: \[\n\t\{from: "random_pet\.a", to: "random_pet\.b\.x"\},\n\]/,
  );
  assert.equal(c.imports[0].command, "pravo import random_pet.b.x cat");
});

Deno.test("convertTerraform() refuses what it cannot convert, at its file, line and column", async () => {
  const c = await convert({
    "main.tf":
      'resource "random_pet" "a" {\n  provisioner "local-exec" {\n    command = "x"\n  }\n}\n\n' +
      'module "m" {\n  source     = "./m"\n  depends_on = [random_pet.a]\n}\n\n' +
      'module "r" {\n  source = "hashicorp/consul/aws"\n}\n\n' +
      'resource "random_pet" "b" {\n  lifecycle {\n    ignore_changes = all\n  }\n}\n',
    "m/main.tf":
      'moved {\n  from = random_pet.x\n  to   = random_pet.y\n}\n\nprovider "random" {}\n',
    "extra.tf.json": "{}",
  });
  assert.deepEqual(errors(c).sort(), [
    "extra.tf.json:1:1 A .tf.json file is not converted",
    "m/main.tf:1:1 A moved block in the module m is not converted",
    "m/main.tf:6:1 A provider block in the module m is not converted",
    'main.tf:13:3 The module "r" is not a local module',
    "main.tf:18:22 ignore_changes = all is not converted",
    'main.tf:2:3 The provisioner "local-exec" is not converted',
    'main.tf:9:3 depends_on of the module call "m" is not converted',
  ]);
  assert.deepEqual(c.files, []);
});

Deno.test("convertTerraform() warns of what it leaves out: sensitive, validation, backend", async () => {
  const c = await convert({
    "main.tf": 'terraform {\n  backend "s3" {}\n}\n\n' +
      'variable "pw" {\n  type      = string\n  sensitive = true\n  validation {\n' +
      '    condition     = length(var.pw) > 8\n    error_message = "Too short."\n  }\n}\n\n' +
      'output "pw" {\n  value     = var.pw\n  sensitive = true\n}\n',
  });
  assert.deepEqual(errors(c), []);
  assert.deepEqual(
    c.diagnostics.map((d) => `${d.range?.line} ${d.summary}`),
    [
      "2 terraform backend is not converted",
      "7 var.pw is sensitive in Terraform",
      "8 A validation of var.pw is not converted",
      '16 output "pw" is sensitive in Terraform',
    ],
  );
});

Deno.test("constraintOf() writes the validations CUE can say as constraints", () => {
  assert.equal(constraintOf('contains(["dev", "prod"], var.env)', "env"), '("dev" | "prod")');
  assert.equal(constraintOf('can(regex("^[a-z]+$", var.env))', "env"), '=~"^[a-z]+$"');
  assert.equal(constraintOf("var.n >= 1 && var.n < 10", "n"), ">=1 & <10");
  assert.equal(constraintOf("length(var.n) > 1", "n"), undefined);
  assert.equal(constraintOf("contains(local.envs, var.env)", "env"), undefined);
});

Deno.test("convertTerraform() puts a validation on the variable, and the default still holds", async () => {
  const c = await convert({
    "main.tf": 'variable "env" {\n  type    = string\n  default = "dev"\n  validation {\n' +
      '    condition     = contains(["dev", "prod"], var.env)\n    error_message = "Which env?"\n  }\n}\n',
  });
  assert.deepEqual(errors(c), []);
  assert.match(file(c, "main.cue"), /env: \(\*"dev" \| string\) & \("dev" \| "prod"\) @tag\(env\)/);
  const r = await evaluate(file(c, "main.cue").replace(/^package t$/m, ""));
  assert.ok(r.ok, r.ok ? "" : r.message);
  assert.deepEqual(JSON.parse(r.json).var, { env: "dev" });
});
