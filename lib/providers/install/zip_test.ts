import assert from "node:assert/strict";
import { join } from "node:path";
import { zipBytes } from "./_testing.ts";
import { extractZip, readZipEntries, ZipError, zipFilesOf } from "./zip.ts";

async function withZip(
  entries: Parameters<typeof zipBytes>[0],
  fn: (zip: string, dir: string) => Promise<void>,
  options: Parameters<typeof zipBytes>[1] = {},
) {
  const dir = await Deno.makeTempDir();
  const zip = join(dir, "p.zip");
  await Deno.writeFile(zip, zipBytes(entries, options));
  try {
    await fn(zip, dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("extractZip() writes files and folders with their Unix modes", async () => {
  await withZip([
    { name: "terraform-provider-x_v1.0.0", data: "#!/bin/sh\n", mode: 0o755 },
    { name: "docs/", directory: true },
    { name: "docs/a.txt", data: "a".repeat(100_000) },
  ], async (zip, dir) => {
    const out = join(dir, "out");
    await Deno.mkdir(out);
    const files = await extractZip(zip, out);
    assert.deepEqual(files.map((f) => f.name), ["terraform-provider-x_v1.0.0", "docs/a.txt"]);
    assert.equal((await Deno.stat(join(out, "terraform-provider-x_v1.0.0"))).mode! & 0o777, 0o755);
    assert.equal((await Deno.stat(join(out, "docs/a.txt"))).mode! & 0o777, 0o644);
    assert.equal(await Deno.readTextFile(join(out, "docs/a.txt")), "a".repeat(100_000));
  });
});

Deno.test("readZipEntries() refuses entries that would escape, links and duplicates", async () => {
  const refused = async (entries: Parameters<typeof zipBytes>[0], pattern: RegExp) => {
    await withZip(entries, (zip) => {
      assert.throws(() => readZipEntries(zip), (e: unknown) => {
        assert.ok(e instanceof ZipError);
        assert.match(e.message, pattern);
        return true;
      });
      return Promise.resolve();
    });
  };
  await refused([{ name: "../evil", data: "x" }], /"\.\.\/evil" would be written outside/);
  await refused([{ name: "/etc/passwd", data: "x" }], /outside/);
  await refused([{ name: "a/../../b", data: "x" }], /outside/);
  await refused([{ name: "a\\b", data: "x" }], /outside/);
  await refused([{ name: "link", data: "/etc/passwd", symlink: true }], /symbolic link/);
  await refused([{ name: "a", data: "1" }, { name: "a", data: "2" }], /appears twice/);
});

Deno.test("readZipEntries() refuses a file that is not a zip archive", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(join(dir, "x.zip"), "not a zip at all");
  assert.throws(() => readZipEntries(join(dir, "x.zip")), /not a zip archive/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("extractZip() refuses an entry that inflates to more than it declares", async () => {
  const bytes = zipBytes([{ name: "f", data: "x".repeat(1000) }]);
  // Shrink the declared size in the central directory (offset 24 of the record).
  const view = new DataView(bytes.buffer);
  for (let i = bytes.length - 22; i >= 0; i--) {
    if (view.getUint32(i, true) === 0x02014b50) {
      view.setUint32(i + 24, 10, true);
      break;
    }
  }
  const dir = await Deno.makeTempDir();
  await Deno.writeFile(join(dir, "p.zip"), bytes);
  await Deno.mkdir(join(dir, "out"));
  await assert.rejects(extractZip(join(dir, "p.zip"), join(dir, "out")), /not the 10 it declares/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("extractZip() makes the provider's executable executable in an archive without Unix modes", async () => {
  await withZip([
    { name: "terraform-provider-x_v1.0.0.exe", data: "MZ" },
    { name: "README.md", data: "x" },
  ], async (zip, dir) => {
    const out = join(dir, "out");
    await Deno.mkdir(out);
    await extractZip(zip, out);
    assert.equal(
      (await Deno.stat(join(out, "terraform-provider-x_v1.0.0.exe"))).mode! & 0o777,
      0o755,
    );
    assert.equal((await Deno.stat(join(out, "README.md"))).mode! & 0o777, 0o644);
  }, { dos: true });
});

Deno.test("zipFilesOf() inflates an archive in memory, and refuses an entry larger than it declares", async () => {
  const { zipOf } = await import("../../../tests/_registry.ts");
  const zip = zipOf({ "a/b.cue": "package b\n", "c.txt": "x".repeat(10_000) });
  const files = zipFilesOf(zip);
  assert.deepEqual([...files.keys()], ["a/b.cue", "c.txt"]);
  assert.equal(new TextDecoder().decode(files.get("a/b.cue")), "package b\n");
  assert.equal(files.get("c.txt")?.length, 10_000);
  // The central directory says c.txt holds 10 bytes: inflating stops there.
  const lying = zip.slice();
  const v = new DataView(lying.buffer);
  for (let p = 0; p + 4 <= lying.length; p++) {
    if (v.getUint32(p, true) === 0x02014b50 && v.getUint32(p + 24, true) === 10_000) {
      v.setUint32(p + 24, 10, true);
    }
  }
  assert.throws(() => zipFilesOf(lying), /c\.txt/);
  assert.throws(() => zipFilesOf(new TextEncoder().encode("not a zip")), ZipError);
});
