import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { DiagnosticsError } from "../../diag/diag.ts";
import {
  AWS_PACKAGE,
  fakeProviderFiles,
  type FakeRegistryFaults,
  type FakeVersion,
  serveRegistry,
  writeFakePackage,
  zipBytes,
} from "./_testing.ts";
import { parseProviderSource } from "./address.ts";
import { h1OfFiles, hashPackageDir } from "./hash.ts";
import { FileHashCache } from "./hash_cache.ts";
import { registryOverrides } from "./http.ts";
import {
  type InstallOptions,
  installProviders,
  type InstallResult,
  type LockedPlugin,
  type Requirement,
} from "./installer.ts";
import { RegistrySource } from "./registry_source.ts";
import { parseConstraints } from "./version.ts";
import { hashZipEntries } from "./zip.ts";

const LINUX = { os: "linux", arch: "amd64" };

function req(source: string, constraint = ""): Requirement {
  return {
    address: parseProviderSource(source),
    source,
    constraints: parseConstraints(constraint),
  };
}

interface World extends AsyncDisposable {
  base: string;
  root: string;
  cache: string;
  hashCache: FileHashCache;
  install(o: Partial<InstallOptions> & { requirements: Requirement[] }): Promise<InstallResult>;
}

async function world(registryOverride?: string): Promise<World> {
  const base = await Deno.makeTempDir({ prefix: "pravo-install-" });
  const root = join(base, "root");
  const cache = join(base, "cache");
  await Deno.mkdir(root);
  const hashCache = new FileHashCache(join(base, "hashes.json"));
  return {
    base,
    root,
    cache,
    hashCache,
    install: (o) =>
      installProviders({
        root,
        locked: {},
        mirrors: [],
        cacheDir: cache,
        hashCache,
        platform: LINUX,
        registry: registryOverride === undefined
          ? undefined
          : new RegistrySource(registryOverrides(registryOverride)),
        ...o,
      }),
    [Symbol.asyncDispose]: () => Deno.remove(base, { recursive: true }),
  };
}

async function refused(p: Promise<unknown>, pattern: RegExp): Promise<DiagnosticsError> {
  let caught: unknown;
  try {
    await p;
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof DiagnosticsError, `expected a refusal, got ${caught}`);
  const text = caught.diagnostics.map((d) => `${d.summary}\n${d.detail}`).join("\n");
  assert.match(text, pattern);
  return caught;
}

const AWS: FakeVersion[] = [
  { namespace: "hashicorp", type: "aws", version: "5.99.0", platforms: ["linux_amd64"] },
  {
    namespace: "hashicorp",
    type: "aws",
    version: "5.100.0",
    platforms: ["darwin_arm64", "linux_amd64", "windows_amd64"],
  },
  { namespace: "hashicorp", type: "aws", version: "6.0.0-beta1" },
];

async function withRegistry(
  versions: FakeVersion[],
  fn: (w: World, reg: ReturnType<typeof serveRegistry>) => Promise<void>,
  faults: FakeRegistryFaults = {},
  host = "registry.terraform.io",
) {
  await using reg = serveRegistry(versions, faults);
  await using w = await world(reg.override(host));
  await fn(w, reg);
}

Deno.test("installProviders() installs from a registry: verified, extracted, pinned with h1: and every zh:", async () => {
  await withRegistry(AWS, async (w, reg) => {
    const { providers, warnings } = await w.install({
      requirements: [req("hashicorp/aws", "~> 5.0")],
    });
    assert.deepEqual(warnings, []);
    const [p] = providers;
    assert.equal(p.address, "registry.terraform.io/hashicorp/aws");
    assert.equal(p.lock.version, "5.100.0", "the newest acceptable; no pre-release");
    assert.equal(p.lock.constraints, "~> 5.0");
    assert.equal(p.action, "installed");
    assert.equal(p.kind, "registry");
    assert.equal(p.signedBy, reg.key.keyId);
    const dir = join(w.cache, "registry.terraform.io/hashicorp/aws/5.100.0/linux_amd64");
    assert.equal(p.packageDir, dir);
    assert.equal(p.executable, join(await Deno.realPath(dir), "terraform-provider-aws_v5.100.0"));
    const h1 = hashPackageDir(dir);
    assert.equal(
      h1,
      h1OfFiles(await hashZipEntries(await zipFile(w, reg.zip(AWS[1], "linux_amd64")))),
    );
    const zh = ["darwin_arm64", "linux_amd64", "windows_amd64"].map((pl) =>
      "zh:" + sha256hex(reg.zip(AWS[1], pl))
    );
    assert.deepEqual(p.lock.hashes, [h1, ...zh].sort());
    assert.deepEqual(
      [...Deno.readDirSync(join(w.cache, ".pravo-tmp"))],
      [],
      "no temporary file is left behind",
    );
  });
});

