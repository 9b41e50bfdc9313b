import { strict as assert } from "node:assert";
import { join } from "node:path";
import { cueFilesIn, notUtf8, readSource } from "./files.ts";

Deno.test("cueFilesIn() lists the .cue files of a directory, sorted, without folders", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pravo-files-" });
  try {
    await Deno.writeTextFile(join(dir, "b.cue"), "");
    await Deno.writeTextFile(join(dir, "a.cue"), "");
    await Deno.writeTextFile(join(dir, "notes.txt"), "");
    await Deno.mkdir(join(dir, "c.cue"));
    assert.deepEqual(cueFilesIn(dir), ["a.cue", "b.cue"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readSource() reads a file of the root and refuses a link that leads out of it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pravo-files-" });
  try {
    await Deno.writeTextFile(join(dir, "main.cue"), "package x\n");
    await Deno.symlink("/etc/hostname", join(dir, "out.cue"));
    assert.equal(
      new TextDecoder().decode(readSource(dir, "main.cue") as Uint8Array),
      "package x\n",
    );
    const refused = readSource(dir, "out.cue");
    assert.ok(!(refused instanceof Uint8Array));
    assert.match(refused.summary, /^Cannot read out\.cue: /);
    assert.deepEqual(refused.range, { file: "out.cue", line: 1, column: 1 });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("notUtf8() says which byte is not UTF-8, where", () => {
  const d = notUtf8("main.cue", { offset: 20, byte: "0xFF", line: 3, column: 7 });
  assert.equal(d.summary, "File is not UTF-8");
  assert.match(d.detail, /main\.cue holds the byte 0xFF at line 3, column 7/);
  assert.deepEqual(d.range, { file: "main.cue", line: 3, column: 7 });
});
