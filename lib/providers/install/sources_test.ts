import assert from "node:assert/strict";
import { join } from "node:path";
import { fakeProviderFiles, serveRegistry, writeTree, zipBytes } from "./_testing.ts";
import { parseProviderSource } from "./address.ts";
import { FilesystemMirrorSource } from "./filesystem_mirror_source.ts";
import { registryOverrides } from "./http.ts";
import { MemoizeSource } from "./memoize_source.ts";
import { MultiSource } from "./multi_source.ts";
import { RegistrySource } from "./registry_source.ts";
import { InstallError } from "./source.ts";
import { parseVersion, versionString } from "./version.ts";

const AWS = parseProviderSource("hashicorp/aws");
const LINUX = { os: "linux", arch: "amd64" };

Deno.test("FilesystemMirrorSource reads packed and unpacked packages, names in any case, and skips the rest", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const base = join(dir, "Registry.Terraform.io/HashiCorp/AWS");
    await writeTree(join(base, "5.100.0/linux_amd64"), fakeProviderFiles("aws", "5.100.0"));
    await writeTree(join(base, "5.100.0/darwin_arm64"), fakeProviderFiles("aws", "5.100.0"));
    await Deno.writeFile(join(base, "terraform-provider-aws_5.99.0_linux_amd64.zip"), zipBytes([]));
    await writeTree(join(base, "not-a-version/linux_amd64"), []);
    await Deno.writeTextFile(join(base, "README"), "junk");
    await writeTree(join(base, "5.98.0/no-platform"), []);
    const source = new FilesystemMirrorSource(dir);
    const list = await source.availableVersions(AWS);
    assert.deepEqual(
      list.versions.map((
        v,
      ) => [versionString(v.version), v.platforms!.map((p) => `${p.os}_${p.arch}`).sort()])
        .sort(),
      [["5.100.0", ["darwin_arm64", "linux_amd64"]], ["5.99.0", ["linux_amd64"]]],
    );
    assert.equal(list.origin, `the mirror "${dir}"`);
    const packed = await source.packageMeta(AWS, parseVersion("5.99.0")!, LINUX);
    assert.equal(packed.location.kind, "local_archive");
    const unpacked = await source.packageMeta(AWS, parseVersion("5.100.0")!, LINUX);
    assert.deepEqual(unpacked.location, {
      kind: "local_dir",
      path: join(base, "5.100.0/linux_amd64"),
    });
    await assert.rejects(
      source.packageMeta(AWS, parseVersion("5.99.0")!, { os: "windows", arch: "amd64" }),
      (e: unknown) => e instanceof InstallError && e.kind === "platform",
    );
    assert.deepEqual((await source.availableVersions(parseProviderSource("acme/x"))).versions, []);
    await assert.rejects(
      new FilesystemMirrorSource(join(dir, "missing")).availableVersions(AWS),
      /Cannot read the mirror[\s\S]*provider_mirrors/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("MemoizeSource asks the registry once per question", async () => {
  const reg = serveRegistry([{ namespace: "hashicorp", type: "aws", version: "5.100.0" }]);
  try {
    const source = new MemoizeSource(new RegistrySource(registryOverrides(reg.override())));
    await source.availableVersions(AWS);
    await source.availableVersions(AWS);
    await source.packageMeta(AWS, parseVersion("5.100.0")!, LINUX);
    await source.packageMeta(AWS, parseVersion("5.100.0")!, LINUX);
    assert.deepEqual(reg.requests, [
      "/.well-known/terraform.json",
      "/v1/providers/hashicorp/aws/versions",
      "/v1/providers/hashicorp/aws/5.100.0/download/linux/amd64",
      "/files/hashicorp/aws/5.100.0/SHA256SUMS",
      "/files/hashicorp/aws/5.100.0/SHA256SUMS.sig",
    ]);
  } finally {
    await reg.close();
  }
});

Deno.test("MultiSource: the first source that knows the provider answers; an unreachable one is passed over", async () => {
  const dir = await Deno.makeTempDir();
  const reg = serveRegistry([{ namespace: "hashicorp", type: "aws", version: "5.101.0" }]);
  try {
    await writeTree(
      join(dir, "registry.terraform.io/hashicorp/aws/5.100.0/linux_amd64"),
      fakeProviderFiles("aws", "5.100.0"),
    );
    const mirror = new FilesystemMirrorSource(dir);
    const registry = new RegistrySource(registryOverrides(reg.override()));
    const multi = new MultiSource([mirror, registry]);
    const fromMirror = await multi.availableVersions(AWS);
    assert.deepEqual(fromMirror.versions.map((v) => versionString(v.version)), ["5.100.0"]);
    assert.equal(reg.requests.length, 0, "a mirror that holds the provider answers alone");
    const other = parseProviderSource("hashicorp/aws");
    const fromRegistry = await new MultiSource([
      new FilesystemMirrorSource(join(dir, "empty")),
      registry,
    ])
      .availableVersions(other)
      .catch((e) => e);
    assert.ok(fromRegistry instanceof InstallError, "a missing mirror directory is an error");
    await reg.close();
    const offline = new MultiSource([registry, mirror]);
    const list = await offline.availableVersions(AWS);
    assert.deepEqual(list.versions.map((v) => versionString(v.version)), ["5.100.0"]);
    assert.match(
      list.warnings[0],
      /Cannot reach registry\.terraform\.io.*the versions come from the mirror/,
    );
  } finally {
    await reg.close();
    await Deno.remove(dir, { recursive: true });
  }
});