Deno.test("installProviders() keeps a locked version and needs no network when the cache matches", async () => {
  await withRegistry(AWS, async (w, reg) => {
    const first = await w.install({ requirements: [req("hashicorp/aws", ">= 5.0")] });
    const locked = { [first.providers[0].address]: first.providers[0].lock };
    await reg.close();
    const again = await w.install({ requirements: [req("hashicorp/aws", ">= 5.0")], locked });
    assert.equal(again.providers[0].action, "used");
    assert.equal(again.providers[0].matchedLock, true);
    assert.deepEqual(again.providers[0].lock, first.providers[0].lock);
  });
});

Deno.test("installProviders() keeps the locked version until -upgrade", async () => {
  await withRegistry(AWS, async (w) => {
    const old: LockedPlugin = { version: "5.99.0", constraints: "", hashes: [] };
    const locked = { "registry.terraform.io/hashicorp/aws": old };
    const kept = await w.install({ requirements: [req("hashicorp/aws", "~> 5.0")], locked });
    assert.equal(kept.providers[0].lock.version, "5.99.0");
    const up = await w.install({
      requirements: [req("hashicorp/aws", "~> 5.0")],
      locked: { "registry.terraform.io/hashicorp/aws": kept.providers[0].lock },
      upgrade: true,
    });
    assert.equal(up.providers[0].lock.version, "5.100.0");
    await refused(
      w.install({ requirements: [req("hashicorp/aws", "~> 5.100")], locked }),
      /pins hashicorp\/aws 5\.99\.0, but pravo\.jsonc asks for "~> 5\.100"[\s\S]*pravo init -upgrade/,
    );
  });
});

Deno.test("installProviders() selects a pre-release only when = names it", async () => {
  await withRegistry(AWS, async (w) => {
    const r = await w.install({ requirements: [req("hashicorp/aws", "6.0.0-beta1")] });
    assert.equal(r.providers[0].lock.version, "6.0.0-beta1");
    await refused(
      w.install({ requirements: [req("hashicorp/aws", ">= 6.0.0-beta1")] }),
      /No version of hashicorp\/aws matches ">= 6\.0\.0-beta1"[\s\S]*Available from registry\.terraform\.io: 5\.100\.0, 5\.99\.0\./,
    );
  });
});

Deno.test("installProviders() says what to do: no such provider, no version, no platform, no network", async () => {
  await withRegistry(AWS, async (w, reg) => {
    await refused(
      w.install({ requirements: [req("hashicorp/awz")] }),
      /There is no provider registry\.terraform\.io\/hashicorp\/awz[\s\S]*source address/,
    );
    await refused(
      w.install({ requirements: [req("hashicorp/aws", "~> 4.0")] }),
      /No version of hashicorp\/aws matches "~> 4\.0"[\s\S]*Available from registry\.terraform\.io: 5\.100\.0, 5\.99\.0\. Change the constraint of "hashicorp\/aws"/,
    );
    const mac = await refused(
      w.install({
        requirements: [req("hashicorp/aws", "5.99.0")],
        platform: { os: "darwin", arch: "arm64" },
      }),
      /5\.99\.0 is not available for darwin_arm64[\s\S]*built for linux_amd64 \(at registry\.terraform\.io\)/,
    );
    assert.equal(mac.kind, "error");
    await reg.close();
    await refused(
      w.install({ requirements: [req("hashicorp/aws")] }),
      /Cannot reach registry\.terraform\.io[\s\S]*"provider_mirrors"/,
    );
  });
});

Deno.test("installProviders() refuses a tampered package, a wrong checksum, a foreign signature", async () => {
  const cases: [FakeRegistryFaults, RegExp][] = [
    [{ tamperZip: true }, /Checksum mismatch for hashicorp\/aws 5\.100\.0[\s\S]*was not installed/],
    [{ wrongShasum: true }, /Checksum mismatch[\s\S]*its signed SHA256SUMS says/],
    [
      { foreignSignature: true },
      /Bad signature on the checksums of hashicorp\/aws 5\.100\.0[\s\S]*a key the registry did not name/,
    ],
    [{ noKeys: true }, /the registry named no signing key/],
  ];
  for (const [faults, pattern] of cases) {
    await withRegistry(AWS, async (w) => {
      await refused(w.install({ requirements: [req("hashicorp/aws", "5.100.0")] }), pattern);
      await assert.rejects(
        Deno.stat(join(w.cache, "registry.terraform.io")),
        Deno.errors.NotFound,
        `${JSON.stringify(faults)}: nothing was installed`,
      );
    }, faults);
  }
});

Deno.test("installProviders() accepts a keyless package of registry.opentofu.org, with a warning", async () => {
  const tofu: FakeVersion[] = [{ namespace: "acme", type: "thing", version: "1.0.0" }];
  await withRegistry(
    tofu,
    async (w) => {
      const r = await w.install({ requirements: [req("registry.opentofu.org/acme/thing")] });
      assert.equal(r.providers[0].signedBy, undefined);
      assert.match(r.warnings[0].summary, /signature not checked/);
    },
    { noKeys: true },
    "registry.opentofu.org",
  );
});

