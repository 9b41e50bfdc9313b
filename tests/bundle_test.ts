/**
 * The single-file build: `dist/pravo.js` (built here unless a fresh one is
 * there) copied alone into a temporary directory, with no node_modules and
 * no deno.json, runs with pravo's narrow permissions. Skipped, with a
 * message, only when `deno bundle` itself cannot run (no esbuild).
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundle, BUNDLE_PATH, bundleIsFresh, externalImports } from "../scripts/bundle.ts";
import { permissionFlags } from "../lib/permissions/permissions.ts";
import { removing, run, type RunResult } from "./_pravo.ts";

const PROJECT = fileURLToPath(new URL("..", import.meta.url));

const built = (await bundleIsFresh())
  ? { ok: true, log: "reused a fresh dist/pravo.js", toolMissing: false }
  : await bundle();
if (built.toolMissing) {
  console.warn(`bundle_test: skipped: deno bundle cannot run here:\n${built.log}`);
}
const ignore = built.toolMissing;

/**
 * Runs the bundle alone in a fresh directory with the seed root in `demo/`,
 * or with the files `files` there instead.
 */
async function runAlone(args: string[], files?: Record<string, string>): Promise<RunResult> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "pravo-bundle-" }));
  await using _dir = removing(dir);
  const program = join(dir, "pravo.js");
  await Deno.copyFile(BUNDLE_PATH, program);
  const root = join(dir, "demo");
  await Deno.mkdir(root);
  if (files) {
    for (const [name, text] of Object.entries(files)) {
      await Deno.mkdir(join(root, name, ".."), { recursive: true });
      await Deno.writeTextFile(join(root, name), text);
    }
  } else {
    await Deno.copyFile(join(PROJECT, "examples", "seed", "main.cue"), join(root, "main.cue"));
  }
  return await run(
    Deno.execPath(),
    [
      "run",
      "--no-config",
      ...permissionFlags({
        root,
        execPath: Deno.execPath(),
        projectDir: dir,
        programFiles: ["pravo.js"],
      }),
      program,
      "-C",
      "demo",
      ...args,
    ],
    { cwd: dir, env: { NO_COLOR: "1" } },
  );
}

Deno.test({ name: "deno task bundle writes dist/pravo.js", ignore }, () => {
  assert.ok(built.ok, `bundling failed:\n${built.log}`);
});

Deno.test({
  name: "dist/pravo.js carries every module, the inline cue-wasm included",
  ignore,
}, async () => {
  assert.ok(built.ok, "dist/pravo.js was not built");
  const code = await Deno.readTextFile(BUNDLE_PATH);
  assert.deepEqual(externalImports(code), []);
  // cue-wasm's WebAssembly, inlined as base64, is most of the 6 MB.
  assert.ok(code.length > 5_000_000, `dist/pravo.js is only ${code.length} bytes`);
});

Deno.test({ name: "dist/pravo.js alone prints the version", ignore }, async () => {
  assert.ok(built.ok, "dist/pravo.js was not built");
  const { code, stdout, stderr } = await runAlone(["--version"]);
  assert.equal(stderr, "");
  assert.match(stdout, /^pravo \d+\.\d+\.\d+\S*\n$/);
  assert.equal(code, 0);
});

Deno.test({ name: "dist/pravo.js alone validates the seed root", ignore }, async () => {
  assert.ok(built.ok, "dist/pravo.js was not built");
  const { code, stdout, stderr } = await runAlone(["validate", "--json"]);
  assert.equal(stderr, "");
  assert.equal(
    stdout,
    `{
  "calls": 0,
  "data_sources": 0,
  "ephemeral": 0,
  "outputs": 0,
  "providers": 1,
  "resources": 1,
  "valid": true
}
`,
  );
  assert.equal(code, 0);
});

Deno.test({
  name: "dist/pravo.js alone converts a Terraform configuration, with the HCL parser inside it",
  ignore,
}, async () => {
  assert.ok(built.ok, "dist/pravo.js was not built");
  const tf = 'resource "random_pet" "name" {\n  count  = 2\n  prefix = "web-${count.index}"\n}\n';
  const { code, stdout, stderr } = await runAlone(
    ["convert", "--from", "terraform", "demo/tf", "--json"],
    { "tf/main.tf": tf },
  );
  assert.equal(stderr, "");
  assert.equal(code, 0);
  assert.deepEqual(JSON.parse(stdout).files, [{ action: "created", path: "main.cue" }]);
});
