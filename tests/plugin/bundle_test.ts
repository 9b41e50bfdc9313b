/**
 * The plugin layer inside a `deno bundle` single file (as pravo ships when
 * `deno compile` cannot be used): @grpc/grpc-js, protobufjs and
 * @msgpack/msgpack bundled, run from a directory with no node_modules,
 * drive the real AWS provider over AutoMTLS. `_host.ts` stands in for
 * pravo's main.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundle } from "../../scripts/bundle.ts";
import { awsProviderPath } from "./_aws.ts";
import { gone } from "./_fake.ts";

// Fails naming the mirror when it is missing.
awsProviderPath();

Deno.test("bundled, the plugin layer starts the AWS provider and calls it", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "pravo-plugin-bundle-" }));
  try {
    const out = join(dir, "host.js");
    const built = await bundle(out, fileURLToPath(new URL("./_host.ts", import.meta.url)));
    assert.ok(built.ok, built.log);
    const code = await Deno.readTextFile(out);
    assert.match(code, /makeUnaryRequest/, "grpc-js is inside");
    const run = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-config", "-A", out, "metadata", "aws"],
      cwd: dir,
      env: { PRAVO_TEST_TF_MIRROR: Deno.env.get("PRAVO_TEST_TF_MIRROR") ?? "" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(run.stdout);
    assert.equal(run.code, 0, new TextDecoder().decode(run.stderr));
    const result = JSON.parse(stdout.split("\n").find((l) => l.startsWith("{"))!);
    assert.deepEqual(result, {
      protocol: 5,
      tls: true,
      resources: 1526,
      dataSources: 608,
      diagnostics: [],
    });
    const pid = Number(stdout.match(/PID (\d+)/)?.[1]);
    assert.ok(await gone(pid));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
