import assert from "node:assert/strict";
import { DiagnosticsError, warning } from "../../diag/diag.ts";
import type { Node } from "../../cue/loader.ts";
import {
  protectedFromDestruction,
  settleDiagnostics,
  undeclaredConfigurations,
  unknownReplaceTargets,
} from "./refusals.ts";
import { planned } from "./_testing.ts";

Deno.test("unknownReplaceTargets() refuses a --replace of what is not a managed node, with a hint", () => {
  const nodes = [planned("base"), planned("file", { mode: "data" })];
  assert.deepEqual(unknownReplaceTargets(nodes, ["base"]), []);
  assert.deepEqual(unknownReplaceTargets(nodes), []);
  const [d, e] = unknownReplaceTargets(nodes, ["bsae", "file"]);
  assert.equal(d.summary, 'Cannot replace "bsae"');
  assert.match(d.detail, /not a managed node of this root \(.*base.*\)\./);
  assert.equal(e.summary, 'Cannot replace "file"');
});

Deno.test("protectedFromDestruction() refuses to delete or replace a node with prevent_destroy", () => {
  const range = { file: "main.cue", line: 3, column: 1 };
  const spec = { nodes: [{ address: "db", range } as unknown as Node] };
  const lifecycle = { prevent_destroy: true };
  assert.deepEqual(
    protectedFromDestruction([planned("db", { lifecycle, action: "update" })], spec),
    [],
  );
  const [replaced] = protectedFromDestruction(
    [planned("db", { lifecycle, action: "replace" })],
    spec,
  );
  assert.equal(replaced.summary, "db is protected from destruction");
  assert.match(replaced.detail, /the plan would replace it\. Nothing was planned\./);
  assert.deepEqual(replaced.range, range);
  const [destroyed] = protectedFromDestruction([
    planned("db", { lifecycle, action: "delete", deleteBecause: "destroy" }),
  ], spec);
  assert.match(destroyed.detail, /--destroy would destroy it\./);
});

Deno.test("settleDiagnostics() gives each diagnostic once, and throws when one is an error", () => {
  const w = warning("Odd", "odd");
  assert.deepEqual(settleDiagnostics([w, { ...w }, warning("Other", "o")]), [
    w,
    warning("Other", "o"),
  ]);
  const errors = unknownReplaceTargets([], ["x"]);
  assert.throws(
    () => settleDiagnostics([w, ...errors, w]),
    (e) => e instanceof DiagnosticsError && e.kind === "error" && e.diagnostics.length === 2,
  );
});

Deno.test("undeclaredConfigurations() refuses a delete whose record names a provider configuration no longer declared", () => {
  const providers = [
    { address: "$fake", source: "pravo/fake", config: {}, sensitive: [] },
    { address: "$fake_east", source: "pravo/fake", config: {}, sensitive: [] },
  ];
  const del = (address: string, providerInstance?: string) =>
    planned(address, {
      provider: "pravo/fake",
      action: "delete",
      ...(providerInstance ? { providerInstance } : {}),
    });
  const got = undeclaredConfigurations([
    del("kept", "$fake_east"),
    del("older"),
    del("gone", "$fake_west"),
    planned("other", { provider: "pravo/fake", providerInstance: "$fake_west" }),
  ], { providers });
  assert.deepEqual(got.map((d) => [d.address, d.summary]), [
    ["gone", "The provider configuration $fake_west is not declared"],
  ]);
  assert.match(got[0].detail, /\(\$fake, \$fake_east\).*pravo state rm gone/s);
  // No configuration of the provider at all: apply says to declare one, as before.
  assert.deepEqual(undeclaredConfigurations([del("gone", "$fake_west")], { providers: [] }), []);
});
