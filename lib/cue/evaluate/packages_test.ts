import { BUILTIN_ONLY } from "../../workspace/workspace_testing.ts";
import { strict as assert } from "node:assert";
import { parseSources } from "../sources/parse.ts";
import { RANDOM, sourcesOf, TIME } from "./evaluate_testing.ts";
import { modulePackages, providerPackages } from "./packages.ts";

Deno.test("providerPackages() gives each imported provider's package in its variants", async () => {
  const res = await providerPackages(sourcesOf(RANDOM));
  assert.ok(res.ok);
  const p = res.value;
  for (const m of [p.main, p.setness, p.strict, p.traced]) {
    assert.deepEqual([...m.keys()], ["hashicorp/random"]);
  }
  assert.notEqual(p.main.get("hashicorp/random"), p.strict.get("hashicorp/random"));
  assert.deepEqual(p.plugins, new Set());
  assert.equal(p.tracked, false);
});

Deno.test("providerPackages() tracks setness when the files may use such a type", async () => {
  const unused = await providerPackages(sourcesOf(TIME));
  assert.ok(unused.ok && !unused.value.tracked);
  const used = await providerPackages(
    sourcesOf(TIME + "rot: $time.#Resource.time_rotating & {rotation_days: 1}\n"),
  );
  assert.ok(used.ok && used.value.tracked);
});

Deno.test("modulePackages() gives the module's packages as the program takes them", () => {
  assert.deepEqual(modulePackages(sourcesOf(RANDOM)), {});
  const res = parseSources("/nowhere", [
    { name: "main.cue", src: 'package demo\n\nimport "example.com/infra/lib/a"\n\nx: a.y\n' },
    { name: "cue.mod/module.cue", src: 'module: "example.com/infra"\n' },
    { name: "lib/a/a.cue", src: "package a\n\ny: 1\n" },
  ], BUILTIN_ONLY);
  assert.ok(res.ok);
  const m = modulePackages(res.value);
  assert.equal(m.modulePath, "example.com/infra");
  assert.deepEqual(m.packages?.map((p) => [p.path, p.files.length]), [[
    "example.com/infra/lib/a",
    1,
  ]]);
});
