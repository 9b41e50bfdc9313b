import assert from "node:assert/strict";
import { join } from "node:path";
import { DiagnosticsError } from "../../diag/diag.ts";
import { AWS_PACKAGE, writeFakePackage, writeTree } from "./_testing.ts";
import { hashPackageDir } from "./hash.ts";
import { FileHashCache } from "./hash_cache.ts";
import { providerExecutable, verifyLockedProviders, verifyPinnedProvider } from "./executable.ts";
import { lockFileText } from "./lock.ts";

const ADDR = "registry.terraform.io/hashicorp/aws";
const LINUX = { os: "linux", arch: "amd64" };

/** A root beside a plugin cache that holds hashicorp/aws 5.100.0, and the lock of it. */
async function setup() {
  const base = await Deno.makeTempDir({ prefix: "pravo-exec-" });
  const root = join(base, "root");
  const cache = join(base, "cache");
  await Deno.mkdir(root);
  const dir = await writeFakePackage(cache, AWS_PACKAGE);
  const lock = { version: "5.100.0", constraints: "~> 5.100", hashes: [hashPackageDir(dir)] };
  const dispose = () => Deno.remove(base, { recursive: true });
  return { base, root, cache, dir, lock, [Symbol.asyncDispose]: dispose };
}

function refused(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof DiagnosticsError, String(e));
    assert.equal(e.kind, "error");
    assert.match(`${e.diagnostics[0].summary}\n${e.diagnostics[0].detail}`, pattern);
    return true;
  });
}

/** Waits until the files' ctimes are in an earlier second, so the hash cache may keep them. */
async function settle(): Promise<void> {
  const second = Math.floor(Date.now() / 1000);
  while (Math.floor(Date.now() / 1000) === second) await new Promise((r) => setTimeout(r, 50));
}

Deno.test("providerExecutable() returns the verified executable; the second time from the hash cache", async () => {
  await using s = await setup();
  await settle();
  const hashCache = new FileHashCache(join(s.base, "hashes.json"));
  const v = providerExecutable(s.root, ADDR, s.lock, {
    cacheDir: s.cache,
    hashCache,
    platform: LINUX,
  });
  assert.equal(v.executable, join(s.dir, "terraform-provider-aws_v5.100.0"));
  assert.equal(v.h1, s.lock.hashes[0]);
  const read = hashCache.hashed;
  assert.equal(read, 2, "both files were hashed once");
  const again = new FileHashCache(join(s.base, "hashes.json"));
  providerExecutable(s.root, ADDR, s.lock, {
    cacheDir: s.cache,
    hashCache: again,
    platform: LINUX,
  });
  assert.equal(again.hashed, 0, "a later run reads no file");
});

Deno.test("providerExecutable() refuses a package changed since the lock, even behind the hash cache", async () => {
  await using s = await setup();
  await settle();
  const hashCache = new FileHashCache(join(s.base, "hashes.json"));
  providerExecutable(s.root, ADDR, s.lock, { cacheDir: s.cache, hashCache, platform: LINUX });
  const exe = join(s.dir, "terraform-provider-aws_v5.100.0");
  const original = await Deno.readTextFile(exe);
  const mtime = (await Deno.stat(exe)).mtime!;
  await Deno.writeTextFile(exe, original.replace("exit 1", "exit 2")); // same size
  await Deno.utime(exe, mtime, mtime);
  refused(
    () =>
      providerExecutable(s.root, ADDR, s.lock, { cacheDir: s.cache, hashCache, platform: LINUX }),
    /installed package of hashicorp\/aws 5\.100\.0 does not match pravo\.lock\.json[\s\S]*run `pravo init`/,
  );
});

Deno.test("providerExecutable() refuses a lock it cannot check and a package it cannot find", async () => {
  await using s = await setup();
  const inst = { cacheDir: s.cache, platform: LINUX };
  refused(
    () => providerExecutable(s.root, ADDR, { ...s.lock, hashes: ["zh:" + "a".repeat(64)] }, inst),
    /has no h1: hash of hashicorp\/aws 5\.100\.0[\s\S]*Run `pravo init` here/,
  );
  refused(
    () => providerExecutable(s.root, ADDR, { ...s.lock, version: "5.101.0" }, inst),
    /hashicorp\/aws 5\.101\.0 is not installed[\s\S]*Run `pravo init`/,
  );
  refused(
    () =>
      providerExecutable(s.root, ADDR, s.lock, {
        ...inst,
        platform: { os: "darwin", arch: "arm64" },
      }),
    /is not installed/,
  );
});

