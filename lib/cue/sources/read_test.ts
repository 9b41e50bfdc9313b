import { BUILTIN_ONLY } from "../../workspace/workspace_testing.ts";
import { strict as assert } from "node:assert";
import { join } from "node:path";
import { readRoot } from "./read.ts";

Deno.test("readRoot() reads the root's files, and refuses one that is not UTF-8 where it stops being so", async () => {
  const root = await Deno.makeTempDir({ prefix: "pravo-read-" });
  try {
    await Deno.writeTextFile(join(root, "main.cue"), "package demo\n\nx: 1\n");
    const ok = readRoot(root, BUILTIN_ONLY);
    assert.ok(ok.ok);
    assert.deepEqual(ok.value.given, [{ name: "main.cue", src: "package demo\n\nx: 1\n" }]);
    await Deno.writeFile(join(root, "bad.cue"), new Uint8Array([0x70, 0x0a, 0x61, 0xff]));
    const bad = readRoot(root, BUILTIN_ONLY);
    assert.ok(!bad.ok);
    assert.deepEqual(bad.diagnostics.map((d) => [d.summary, d.range]), [
      ["File is not UTF-8", { file: "bad.cue", line: 2, column: 2 }],
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
