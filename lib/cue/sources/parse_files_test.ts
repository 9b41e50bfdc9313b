import { strict as assert } from "node:assert";
import { parseFiles } from "./parse_files.ts";

const MODULE = { name: "cue.mod/module.cue", src: 'module: "example.com/infra"\n' };

/** The root's main.cue, cue.mod/module.cue, and files by name. */
function module(main: string, files: Record<string, string>) {
  return parseFiles([
    { name: "main.cue", src: main },
    MODULE,
    ...Object.entries(files).map(([name, src]) => ({ name, src })),
  ]);
}

Deno.test("parseFiles() parses the root's files and each package of the module in its directory", () => {
  const r = module('package demo\n\nimport "example.com/infra/lib/pets"\n\nx: pets.n\n', {
    "lib/pets/b.cue": "package pets\n\nm: 2\n",
    "lib/pets/a.cue": "package pets\n\nn: 1\n",
  });
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
  const r = module("package demo\n\nx: {\n", {
    "lib/a.cue": "package one\n",
    "lib/b.cue": "package two\n",
  });
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
