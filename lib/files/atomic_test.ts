import { strict as assert } from "node:assert";
import { join } from "node:path";
import { writeFileAtomic } from "./atomic.ts";

Deno.test("writeFileAtomic() replaces a file whole, text or bytes, and leaves no temporary file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pravo-atomic-" });
  try {
    const path = join(dir, "f.json");
    await writeFileAtomic(path, "old");
    await writeFileAtomic(path, new TextEncoder().encode("new"));
    assert.equal(await Deno.readTextFile(path), "new");
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["f.json"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeFileAtomic() that fails leaves the old file and no temporary one", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pravo-atomic-" });
  try {
    const path = join(dir, "f.json");
    await Deno.writeTextFile(path, "old");
    // The rename fails: a folder stands where the temporary file is renamed to.
    const blocked = join(dir, "d");
    await Deno.mkdir(join(blocked, "x"), { recursive: true });
    await assert.rejects(writeFileAtomic(blocked, "new"));
    assert.equal(await Deno.readTextFile(path), "old");
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), ["d", "f.json"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
