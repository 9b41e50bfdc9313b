import assert from "node:assert/strict";
import { join } from "node:path";
import { writeNewFile } from "./new_file.ts";

Deno.test("writeNewFile() writes the whole text with the mode asked for", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "f");
  const text = "é".repeat(100_000);
  writeNewFile(path, text, 0o600);
  assert.equal(await Deno.readTextFile(path), text);
  assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
});

Deno.test("writeNewFile() refuses a path where anything is, a link included", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(join(dir, "there"), "kept");
  await Deno.symlink(join(dir, "away"), join(dir, "link"));
  assert.throws(() => writeNewFile(join(dir, "there"), "x", 0o600), /EEXIST|exists/);
  assert.throws(() => writeNewFile(join(dir, "link"), "x", 0o600), /EEXIST|exists/);
  assert.equal(await Deno.readTextFile(join(dir, "there")), "kept");
  await assert.rejects(Deno.stat(join(dir, "away")));
});
