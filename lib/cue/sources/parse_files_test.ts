import { strict as assert } from "node:assert";
import { parseFiles } from "./parse_files.ts";

const MODULE = { name: "cue.mod/module.cue", src: 'module: "example.com/infra"\n' };

Deno.test("parseFiles() parses the root's files and each package of the module in its directory", () => {
  const r = parseFiles([
    { name: "main.cue", src: 'package demo\n\nimport "example.com/infra/lib/pets"\n\nx: pets.n\n' },
    MODULE,
    { name: "lib/pets/b.cue", src: "package pets\n\nm: 2\n" },
    { name: "lib/pets/a.cue", src: "package pets\n\nn: 1\n" },
  ]);
  assert.deepEqual(r.diagnostics, []);
  assert.equal(r.modulePath, "example.com/infra");
  assert.equal(r.moduleSrc, MODULE.src);
  assert.deepEqual(r.files.map((f) => f.name), ["main.cue"]);
  assert.deepEqual(
    r.packages.map((p) => [p.path, p.dir, p.files.map((f) => f.name)]),
    [["example.com/infra/lib/pets", "lib/pets", ["lib/pets/b.cue", "lib/pets/a.cue"]]],
  );
});

Deno.test("parseFiles() reports a syntax error where it is, and a directory of two packages", () => {
  const r = parseFiles([
    { name: "main.cue", src: "package demo\n\nx: {\n" },
    MODULE,
    { name: "lib/a.cue", src: "package one\n" },
    { name: "lib/b.cue", src: "package two\n" },
  ]);
  assert.deepEqual(r.diagnostics.map((d) => [d.summary, d.range?.file]), [
    ["Syntax error", "main.cue"],
    ["The files of lib are of several packages", "lib/a.cue"],
  ]);
});

Deno.test("parseFiles() reads no package without a module, and refuses a module.cue that names none", () => {
  const r = parseFiles([
    { name: "main.cue", src: "package demo\n" },
    { name: "cue.mod/module.cue", src: 'language: version: "v0.9.0"\n' },
  ]);
  assert.equal(r.modulePath, undefined);
  assert.deepEqual(r.packages, []);
  assert.deepEqual(r.diagnostics.map((d) => d.summary), ["cue.mod/module.cue names no module"]);
});
