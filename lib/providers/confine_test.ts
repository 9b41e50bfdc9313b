import assert from "node:assert/strict";
import { join } from "node:path";
import {
  checkPath,
  ConfinementError,
  deletionPath,
  directoryFor,
  readConfined,
  recheckDirectory,
  resolveBeneath,
} from "./confine.ts";

function sandbox() {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "pravo-confine-" }));
  const root = join(base, "root");
  const outside = join(base, "outside");
  Deno.mkdirSync(join(root, "sub"), { recursive: true });
  Deno.mkdirSync(join(root, ".pravo"));
  Deno.mkdirSync(outside);
  Deno.writeTextFileSync(join(outside, "secret.txt"), "outside secret");
  Deno.writeTextFileSync(join(root, ".pravo", "state.db"), "state");
  Deno.writeTextFileSync(join(root, "sub", "in.txt"), "inside");
  return {
    base,
    root,
    outside,
    [Symbol.dispose]: () => Deno.removeSync(base, { recursive: true }),
  };
}

const refused = (reason: string) => (e: unknown) =>
  e instanceof ConfinementError && e.reason === reason;

Deno.test("resolveBeneath() follows links that stay in the root and refuses those that leave it", () => {
  using s = sandbox();
  Deno.symlinkSync("sub/in.txt", join(s.root, "rel-in"));
  Deno.symlinkSync(join(s.root, "sub"), join(s.root, "abs-sub"));
  Deno.symlinkSync(join(s.outside, "secret.txt"), join(s.root, "out-file"));
  Deno.symlinkSync("../outside", join(s.root, "out-dir"));
  Deno.symlinkSync("/nonexistent/deep/file", join(s.root, "dangling-out"));
  Deno.symlinkSync("loop-b", join(s.root, "loop-a"));
  Deno.symlinkSync("loop-a", join(s.root, "loop-b"));
  assert.equal(resolveBeneath(s.root, "rel-in").real, join(s.root, "sub", "in.txt"));
  assert.equal(resolveBeneath(s.root, "abs-sub/in.txt").real, join(s.root, "sub", "in.txt"));
  assert.equal(resolveBeneath(s.root, "sub/../sub/in.txt").real, join(s.root, "sub", "in.txt"));
  const missing = resolveBeneath(s.root, "abs-sub/new/deeper.txt");
  assert.equal(missing.existing, join(s.root, "sub"));
  assert.deepEqual(missing.missing, ["new", "deeper.txt"]);
  for (const name of ["out-file", "out-dir/secret.txt", "out-dir/nothing", "dangling-out"]) {
    assert.throws(() => resolveBeneath(s.root, name), refused("outside"), name);
  }
  for (const name of ["../outside/secret.txt", join(s.outside, "secret.txt"), "/etc/passwd"]) {
    assert.throws(() => resolveBeneath(s.root, name), refused("outside"), name);
  }
  assert.throws(() => resolveBeneath(s.root, "loop-a"), refused("loop"));
  // A root named through a link works the same.
  Deno.symlinkSync(s.root, join(s.base, "root-link"));
  assert.equal(
    resolveBeneath(join(s.base, "root-link"), "sub/in.txt").real,
    join(s.root, "sub", "in.txt"),
  );
});

Deno.test("readConfined() reads inside the root only, never pravo's files", async () => {
  using s = sandbox();
  Deno.symlinkSync(join(s.outside, "secret.txt"), join(s.root, "shadow.txt"));
  Deno.symlinkSync(".pravo/state.db", join(s.root, "state-link"));
  assert.equal(new TextDecoder().decode(await readConfined(s.root, "sub/in.txt")), "inside");
  await assert.rejects(readConfined(s.root, "shadow.txt"), refused("outside"));
  await assert.rejects(readConfined(s.root, ".pravo/state.db"), refused("protected"));
  await assert.rejects(readConfined(s.root, "state-link"), refused("protected"));
  await assert.rejects(readConfined(s.root, "./sub/../.pravo/state.db"), refused("protected"));
  await assert.rejects(readConfined(s.root, "nope.txt"), Deno.errors.NotFound);
});

Deno.test("directoryFor() makes missing directories inside the root, and refuses a link out or pravo's folder", () => {
  using s = sandbox();
  const made = directoryFor(s.root, "a/b/c.txt", 0o755, () => {});
  assert.deepEqual(made, { dir: join(s.root, "a", "b"), base: "c.txt" });
  assert.ok(Deno.statSync(join(s.root, "a", "b")).isDirectory);
  Deno.symlinkSync(s.outside, join(s.root, "out"));
  assert.throws(() => directoryFor(s.root, "out/x.txt", 0o755, () => {}), refused("outside"));
  assert.throws(
    () => directoryFor(s.root, ".pravo/state.db", 0o755, () => {}),
    refused("protected"),
  );
  assert.throws(() => directoryFor(s.root, ".pravo/new", 0o755, () => {}), refused("protected"));
  // An existing link as the file itself is replaced, not written through.
  Deno.symlinkSync("sub/in.txt", join(s.root, "link.txt"));
  assert.deepEqual(directoryFor(s.root, "link.txt", 0o755, () => {}), {
    dir: s.root,
    base: "link.txt",
  });
  // The directory checked again: a link swapped in after the check is seen.
  recheckDirectory(s.root, join(s.root, "a", "b"));
  Deno.removeSync(join(s.root, "a", "b"));
  Deno.symlinkSync(s.outside, join(s.root, "a", "b"));
  assert.throws(() => recheckDirectory(s.root, join(s.root, "a", "b")), ConfinementError);
  assert.deepEqual([...Deno.readDirSync(s.outside)].map((e) => e.name), ["secret.txt"]);
});

Deno.test("deletionPath() resolves the directory and leaves a link as the thing deleted", () => {
  using s = sandbox();
  Deno.symlinkSync(s.outside, join(s.root, "out"));
  Deno.symlinkSync(join(s.outside, "secret.txt"), join(s.root, "secret-link"));
  assert.throws(() => deletionPath(s.root, "out/secret.txt"), refused("outside"));
  assert.throws(() => deletionPath(s.root, ".pravo/state.db"), refused("protected"));
  assert.equal(deletionPath(s.root, "secret-link"), join(s.root, "secret-link"));
});

Deno.test("checkPath() gives a diagnostic with the node, the attribute and its position", () => {
  using s = sandbox();
  Deno.symlinkSync(s.outside, join(s.root, "out"));
  const range = { file: "main.cue", line: 3, column: 7 };
  const [d] = checkPath(s.root, {
    address: "f",
    attr: "filename",
    name: "out/x",
    range,
  }, "write");
  assert.equal(
    d.summary,
    'Cannot write "out/x": a symbolic link on the way leads outside the root',
  );
  assert.equal(d.address, "f");
  assert.deepEqual(d.range, range);
  assert.match(d.detail, /^filename of f names "out\/x"/);
  assert.match(d.detail, /give a path inside the root/);
  assert.ok(!d.detail.includes(s.outside), "the message does not say where the link leads");
  assert.deepEqual(
    checkPath(s.root, { address: "f", attr: "filename", name: "ok.txt" }, "write"),
    [],
  );
});
