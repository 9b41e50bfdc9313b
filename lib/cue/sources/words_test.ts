import { strict as assert } from "node:assert";
import { newTopScope, parseFile } from "../syntax/mod.ts";
import { wordsOf } from "./words.ts";

Deno.test("wordsOf() gives the identifiers of the files, those in interpolations too", () => {
  const src = 'package x\n\nname: "a-\\(prefix)"\nprefix: aws_s3_bucket\n';
  const words = wordsOf({
    files: [{ name: "main.cue", src, parsed: parseFile("main.cue", src, newTopScope()) }],
    packages: [],
  });
  for (const w of ["name", "prefix", "aws_s3_bucket"]) assert.ok(words.has(w), w);
  assert.ok(!words.has("a-"));
});