Deno.test("installProviders() refuses a provider that speaks only protocol 4", async () => {
  const old: FakeVersion[] = [
    { namespace: "acme", type: "legacy", version: "1.0.0", protocols: ["5.0"] },
    { namespace: "acme", type: "legacy", version: "2.0.0", protocols: ["4.0"] },
  ];
  await withRegistry(old, async (w) => {
    await refused(
      w.install({ requirements: [req("acme/legacy")] }),
      /2\.0\.0 speaks plugin protocol 4\.0, which pravo does not[\s\S]*The newest version that does is 1\.0\.0/,
    );
  });
});

async function zipFile(w: World, bytes: Uint8Array): Promise<string> {
  const path = join(w.base, `${crypto.randomUUID()}.zip`);
  await Deno.writeFile(path, bytes);
  return path;
}

function sha256hex(b: Uint8Array): string {
  return createHash("sha256").update(b).digest("hex");
}

Deno.test("installProviders() uses an unpacked mirror where it is, and extracts a packed one into the cache", async () => {
  await using w = await world();
  const mirror = join(w.base, "mirror");
  const unpacked = await writeFakePackage(mirror, AWS_PACKAGE);
  const files = fakeProviderFiles("thing", "0.3.0");
  await writeFakePackage(mirror, {
    address: "example.com/Acme/Thing",
    version: "0.3.0",
    packed: true,
    files,
  });
  const r = await w.install({
    requirements: [req("hashicorp/aws", "~> 5.100"), req("example.com/acme/thing")],
    mirrors: [{ path: mirror }],
  });
  const [aws, thing] = r.providers;
  assert.equal(aws.kind, "mirror");
  assert.equal(aws.origin, `the mirror "${mirror}"`);
  assert.equal(aws.action, "used");
  assert.equal(aws.packageDir, unpacked, "an unpacked package is used where it is");
  assert.equal(aws.executable, join(unpacked, "terraform-provider-aws_v5.100.0"));
  assert.deepEqual(aws.lock.hashes, [hashPackageDir(unpacked)], "an unpacked package: h1: only");
  assert.equal(thing.action, "installed");
  assert.equal(thing.lock.version, "0.3.0");
  assert.deepEqual(thing.lock.hashes, [
    h1OfFiles(await hashZipEntries(await zipFile(w, zipBytes(files)))),
  ]);
  assert.ok(
    (await Deno.lstat(join(w.cache, "example.com/acme/thing/0.3.0/linux_amd64"))).isDirectory,
    "a packed package is extracted into the cache",
  );
});

Deno.test("installProviders() refuses a package that does not match the lock", async () => {
  await using w = await world();
  const mirror = join(w.base, "mirror");
  await writeFakePackage(mirror, AWS_PACKAGE);
  const locked = {
    "registry.terraform.io/hashicorp/aws": {
      version: "5.100.0",
      constraints: "",
      hashes: ["h1:" + "A".repeat(43) + "="],
    },
  };
  await refused(
    w.install({ requirements: [req("hashicorp/aws")], mirrors: [{ path: mirror }], locked }),
    /The package of hashicorp\/aws 5\.100\.0 does not match pravo\.lock\.json[\s\S]*remove the entry of "registry\.terraform\.io\/hashicorp\/aws"/,
  );
});

Deno.test("installProviders() refuses a mirror or a cache inside the root", async () => {
  await using w = await world();
  const inside = join(w.root, "mirror");
  const insidePackage = await writeFakePackage(inside, AWS_PACKAGE);
  await refused(
    w.install({ requirements: [req("hashicorp/aws")], mirrors: [{ path: inside }] }),
    /The provider mirror ".*\/root\/mirror" is inside the root[\s\S]*never runs one from inside the root/,
  );
  // A mirror outside the root whose package is a link into the root.
  const outside = join(w.base, "mirror");
  await Deno.mkdir(join(outside, "registry.terraform.io/hashicorp/aws/5.100.0"), {
    recursive: true,
  });
  await Deno.symlink(
    insidePackage,
    join(outside, "registry.terraform.io/hashicorp/aws/5.100.0/linux_amd64"),
  );
  await refused(
    w.install({ requirements: [req("hashicorp/aws")], mirrors: [{ path: outside }] }),
    /The package ".*" is inside the root/,
  );
  await refused(
    w.install({ requirements: [req("hashicorp/aws")], cacheDir: join(w.root, ".cache") }),
    /The plugin cache ".*\/root\/\.cache" is inside the root/,
  );
});

Deno.test("installProviders() falls back on the cache, with a warning, when the registry cannot be reached", async () => {
  const reg = serveRegistry(AWS);
  await using w = await world(reg.override());
  await w.install({ requirements: [req("hashicorp/aws", "5.99.0")] });
  await reg.close();
  const r = await w.install({ requirements: [req("hashicorp/aws", "~> 5.0")] });
  assert.equal(r.providers[0].lock.version, "5.99.0");
  assert.equal(r.providers[0].kind, "cache");
  const text = r.warnings.map((d) => d.summary).join("\n");
  assert.match(
    text,
    /Cannot reach registry\.terraform\.io.*the versions come from the plugin cache/,
  );
  assert.match(text, /taken from the plugin cache, unverified/);
});
