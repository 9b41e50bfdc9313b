import assert from "node:assert/strict";
import { join } from "node:path";
import { liesInside, realOrResolved } from "./real.ts";

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
