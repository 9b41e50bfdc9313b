import { strict as assert } from "node:assert";
import { join } from "node:path";
import type { Diagnostic } from "../../diag/diag.ts";
import { lockFileText, readLockFile } from "../../providers/install/lock.ts";
import { registryModules } from "./registry_modules.ts";

const AT = { range: { file: "main.cue", line: 3, column: 8 } };
const HEX = "0".repeat(64);

async function withRoot(fn: (root: string) => void) {
  const root = await Deno.makeTempDir({ prefix: "pravo-registry-modules-" });
  try {
    fn(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("registryModules() holds no package when the lock pins no module", async () => {
  await withRoot((root) => {
    const diags: Diagnostic[] = [];
    const modules = registryModules(root, {
      moduleSrc: 'module: "example.com/infra"\n',
      diags,
      workspace: { lock: readLockFile(root), pinned: undefined },
    });
    assert.equal(modules.filesOf("example.com/pets/pets", AT), undefined);
    assert.deepEqual(diags, []);
  });
});

Deno.test("registryModules() refuses a module the lock pins at another version than module.cue asks", async () => {
  await withRoot((root) => {
    Deno.writeTextFileSync(
      join(root, "pravo.lock.json"),
      lockFileText({
        builtins: {},
        plugins: {},
        modules: {
          "example.com/pets@v0": {
            version: "v0.2.0",
            digest: `sha256:${HEX}`,
            manifest: `sha256:${HEX}`,
          },
        },
      }),
    );
    const diags: Diagnostic[] = [];
    const moduleSrc = 'module: "example.com/infra"\n' +
      'deps: "example.com/pets@v0": v: "v0.1.0"\n';
    const modules = registryModules(root, {
      moduleSrc,
      diags,
      workspace: { lock: readLockFile(root), pinned: undefined },
    });
    assert.deepEqual(modules.filesOf("example.com/pets/pets", AT), []);
    assert.deepEqual(diags.map((d) => [d.summary, d.range]), [
      ["pravo.lock.json pins another version of example.com/pets", AT.range],
    ]);
    // Read once: asked again, it says nothing more.
    modules.filesOf("example.com/pets/other", AT);
    assert.equal(diags.length, 1);
  });
});
