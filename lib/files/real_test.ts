import assert from "node:assert/strict";
import { join } from "node:path";
import { isInside, liesInside, realish, realOrResolved } from "./real.ts";

Deno.test("realOrResolved() follows links where the path exists, and resolves it where it does not", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  await Deno.mkdir(join(dir, "real"));
  await Deno.symlink(join(dir, "real"), join(dir, "link"));
  assert.equal(realOrResolved(join(dir, "link")), join(dir, "real"));
  assert.equal(realOrResolved(join(dir, "nothing", "..", "x")), join(dir, "x"));
});

Deno.test("liesInside() follows a link out of the root to a file that exists", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir());
  const out = await Deno.realPath(await Deno.makeTempDir());
  await Deno.symlink(out, join(root, "away"));
  await Deno.writeTextFile(join(out, "p.cue"), "");
  assert.ok(liesInside(root, join(root, "a.cue")));
  assert.ok(liesInside(root, root));
  assert.ok(!liesInside(root, join(root, "away", "p.cue")));
  assert.ok(!liesInside(root, out));
});

Deno.test("isInside() compares the text of the paths, a folder's own path included", () => {
  assert.ok(isInside("/r", "/r"));
  assert.ok(isInside("/r", "/r/a/b"));
  assert.ok(isInside("/r/", "/r/a"));
  assert.ok(!isInside("/r", "/rest"));
  assert.ok(!isInside("/r/a", "/r"));
});

Deno.test("realish() resolves the links of the part that exists and keeps the rest", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  await Deno.mkdir(join(dir, "real"));
  await Deno.symlink(join(dir, "real"), join(dir, "link"));
  assert.equal(realish(join(dir, "link", "not", "yet")), join(dir, "real", "not", "yet"));
  assert.equal(realish(join(dir, "link")), join(dir, "real"));
  assert.equal(realish(join(dir, "real", "x")), join(dir, "real", "x"));
});
