import { strict as assert } from "node:assert";
import { join } from "node:path";
import type { Diagnostic } from "../../diag/diag.ts";
import { readModule } from "./module_files.ts";

/** A workspace whose lock pins no module, not pinned. */
const NO_LOCK = { lock: undefined, pinned: undefined };

Deno.test("readModule() reads module.cue and the packages the files import, those they import too", async () => {
  const root = await Deno.makeTempDir({ prefix: "pravo-module-files-" });
  try {
    const write = async (name: string, src: string) => {
      await Deno.mkdir(join(root, name, ".."), { recursive: true });
      await Deno.writeTextFile(join(root, name), src);
    };
    await write("cue.mod/module.cue", 'module: "example.com/infra"\n');
    await write("lib/a/a.cue", 'package a\n\nimport "example.com/infra/lib/b"\n\nx: b.y\n');
    await write("lib/b/b.cue", "package b\n\ny: 1\n");
    await write("lib/c/c.cue", "package c\n");
    const diags: Diagnostic[] = [];
    const readText = (name: string) => Deno.readTextFileSync(join(root, name));
    const main = { name: "main.cue", src: 'package demo\n\nimport "example.com/infra/lib/a"\n' };
    const files = readModule(root, { rootFiles: [main], readText, diags, workspace: NO_LOCK });
    assert.deepEqual(diags, []);
    assert.deepEqual(files.map((f) => f.name), [
      "cue.mod/module.cue",
      "lib/a/a.cue",
      "lib/b/b.cue",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("readModule() reads nothing in a root that is no module", async () => {
  const root = await Deno.makeTempDir({ prefix: "pravo-module-files-" });
  try {
    const diags: Diagnostic[] = [];
    assert.deepEqual(
      readModule(root, {
        rootFiles: [],
        readText: () => undefined,
        diags,
        workspace: NO_LOCK,
      }),
      [],
    );
    assert.deepEqual(diags, []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
