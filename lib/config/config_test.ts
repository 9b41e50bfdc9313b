import assert from "node:assert/strict";
import { join } from "node:path";
import { DiagnosticsError } from "../diag/diag.ts";
import { parseConfig, readConfig } from "./config.ts";

function refused(text: string, pattern: RegExp): void {
  assert.throws(() => parseConfig(text, "/r/pravo.jsonc"), (e: unknown) => {
    assert.ok(e instanceof DiagnosticsError);
    assert.equal(e.kind, "error");
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

function refusedAt(text: string, pattern: RegExp, line: number, column: number): void {
  assert.throws(() => parseConfig(text, "/r/pravo.jsonc"), (e: unknown) => {
    assert.ok(e instanceof DiagnosticsError);
    assert.equal(e.kind, "error");
    const d = e.diagnostics[0];
    assert.match(d.summary + "\n" + d.detail, pattern);
    assert.deepEqual(d.range, { file: "/r/pravo.jsonc", line, column });
    return true;
  });
}

Deno.test("parseConfig() reads providers and provider_mirrors", () => {
  const config = parseConfig(
    `{
  // plugin providers
  "providers": {
    "hashicorp/aws": "~> 5.100",
    "Registry.OpenTofu.org/Integrations/GitHub": ">= 6.0, < 7",
    "kubernetes": "",
  },
  "provider_mirrors": ["/opt/tf-plugins", "../mirror", "/opt/tf-plugins"],
}`,
    "/srv/root/pravo.jsonc",
  );
  assert.deepEqual(
    config.providers!.map((p) => [p.source, p.address, p.version, p.constraints.length]),
    [
      [
        "hashicorp/aws",
        {
          hostname: "registry.terraform.io",
          namespace: "hashicorp",
          type: "aws",
        },
        "~> 5.100",
        1,
      ],
      [
        "Registry.OpenTofu.org/Integrations/GitHub",
        {
          hostname: "registry.opentofu.org",
          namespace: "integrations",
          type: "github",
        },
        ">= 6.0, < 7",
        2,
      ],
      [
        "kubernetes",
        {
          hostname: "registry.terraform.io",
          namespace: "hashicorp",
          type: "kubernetes",
        },
        "",
        0,
      ],
    ],
  );
  assert.deepEqual(config.providers![0].range, {
    file: "/srv/root/pravo.jsonc",
    line: 4,
    column: 5,
  });
  assert.deepEqual(config.provider_mirrors!.map((m) => m.path), ["/opt/tf-plugins", "/srv/mirror"]);
});

Deno.test("parseConfig() refuses a misspelt setting with its line, column and the nearest name", () => {
  refusedAt(
    '{\n  "provider": {}\n}',
    /Unknown setting "provider" \(did you mean "providers"\?\)/,
    2,
    3,
  );
  refusedAt('{\n  "provider_mirror": []\n}', /did you mean "provider_mirrors"/, 2, 3);
  refusedAt(
    '{"state": {\n  "roots": "a"}}',
    /Unknown setting "state.roots" \(did you mean "root"\?\)/,
    2,
    3,
  );
});

Deno.test("parseConfig() refuses bad providers entries where they are", () => {
  refusedAt('{"providers": {"a/b/c/d": "1.0"}}', /Invalid provider source "a\/b\/c\/d"/, 1, 16);
  refusedAt(
    '{"providers": {\n "hashicorp/terraform-provider-aws": ""}}',
    /Write "hashicorp\/aws"/,
    2,
    2,
  );
  refusedAt('{"providers": {"hashicorp/aws": "=> 5"}}', /did you mean ">="/, 1, 33);
  refusedAt('{"providers": {"hashicorp/aws": 5}}', /is not a string/, 1, 33);
  refusedAt('{"providers": ["hashicorp/aws"]}', /"providers" is not an object/, 1, 15);
  refusedAt('{"providers": {"hashicorp/random": "3.6"}}', /built into pravo/, 1, 16);
  refusedAt(
    '{"providers": {"aws": "", "hashicorp/aws": ""}}',
    /names the same provider as "aws"/,
    1,
    27,
  );
  refusedAt(
    '{"providers": {"hashicorp/aws": "", "registry.opentofu.org/hashicorp/aws": ""}}',
    /would share the import path pravo.dev\/providers\/hashicorp\/aws/,
    1,
    37,
  );
  refusedAt('{"provider_mirrors": "/opt"}', /"provider_mirrors" is not a list/, 1, 22);
  refusedAt('{"provider_mirrors": ["/opt", 3]}', /is not a directory name/, 1, 31);
});
