import { strict as assert } from "node:assert";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { BUILTIN_REGISTRY } from "../registry.ts";
const { findTypes } = BUILTIN_REGISTRY;
import type { Attrs, RequestBase, TypeHandler } from "../runtime.ts";
import { LOCAL_RUNTIME, parseMode } from "./runtime.ts";

type M = "managed" | "data";

function base(mode: M, name: string, root: string): RequestBase {
  const type = findTypes(name).find((f) => f.type.mode === mode)!.type;
  return { type, address: `${name}.x`, root, providerConfig: {} };
}

function handler(mode: M, name = "local_file"): TypeHandler {
  return LOCAL_RUNTIME.handlers[mode]![name];
}

const sha = (alg: string, s: string | Uint8Array, enc: "hex" | "base64" = "hex") =>
  createHash(alg).update(s).digest(enc);

async function withRoot(fn: (root: string) => Promise<void>) {
  const root = await Deno.makeTempDir({ prefix: "pravo-local-" });
  try {
    await fn(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

async function create(root: string, config: Attrs, name = "local_file"): Promise<Attrs> {
  const res = await handler("managed", name).create!({ ...base("managed", name, root), config });
  assert.deepEqual(res.diagnostics, []);
  return res.value!;
}

const umask = Deno.umask();

Deno.test("local_file create writes the content with its permissions and digests", async () => {
  await withRoot(async (root) => {
    const v = await create(root, {
      filename: "out/nested/hello.txt",
      content: "hello\n",
      file_permission: "0640",
      directory_permission: "0750",
    });
    const path = join(root, "out/nested/hello.txt");
    assert.equal(await Deno.readTextFile(path), "hello\n");
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o640 & ~umask);
    assert.equal((await Deno.stat(join(root, "out"))).mode! & 0o777, 0o750 & ~umask);
    assert.equal((await Deno.stat(join(root, "out/nested"))).mode! & 0o777, 0o750 & ~umask);
    assert.equal(v.id, sha("sha1", "hello\n"));
    assert.equal(v.content_sha1, v.id);
    assert.equal(v.content_md5, sha("md5", "hello\n"));
    assert.equal(v.content_sha256, sha("sha256", "hello\n"));
    assert.equal(v.content_base64sha256, sha("sha256", "hello\n", "base64"));
    assert.equal(v.content_sha512, sha("sha512", "hello\n"));
    assert.equal(v.content_base64sha512, sha("sha512", "hello\n", "base64"));
    assert.equal(v.filename, "out/nested/hello.txt");
    assert.equal(v.content, "hello\n");
    // Nothing but the file is left in the directory: no temporary file.
    const names = [];
    for await (const e of Deno.readDir(join(root, "out/nested"))) names.push(e.name);
    assert.deepEqual(names, ["hello.txt"]);
  });
});

Deno.test("local_file create renames over an existing file and uses the default permission", async () => {
  await withRoot(async (root) => {
    const path = join(root, "f.txt");
    await Deno.writeTextFile(path, "old");
    const before = await Deno.stat(path);
    await create(root, { filename: path, content: "new" });
    assert.equal(await Deno.readTextFile(path), "new");
    // Renamed over, not rewritten in place: a reader never sees half a file.
    assert.notEqual((await Deno.stat(path)).ino, before.ino);
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o777 & ~umask);
    await create(root, { filename: "s.txt", content: "secret" }, "local_sensitive_file");
    assert.equal((await Deno.stat(join(root, "s.txt"))).mode! & 0o777, 0o700 & ~umask);
  });
});

Deno.test("local_file create takes content_base64 and source", async () => {
  await withRoot(async (root) => {
    const bin = new Uint8Array([0, 1, 2, 255]);
    const a = await create(root, { filename: "a.bin", content_base64: "AAEC/w==" });
    assert.deepEqual(await Deno.readFile(join(root, "a.bin")), bin);
    assert.equal(a.id, sha("sha1", bin));
    await create(root, { filename: "b.bin", source: "a.bin" });
    assert.deepEqual(await Deno.readFile(join(root, "b.bin")), bin);
    const missing = await handler("managed").create!({
      ...base("managed", "local_file", root),
      config: { filename: "c.bin", source: "nope.bin" },
    });
    assert.equal(missing.value, undefined);
    assert.match(missing.diagnostics[0].summary, /Cannot read source file "nope.bin"/);
  });
});

Deno.test("local_file read sees the file as it is: same, edited by hand, gone", async () => {
  await withRoot(async (root) => {
    const prior = await create(root, { filename: "f.txt", content: "one" });
    const req = { ...base("managed", "local_file", root), prior };
    assert.deepEqual((await handler("managed").read!(req)).value, prior);
    await Deno.writeTextFile(join(root, "f.txt"), "two");
    const edited = (await handler("managed").read!(req)).value!;
    assert.equal(edited.content, "two");
    assert.equal(edited.id, sha("sha1", "two"));
    assert.equal(edited.content_md5, sha("md5", "two"));
    assert.equal(edited.filename, "f.txt");
    await Deno.remove(join(root, "f.txt"));
    const gone = await handler("managed").read!(req);
    assert.deepEqual(gone, { value: null, diagnostics: [] });
  });
});

Deno.test("local_file delete removes the file and accepts a file already gone", async () => {
  await withRoot(async (root) => {
    const prior = await create(root, { filename: "f.txt", content: "x" });
    const req = { ...base("managed", "local_file", root), prior };
    assert.deepEqual((await handler("managed").delete!(req)).diagnostics, []);
    await assert.rejects(Deno.stat(join(root, "f.txt")), Deno.errors.NotFound);
    assert.deepEqual((await handler("managed").delete!(req)).diagnostics, []);
  });
});

Deno.test("local_file plan computes the digests when the content is known", () => {
  const b = base("managed", "local_file", "/r");
  const plan = (config: Attrs, unknown: string[] = []) =>
    handler("managed").plan!({ ...b, config, unknown, prior: null }).value!;
  const known = plan({ filename: "f", content: "hi" });
  assert.equal(known.attributes.id, sha("sha1", "hi"));
  assert.deepEqual(known.unknown, []);
  const later = plan({ filename: "f" }, ["content"]);
  assert.equal(later.attributes.id, undefined);
  assert.ok(later.unknown.includes("id") && later.unknown.includes("content_sha256"));
  const source = plan({ filename: "f", source: "g" });
  assert.ok(source.unknown.includes("id"));
});

Deno.test("local_file validate wants exactly one content and octal permissions", () => {
  const b = base("managed", "local_file", "/r");
  const v = (config: Attrs, unknown: string[] = []) =>
    handler("managed").validate!({ ...b, config, unknown });
  assert.deepEqual(v({ filename: "f", content: "x" }), []);
  assert.deepEqual(v({ filename: "f" }, ["content"]), []);
  assert.match(v({ filename: "f" })[0].summary, /No content/);
  assert.match(v({ filename: "f", content: "x", source: "y" })[0].summary, /Conflicting content/);
  assert.match(v({ filename: "f", content_base64: "!!" })[0].summary, /Invalid content_base64/);
  assert.match(
    v({ filename: "f", content: "x", file_permission: "rw" })[0].summary,
    /Invalid file_permission "rw"/,
  );
  assert.equal(parseMode("0644"), 0o644);
  assert.equal(parseMode("755"), 0o755);
  assert.equal(parseMode("0999"), undefined);
});

Deno.test("local_file data source reads content, base64 and digests", async () => {
  await withRoot(async (root) => {
    await Deno.writeTextFile(join(root, "in.txt"), "data\n");
    for (const name of ["local_file", "local_sensitive_file"]) {
      const res = await handler("data", name).readData!({
        ...base("data", name, root),
        config: { filename: "in.txt" },
      });
      assert.deepEqual(res.diagnostics, []);
      assert.equal(res.value!.content, "data\n");
      assert.equal(res.value!.content_base64, btoa("data\n"));
      assert.equal(res.value!.id, sha("sha1", "data\n"));
      assert.equal(res.value!.content_sha512, sha("sha512", "data\n"));
      assert.equal(res.value!.filename, "in.txt");
    }
  });
});

Deno.test("local_file data source on a missing file is an error naming the file", async () => {
  await withRoot(async (root) => {
    const res = await handler("data").readData!({
      ...base("data", "local_file", root),
      config: { filename: "missing.txt" },
    });
    assert.equal(res.value, undefined);
    assert.equal(res.diagnostics.length, 1);
    const d = res.diagnostics[0];
    assert.equal(d.severity, "error");
    assert.equal(d.address, "local_file.x");
    assert.match(d.summary, /"missing.txt": it does not exist/);
    assert.match(d.detail, /Create the file, or correct filename/);
  });
});

Deno.test("local_file keeps to the root: no write, read, refresh or delete through a link that leads out", async () => {
  await withRoot(async (root) => {
    const outside = await Deno.makeTempDir({ prefix: "pravo-outside-" });
    try {
      await Deno.writeTextFile(join(outside, "secret.txt"), "outside secret");
      await Deno.symlink(outside, join(root, "out"));
      await Deno.symlink(join(outside, "secret.txt"), join(root, "shadow.txt"));
      const m = handler("managed");
      const write = await m.create!({
        ...base("managed", "local_file", root),
        config: { filename: "out/x.txt", content: "hi" },
      });
      assert.equal(write.value, undefined);
      assert.match(write.diagnostics[0].summary, /^Cannot write "out\/x.txt"/);
      const source = await m.create!({
        ...base("managed", "local_file", root),
        config: { filename: "copy.txt", source: "shadow.txt" },
      });
      assert.match(source.diagnostics[0].summary, /^Cannot read "shadow.txt"/);
      const data = await handler("data").readData!({
        ...base("data", "local_file", root),
        config: { filename: "shadow.txt" },
      });
      assert.equal(data.value, undefined);
      assert.ok(!JSON.stringify(data).includes("outside secret"));
      // A managed file swapped for a link after apply: refresh and delete refuse it.
      const made = await create(root, { filename: "mine.txt", content: "mine" });
      await Deno.remove(join(root, "mine.txt"));
      await Deno.symlink(join(outside, "secret.txt"), join(root, "mine.txt"));
      const read = await m.read!({ ...base("managed", "local_file", root), prior: made });
      assert.match(read.diagnostics[0]?.summary ?? "", /^Cannot read "mine.txt"/);
      const del = await m.delete!({
        ...base("managed", "local_file", root),
        prior: { ...made, filename: "out/secret.txt" },
      });
      assert.match(del.diagnostics[0]?.summary ?? "", /^Cannot delete "out\/secret.txt"/);
      assert.equal(await Deno.readTextFile(join(outside, "secret.txt")), "outside secret");
      assert.deepEqual([...Deno.readDirSync(outside)].map((e) => e.name), ["secret.txt"]);
      // pravo's own folder is refused too, and validate says so at plan with the position.
      const range = { file: "main.cue", line: 4, column: 9 };
      const v = m.validate!({
        ...base("managed", "local_file", root),
        config: { filename: ".pravo/state.db", content: "x" },
        unknown: [],
        ranges: { filename: range },
      });
      assert.equal(v.length, 1);
      assert.deepEqual(v[0].range, range);
      assert.match(v[0].summary, /holds pravo's own files/);
    } finally {
      await Deno.remove(outside, { recursive: true });
    }
  });
});
