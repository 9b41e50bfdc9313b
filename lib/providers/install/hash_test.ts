import assert from "node:assert/strict";
import { join } from "node:path";
import { writeTree, zipBytes } from "./_testing.ts";
import { h1OfFiles, hashPackageDir, hashScheme, sha256File } from "./hash.ts";
import { FileHashCache } from "./hash_cache.ts";
import { hashZipEntries } from "./zip.ts";

// A package that Terraform 1.11.4 installed from a packed filesystem mirror
// (a zip with a directory entry "sub/"); its .terraform.lock.hcl recorded
// this h1: hash, over the files alone.
const FILES = [
  { name: "terraform-provider-fake_v1.2.0", data: "#!/bin/sh\necho hi\n", mode: 0o755 },
  { name: "sub/", directory: true },
  { name: "sub/README", data: "doc\n" },
];
const TERRAFORM_H1 = "h1:TXAJIfVI73g6iiXZvit/EnsfPU7l4TiXuH2pRIh+x2c=";

Deno.test("hashPackageDir() gives Terraform's h1: for an unpacked package", async () => {
  const dir = await Deno.makeTempDir();
  await writeTree(dir, FILES);
  assert.equal(hashPackageDir(dir), TERRAFORM_H1);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("hashZipEntries() gives the same h1: for the zip, directory entries aside", async () => {
  const dir = await Deno.makeTempDir();
  for (const [i, options] of [{}, { store: true }, { zip64: true }].entries()) {
    const zip = join(dir, `p${i}.zip`);
    await Deno.writeFile(zip, zipBytes(FILES, options));
    assert.equal(h1OfFiles(await hashZipEntries(zip)), TERRAFORM_H1, JSON.stringify(options));
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("h1OfFiles() sorts names by their bytes, as Go does", () => {
  const a = h1OfFiles([{ name: "b", sha256: "1" }, { name: "B", sha256: "2" }, {
    name: "é",
    sha256: "3",
  }, { name: "z", sha256: "4" }]);
  const b = h1OfFiles([{ name: "é", sha256: "3" }, { name: "z", sha256: "4" }, {
    name: "B",
    sha256: "2",
  }, { name: "b", sha256: "1" }]);
  assert.equal(a, b);
  assert.throws(() => h1OfFiles([{ name: "a\nb", sha256: "0" }]), /newline/);
});

Deno.test("hashScheme() knows well-formed h1: and zh: hashes only", () => {
  assert.equal(hashScheme(TERRAFORM_H1), "h1");
  assert.equal(hashScheme("zh:" + "a".repeat(64)), "zh");
  assert.equal(hashScheme("zh:" + "A".repeat(64)), undefined);
  assert.equal(hashScheme("h1:short="), undefined);
  assert.equal(hashScheme("h2:" + "a".repeat(64)), undefined);
});

/** Waits until the file's ctime lies in an earlier second than now (at most a second). */
async function settle(path: string): Promise<void> {
  const ctime = (await Deno.stat(path)).ctime!.getTime();
  while (Math.floor(Date.now() / 1000) <= Math.floor(ctime / 1000)) {
    await new Promise((r) => setTimeout(r, 50));
  }
}

Deno.test("FileHashCache reads a file once, and again when it changes", async () => {
  const dir = await Deno.makeTempDir();
  const file = join(dir, "bin");
  await Deno.writeTextFile(file, "one");
  const cachePath = join(dir, "cache", "file-hashes.json");
  const cache = new FileHashCache(cachePath);
  await settle(file);
  const first = cache.sha256(file);
  assert.equal(first, sha256File(file));
  assert.equal(cache.sha256(file), first);
  assert.equal(cache.hashed, 1, "the second call used the cache");
  cache.save();
  assert.equal((await Deno.stat(cachePath)).mode! & 0o777, 0o600);

  const reloaded = new FileHashCache(cachePath);
  assert.equal(reloaded.sha256(file), first);
  assert.equal(reloaded.hashed, 0, "a new process reads the saved cache");

  // Same size, same inode, and the modification time put back: the ctime
  // still moves to this second, later than the one recorded.
  const mtime = (await Deno.stat(file)).mtime!;
  await Deno.writeTextFile(file, "two");
  await Deno.utime(file, mtime, mtime);
  assert.notEqual(reloaded.sha256(file), first);
  assert.equal(reloaded.hashed, 1);

  // A file replaced by another (new inode) is hashed again.
  await Deno.writeTextFile(join(dir, "other"), "one");
  await Deno.rename(join(dir, "other"), file);
  assert.equal(reloaded.sha256(file), first);
  assert.equal(reloaded.hashed, 2);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("FileHashCache does not remember a file changed in this very second", async () => {
  const dir = await Deno.makeTempDir();
  const file = join(dir, "bin");
  await Deno.writeTextFile(file, "one");
  const cache = new FileHashCache(join(dir, "c.json"));
  const ctime = (await Deno.stat(file)).ctime!.getTime();
  let calls = 0;
  // Deno gives the ctime in whole seconds: while the file's second is the
  // current one, a same-size rewrite would look unchanged, so nothing is kept.
  while (Math.floor(Date.now() / 1000) === Math.floor(ctime / 1000) && calls < 3) {
    cache.sha256(file);
    calls++;
  }
  assert.equal(cache.hashed, calls);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("FileHashCache survives a damaged cache file", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(join(dir, "f"), "x");
  await Deno.writeTextFile(join(dir, "c.json"), "{not json");
  await settle(join(dir, "f"));
  const cache = new FileHashCache(join(dir, "c.json"));
  assert.equal(cache.sha256(join(dir, "f")), sha256File(join(dir, "f")));
  cache.save();
  assert.equal(JSON.parse(await Deno.readTextFile(join(dir, "c.json"))).format_version, "2");
  await Deno.remove(dir, { recursive: true });
});
