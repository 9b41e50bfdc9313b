import { strict as assert } from "node:assert";
import { jsonDocument, refusal } from "./_testing.ts";
import { pravo } from "./state_testing.ts";

Deno.test("providers lists each provider with its version, import path and types by mode", async () => {
  const { code, stdout, stderr } = await pravo(["providers"]);
  assert.equal(code, 0);
  assert.equal(stderr, "");
  const blocks = stdout.trimEnd().split("\n\n");
  assert.deepEqual(blocks.map((b) => b.split("\n")[0]), [
    "hashicorp/local 0.1.0",
    "hashicorp/null 0.1.0",
    "hashicorp/random 0.1.0",
    "hashicorp/time 0.1.0",
  ]);
  assert.equal(
    blocks[0],
    [
      "hashicorp/local 0.1.0",
      "  import     pravo.dev/providers/hashicorp/local",
      "  managed    local_file, local_sensitive_file",
      "  data       local_file, local_sensitive_file",
    ].join("\n"),
  );
  assert.match(blocks[2], /\n {2}ephemeral {2}random_password$/);
  assert.match(
    blocks[2],
    /\n {2}managed {4}random_bytes, random_id, random_integer, random_password, random_pet, /,
  );
  // Modes without types are left out of the human view.
  assert.doesNotMatch(blocks[1], /data|ephemeral|call/);
});

Deno.test("providers --json prints every provider with all four modes", async () => {
  const ran = await pravo(["providers", "--json"]);
  assert.equal(ran.stderr, "");
  const doc = jsonDocument(ran);
  assert.deepEqual(doc.providers.map((p: { source: string }) => p.source), [
    "hashicorp/local",
    "hashicorp/null",
    "hashicorp/random",
    "hashicorp/time",
  ]);
  for (const p of doc.providers) {
    assert.equal(p.version, "0.1.0");
    assert.equal(p.import_path, `pravo.dev/providers/${p.source}`);
    assert.deepEqual(Object.keys(p.types), ["call", "data", "ephemeral", "managed"]);
    for (const names of Object.values(p.types) as string[][]) {
      assert.deepEqual(names, [...names].sort());
    }
  }
  const random = doc.providers[2];
  assert.deepEqual(random.types.ephemeral, ["random_password"]);
  assert.equal(random.types.managed.length, 8);
  assert.deepEqual(random.types.data, []);
  assert.deepEqual(doc.providers[3].types.managed, [
    "time_offset",
    "time_rotating",
    "time_sleep",
    "time_static",
  ]);
  assert.deepEqual(doc.providers[0].types.data, ["local_file", "local_sensitive_file"]);
});

Deno.test("providers lists the same types that schema describes", async () => {
  const { stdout } = await pravo(["--json", "providers"]);
  const doc = JSON.parse(stdout);
  const qualified: string[] = [];
  for (const p of doc.providers) {
    for (const [mode, names] of Object.entries(p.types) as [string, string[]][]) {
      for (const n of names) qualified.push(`${mode}.${n}`);
    }
  }
  const schema = await pravo(["--json", "schema", ...qualified]);
  assert.equal(schema.code, 0, schema.stderr);
  const types = JSON.parse(schema.stdout).types;
  assert.equal(types.length, qualified.length);
  assert.deepEqual(
    types.map((t: { mode: string; name: string }) => `${t.mode}.${t.name}`),
    qualified,
  );
});

Deno.test("providers takes no arguments", async () => {
  const stderr = refusal(await pravo(["providers", "hashicorp/random"]), 64);
  assert.match(stderr, /"providers" takes no arguments, and "hashicorp\/random" is one too many/);
});

Deno.test("providers makes the source bold on a terminal", async () => {
  const { stdout } = await pravo(["providers"], { terminal: true });
  assert.ok(stdout.startsWith("\x1b[1mhashicorp/local\x1b[0m 0.1.0\n"));
});
