import assert from "node:assert/strict";
import { join } from "node:path";
import { AWS_PACKAGE, fakeProviderFiles, writeFakePackage, zipBytes } from "./_testing.ts";

Deno.test("writeFakePackage() writes an unpacked package at ADDRESS/VERSION/PLATFORM and a packed one as Terraform names its zip", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pravo-fake-package-" });
  try {
    const unpacked = await writeFakePackage(dir, AWS_PACKAGE);
    assert.equal(unpacked, join(dir, "registry.terraform.io/hashicorp/aws/5.100.0/linux_amd64"));
    const exe = await Deno.stat(join(unpacked, "terraform-provider-aws_v5.100.0"));
    assert.equal(exe.mode! & 0o777, 0o755);
    assert.deepEqual([...Deno.readDirSync(unpacked)].map((e) => e.name).sort(), [
      "LICENSE",
      "terraform-provider-aws_v5.100.0",
    ]);
    const packed = await writeFakePackage(dir, {
      address: "example.com/Acme/Thing",
      version: "0.3.0",
      platform: "darwin_arm64",
      packed: true,
    });
    assert.equal(
      packed,
      join(dir, "example.com/Acme/Thing/terraform-provider-Thing_0.3.0_darwin_arm64.zip"),
    );
    assert.deepEqual(await Deno.readFile(packed), zipBytes(fakeProviderFiles("Thing", "0.3.0")));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
