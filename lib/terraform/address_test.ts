import assert from "node:assert/strict";
import {
  keyText,
  parseTerraformAddress,
  pravoAddress,
  pravoPath,
  terraformAddress,
  TerraformAddressError,
  terraformAddressOf,
} from "./address.ts";

const BOTH: [string, string, string, "managed" | "data"][] = [
  ["aws_s3_bucket.logs", "aws_s3_bucket.logs", "aws_s3_bucket", "managed"],
  [
    "data.aws_iam_policy_document.p",
    "data.aws_iam_policy_document.p",
    "aws_iam_policy_document",
    "data",
  ],
  ['aws_instance.web."0"', "aws_instance.web[0]", "aws_instance", "managed"],
  ["aws_instance.web.a", 'aws_instance.web["a"]', "aws_instance", "managed"],
  ['aws_instance.web."a b"', 'aws_instance.web["a b"]', "aws_instance", "managed"],
  ["module.vpc.aws_subnet.this", "module.vpc.aws_subnet.this", "aws_subnet", "managed"],
  ["module.vpc.a.aws_subnet.this", 'module.vpc["a"].aws_subnet.this', "aws_subnet", "managed"],
  [
    'module.a."1".module.b.data.aws_caller_identity.me."2"',
    "module.a[1].module.b.data.aws_caller_identity.me[2]",
    "aws_caller_identity",
    "data",
  ],
];

for (const [pravo, tf, type, mode] of BOTH) {
  Deno.test(`terraformAddressOf() and pravoAddress() map ${tf} and ${pravo} to each other`, () => {
    assert.equal(terraformAddressOf(pravo, type, mode), tf);
    assert.equal(pravoAddress(tf), pravo);
  });
}

/** Paths that are not in convert's shape, and a name equal to the type: [the rule, labels, type, mode, Terraform's address]. */
const OTHER_PATHS: [string, string[], string, "managed" | "data", string][] = [
  [
    "reads a path not made by convert as modules, then the name",
    ["net", "web", "cert"],
    "tls_cert",
    "managed",
    "module.net.module.web.tls_cert.cert",
  ],
  [
    "reads a path not made by convert as modules, then the name",
    ["base"],
    "random_integer",
    "managed",
    "random_integer.base",
  ],
  [
    "reads a path not made by convert as modules, then the name",
    ["docs", "cfg"],
    "local_file",
    "data",
    "module.docs.data.local_file.cfg",
  ],
  [
    "makes a label that is not a Terraform name the key of the label before it",
    ["servers", "0"],
    "aws_instance",
    "managed",
    "aws_instance.servers[0]",
  ],
  [
    "makes a label that is not a Terraform name the key of the label before it",
    ["sites", "my site", "cert"],
    "tls_self_signed_cert",
    "managed",
    'module.sites["my site"].tls_self_signed_cert.cert',
  ],
  [
    "makes a first label that is not a name one",
    ["my site", "x"],
    "local_file",
    "data",
    "module._my_site.data.local_file.x",
  ],
  [
    "reads convert's shape with a call that is not a name as written by hand",
    ["module", "my mod", "aws_s3_bucket", "b"],
    "aws_s3_bucket",
    "managed",
    'module.module["my mod"].module.aws_s3_bucket.aws_s3_bucket.b',
  ],
  [
    "takes a name that equals the type for the name",
    ["aws_s3_bucket", "aws_s3_bucket"],
    "aws_s3_bucket",
    "managed",
    "aws_s3_bucket.aws_s3_bucket",
  ],
  [
    "takes a name that equals the type for the name",
    ["aws_s3_bucket", "aws_s3_bucket", "x"],
    "aws_s3_bucket",
    "managed",
    'aws_s3_bucket.aws_s3_bucket["x"]',
  ],
];

for (const [rule, labels, type, mode, tf] of OTHER_PATHS) {
  Deno.test(`terraformAddress() ${rule}: ${JSON.stringify(labels)} is ${tf}`, () => {
    assert.equal(terraformAddress(labels, type, mode), tf);
  });
}

Deno.test("keyText() writes whole numbers as indexes and anything else as string keys", () => {
  assert.equal(keyText("0"), "[0]");
  assert.equal(keyText("12"), "[12]");
  assert.equal(keyText("012"), '["012"]');
  assert.equal(keyText("-1"), '["-1"]');
  assert.equal(keyText('a"b'), '["a\\"b"]');
});

Deno.test("parseTerraformAddress() reads module and resource addresses, with or without keys", () => {
  assert.deepEqual(parseTerraformAddress("module.vpc"), [{ module: "vpc" }]);
  assert.deepEqual(parseTerraformAddress('module.vpc["x"].aws_subnet.a'), [
    { module: "vpc", key: "x" },
    { mode: "managed", type: "aws_subnet", name: "a" },
  ]);
  assert.deepEqual(pravoPath("aws_instance.web"), ["aws_instance", "web"]);
});

Deno.test("parseTerraformAddress() refuses what is not an address", () => {
  assert.throws(() => parseTerraformAddress("aws_instance"), TerraformAddressError);
  assert.throws(() => parseTerraformAddress("aws_instance.web.id"), TerraformAddressError);
  assert.throws(() => parseTerraformAddress("aws_instance.web[x]"), TerraformAddressError);
});
