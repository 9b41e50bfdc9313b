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

Deno.test("terraformAddress() reads a path not made by convert as modules, then the name", () => {
  assert.equal(
    terraformAddress(["net", "web", "cert"], "tls_cert", "managed"),
    "module.net.module.web.tls_cert.cert",
  );
  assert.equal(terraformAddress(["base"], "random_integer", "managed"), "random_integer.base");
  assert.equal(
    terraformAddress(["docs", "cfg"], "local_file", "data"),
    "module.docs.data.local_file.cfg",
  );
});

Deno.test("terraformAddress() makes a label that is not a Terraform name the key of the label before it", () => {
  assert.equal(
    terraformAddress(["servers", "0"], "aws_instance", "managed"),
    "aws_instance.servers[0]",
  );
  assert.equal(
    terraformAddress(["sites", "my site", "cert"], "tls_self_signed_cert", "managed"),
    'module.sites["my site"].tls_self_signed_cert.cert',
  );
  assert.equal(
    terraformAddress(["my site", "x"], "local_file", "data"),
    "module._my_site.data.local_file.x",
    "a first label that is not a name becomes one",
  );
  assert.equal(
    terraformAddressOf('module."my mod".aws_s3_bucket.b', "aws_s3_bucket", "managed"),
    'module.module["my mod"].module.aws_s3_bucket.aws_s3_bucket.b',
    "convert's shape with a call that is not a name is read as written by hand",
  );
});

Deno.test("terraformAddress() takes a name that equals the type for the name", () => {
  assert.equal(
    terraformAddress(["aws_s3_bucket", "aws_s3_bucket"], "aws_s3_bucket", "managed"),
    "aws_s3_bucket.aws_s3_bucket",
  );
  assert.equal(
    terraformAddress(["aws_s3_bucket", "aws_s3_bucket", "x"], "aws_s3_bucket", "managed"),
    'aws_s3_bucket.aws_s3_bucket["x"]',
  );
});

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
