import { strict as assert } from "node:assert";
import { newTopScope, parseFile } from "../syntax/mod.ts";
import { declaredTags } from "./tags.ts";

function files(src: string) {
  return [{ name: "main.cue", src, parsed: parseFile("main.cue", src, newTopScope()) }];
}

Deno.test("declaredTags() reads @tag with its type on regular fields", () => {
  const r = declaredTags(files(
    "package x\n\nenv: string @tag(env)\nsize: {n: int @tag(n,type=int)}\n",
  ));
  assert.deepEqual(r.diagnostics, []);
  assert.deepEqual(r.tags.map((t) => [t.name, t.type, t.path, t.pos.line]), [
    ["env", "string", ["env"], 3],
    ["n", "int", ["size", "n"], 4],
  ]);
});

Deno.test("declaredTags() refuses a malformed tag and one that -t cannot reach", () => {
  const r = declaredTags(files(
    "package x\n\na: string @tag(a,type=float)\n#D: {b: string @tag(b)}\n",
  ));
  assert.deepEqual(r.tags, []);
  assert.deepEqual(r.diagnostics.map((d) => [d.summary, d.range?.line]), [
    ["Malformed tag attribute", 3],
    ["Tag in an unsupported place", 4],
  ]);
});