Deno.test("providerExecutable() never returns an executable inside the root", async () => {
  await using s = await setup();
  // The cache itself in the root.
  const inRoot = join(s.root, "cache");
  const inRootPackage = await writeFakePackage(inRoot, AWS_PACKAGE);
  refused(
    () => providerExecutable(s.root, ADDR, s.lock, { cacheDir: inRoot, platform: LINUX }),
    /package of hashicorp\/aws 5\.100\.0 is inside the root/,
  );
  // A cache entry that links into the root, with the lock edited to match it.
  await Deno.remove(s.dir, { recursive: true });
  await Deno.symlink(inRootPackage, s.dir);
  refused(
    () => providerExecutable(s.root, ADDR, s.lock, { cacheDir: s.cache, platform: LINUX }),
    /is inside the root/,
  );
  // Only the executable links into the root.
  await Deno.remove(s.dir);
  await writeTree(s.dir, [{ name: "LICENSE", data: "x" }]);
  await Deno.symlink(
    join(inRootPackage, "terraform-provider-aws_v5.100.0"),
    join(s.dir, "terraform-provider-aws_v5.100.0"),
  );
  refused(
    () =>
      providerExecutable(s.root, ADDR, { ...s.lock, hashes: [hashPackageDir(s.dir)] }, {
        cacheDir: s.cache,
        platform: LINUX,
      }),
    /executable of hashicorp\/aws 5\.100\.0 is inside the root/,
  );
});

Deno.test("verifyLockedProviders() verifies every plugin provider of the lock", async () => {
  await using s = await setup();
  await Deno.writeTextFile(
    join(s.root, "pravo.lock.json"),
    lockFileText({
      builtins: { "hashicorp/random": { version: "0.1.0" } },
      plugins: { [ADDR]: s.lock },
    }),
  );
  const list = verifyLockedProviders(s.root, { cacheDir: s.cache, platform: LINUX });
  assert.deepEqual(list.map((v) => [v.address, v.version]), [[ADDR, "5.100.0"]]);
  await Deno.remove(join(s.root, "pravo.lock.json"));
  assert.deepEqual(verifyLockedProviders(s.root, { cacheDir: s.cache }), []);
});

Deno.test("providerExecutable() finds a mirror's unpacked package, after the cache", async () => {
  await using s = await setup();
  const mirror = join(s.base, "mirror");
  const inMirror = await writeFakePackage(mirror, {
    ...AWS_PACKAGE,
    address: "Registry.Terraform.io/HashiCorp/aws",
  });
  // The cache holds another build: the mirror's, which the lock pins, is used.
  await Deno.writeTextFile(join(s.dir, "LICENSE"), "changed");
  const v = providerExecutable(s.root, ADDR, s.lock, {
    cacheDir: s.cache,
    mirrors: [join(s.base, "empty"), mirror],
    platform: LINUX,
  });
  assert.equal(v.packageDir, inMirror);
  assert.equal(v.executable, join(inMirror, "terraform-provider-aws_v5.100.0"));
  // Neither matches: the first problem is told.
  await Deno.writeTextFile(join(inMirror, "LICENSE"), "changed too");
  refused(
    () =>
      providerExecutable(s.root, ADDR, s.lock, {
        cacheDir: s.cache,
        mirrors: [mirror],
        platform: LINUX,
      }),
    /does not match pravo\.lock\.json/,
  );
});

Deno.test("verifyPinnedProvider() checks the very directory it was pinned in", async () => {
  await using s = await setup();
  const v = providerExecutable(s.root, ADDR, s.lock, { cacheDir: s.cache, platform: LINUX });
  const pin = {
    address: ADDR,
    version: "5.100.0",
    packageDir: v.packageDir,
    hashes: s.lock.hashes,
  };
  assert.equal(verifyPinnedProvider(s.root, pin).executable, v.executable);
  // The package replaced by a link elsewhere: refused, not followed.
  const elsewhere = join(s.base, "elsewhere");
  await Deno.rename(s.dir, elsewhere);
  await Deno.symlink(elsewhere, s.dir);
  refused(() => verifyPinnedProvider(s.root, pin), /moved since it was pinned/);
  await Deno.remove(s.dir);
  refused(() => verifyPinnedProvider(s.root, pin), /is not where it was pinned/);
  await Deno.rename(elsewhere, s.dir);
  await Deno.writeTextFile(join(s.dir, "LICENSE"), "other");
  refused(() => verifyPinnedProvider(s.root, pin), /does not match pravo\.lock\.json/);
});
