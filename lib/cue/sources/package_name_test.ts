import { strict as assert } from "node:assert";
import { newTopScope, parseFile } from "../syntax/mod.ts";
import { packageNameOf } from "./package_name.ts";

function files(texts: Record<string, string>) {
  return Object.entries(texts).map(([name, src]) => ({
    name,
    src,
    parsed: parseFile(name, src, newTopScope()),
  }));
}

Deno.test("packageNameOf() takes the package most files name, and places each file of another", () => {
  const r = packageNameOf(files({
    "a.cue": "package one\n",
    "b.cue": "package two\n",
    "c.cue": "package two\n",
  }));
  assert.equal(r.packageName, "two");
  assert.deepEqual(r.diagnostics.map((d) => [d.summary, d.range]), [
    ["File of another package", { file: "a.cue", line: 1, column: 1 }],
  ]);
});

Deno.test("packageNameOf() asks a file without a package clause for the root's", () => {
  const r = packageNameOf(files({ "a.cue": "package demo\n", "b.cue": "x: 1\n" }));
  assert.equal(r.packageName, "demo");
  assert.equal(r.diagnostics.length, 1);
  assert.equal(r.diagnostics[0].summary, "File without a package clause");
  assert.match(r.diagnostics[0].detail, /Add "package demo" as its first line/);
});
