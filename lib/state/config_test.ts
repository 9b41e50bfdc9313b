import assert from "node:assert/strict";
import { join } from "node:path";
import { DiagnosticsError } from "../diag/diag.ts";
import { parseConfig, readConfig } from "./config.ts";

function refused(text: string, pattern: RegExp): void {
  assert.throws(() => parseConfig(text, "/r/pravo.jsonc"), (e: unknown) => {
    assert.ok(e instanceof DiagnosticsError);
    assert.equal(e.exitCode, 1);
    const d = e.diagnostics[0];
    assert.match(d.summary + "\n" + d.detail, pattern);
    return true;
  });
}

Deno.test("parseConfig() reads JSONC: comments, trailing commas, every state setting", () => {
  const text = `// pravo's settings for this root
{
  "$schema": "https://pravo.dev/schema/pravo.json",
  /* where the state lives */
  "state": {
    "url": "postgres://pravo@db.internal:5432/infra",
    "root": "network/prod",
    "schema": "pravo",
    "lineage": "0b6f3c9e-6a51-4a5e-9f61-2d7b1c1e4f10",
  },
}`;
  assert.deepEqual(parseConfig(text, "/r/pravo.jsonc"), {
    state: {
      url: "postgres://pravo@db.internal:5432/infra",
      root: "network/prod",
      schema: "pravo",
      lineage: "0b6f3c9e-6a51-4a5e-9f61-2d7b1c1e4f10",
    },
  });
  assert.deepEqual(parseConfig("// nothing yet\n", "/r/pravo.jsonc"), {});
  assert.deepEqual(parseConfig("{}", "/r/pravo.jsonc"), {});
});

Deno.test("parseConfig() refuses bad syntax with a line and column, unknown and ill-typed settings", () => {
  refused('{\n  "state": {"url": "sqlite:x" "root": "a"}\n}', /pravo\.jsonc:2:\d+: comma expected/);
  refused('{"stat": {}}', /Unknown setting "stat" \(did you mean "state"\?\)/);
  refused('{"state": {"roots": "a"}}', /Unknown setting "state.roots" \(did you mean "root"\?\)/);
  refused('{"state": {"root": 7}}', /"state.root" is not a string/);
  refused('{"state": []}', /"state" is not an object/);
  refused("[1]", /does not hold an object/);
  refused('{"state": {"root": "/etc"}}', /not a valid root key/);
  refused('{"state": {"schema": "Ops"}}', /not a valid schema name/);
  refused('{"state": {"lineage": "nope"}}', /not a lineage/);
});

Deno.test("parseConfig() refuses a password in state.url: the file is meant to be committed", () => {
  refused(
    '{"state": {"url": "postgres://pravo:hunter2@db/infra"}}',
    /holds a password[\s\S]*\$PGPASSWORD/,
  );
  assert.throws(
    () => parseConfig('{"state": {"url": "postgres://pravo:hunter2@db/infra"}}', "/r/pravo.jsonc"),
    (e: unknown) => !JSON.stringify((e as DiagnosticsError).diagnostics).includes("hunter2"),
  );
});

Deno.test("readConfig() is empty without a file, and names the file it read", async () => {
  const root = await Deno.makeTempDir({ prefix: "pravo-config-" });
  try {
    assert.deepEqual(readConfig(root), { config: {} });
    await Deno.writeTextFile(join(root, "pravo.jsonc"), '{"state": {"url": "sqlite:s.db"}}');
    assert.deepEqual(readConfig(root), {
      config: { state: { url: "sqlite:s.db" } },
      path: join(root, "pravo.jsonc"),
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
