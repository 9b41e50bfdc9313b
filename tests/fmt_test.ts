/**
 * `pravo fmt` end to end, and the formatter on every `.cue` file of the
 * repository (fixtures, examples, the cue blocks of the docs): formatting is
 * idempotent and keeps the evaluation the same (the same JSON, or the same
 * error, from cue-wasm before and after).
 */

import { BUILTIN_ONLY } from "../lib/workspace/workspace_testing.ts";
import { strict as assert } from "node:assert";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { formatSource, FormatSyntaxError } from "../lib/cue/format/mod.ts";
import { parseSources } from "../lib/cue/loader.ts";
import { newTopScope, parseFile, SyntaxError } from "../lib/cue/syntax/mod.ts";
import { buildProgram } from "../lib/cue/program.ts";
import { providerPackage } from "../lib/cue/provider_cue.ts";
import { evaluate } from "../lib/cue/engine.ts";
import { BUILTIN_REGISTRY } from "../lib/providers/registry.ts";
const { findProvider } = BUILTIN_REGISTRY;
import { makeRoot, pravo } from "./_pravo.ts";

const REPO = fileURLToPath(new URL("../", import.meta.url));

function walk(dir: string, out: string[]): string[] {
  for (const n of readdirSync(dir)) {
    if (["node_modules", ".git", ".pravo", "dist"].includes(n)) continue;
    const p = join(dir, n);
    const st = statSync(p);
    if (st.isDirectory()) walk(p, out);
    else if (n.endsWith(".cue") || n.endsWith(".md")) out.push(p);
  }
  return out;
}

const FILES = walk(REPO, []);

/** The ```cue blocks of a markdown page, with the line they start on. */
function cueBlocks(md: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  const lines = md.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!/^```cue\b/.test(lines[i])) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i].startsWith("```"); i++) body.push(lines[i]);
    out.push({ line: start + 1, text: body.join("\n") + "\n" });
  }
  return out;
}

/** What cue-wasm makes of a root's files: its JSON, or its error. */
async function evaluation(files: { name: string; src: string }[]): Promise<string> {
  const sources = parseSources("/nowhere", files, BUILTIN_ONLY);
  if (!sources.ok) return "invalid: " + sources.diagnostics.map((d) => d.summary).join("; ");
  const providers = new Map<string, string>();
  for (const s of sources.value.providers) providers.set(s, providerPackage(findProvider(s)!));
  const program = buildProgram({
    files: sources.value.files.map((f) => ({ parsed: f.parsed, src: f.src })),
    providers,
    extra: [],
  });
  const res = await evaluate(program.source);
  return res.ok ? res.json : "error: " + res.message;
}

Deno.test("formatSource() is idempotent on every .cue file of the repository and keeps its evaluation", async () => {
  const cue = FILES.filter((f) => f.endsWith(".cue"));
  assert.ok(cue.length >= 20, `found ${cue.length} .cue files`);
  const byDir = new Map<string, string[]>();
  for (const f of cue) byDir.set(dirname(f), [...(byDir.get(dirname(f)) ?? []), f]);
  let evaluated = 0;
  for (const [dir, files] of byDir) {
    const before: { name: string; src: string }[] = [];
    const after: { name: string; src: string }[] = [];
    let parses = true;
    for (const f of files.sort()) {
      const src = readFileSync(f, "utf8");
      let out: string;
      try {
        out = formatSource(src);
      } catch (e) {
        assert.ok(e instanceof FormatSyntaxError, `${f}: ${e}`);
        // A file made not to parse: pravo's own parser refuses it too.
        assert.throws(
          () => parseFile(f, src, newTopScope()),
          SyntaxError,
          `${relative(REPO, f)} parses, but fmt refuses it: ${e.message}`,
        );
        parses = false;
        continue;
      }
      assert.equal(formatSource(out), out, `${relative(REPO, f)}: formatting twice changes it`);
      const name = f.slice(dir.length + 1);
      before.push({ name, src });
      after.push({ name, src: out });
    }
    if (!parses || before.length === 0) continue;
    assert.equal(
      await evaluation(after),
      await evaluation(before),
      `${relative(REPO, dir)}: the evaluation changed`,
    );
    evaluated++;
  }
  assert.ok(evaluated >= 15, `evaluated ${evaluated} roots`);
});

Deno.test("the cue blocks of the docs and the README are in canonical format", () => {
  let checked = 0;
  for (const f of FILES.filter((f) => f.endsWith(".md"))) {
    for (const b of cueBlocks(readFileSync(f, "utf8"))) {
      let out: string;
      try {
        out = formatSource(b.text);
      } catch (e) {
        assert.fail(`${relative(REPO, f)}:${b.line}: ${(e as Error).message}`);
      }
      assert.equal(out, b.text, `${relative(REPO, f)}:${b.line} is not formatted`);
      checked++;
    }
  }
  assert.ok(checked >= 30, `checked ${checked} blocks`);
});

Deno.test("pravo fmt --check passes on the repository's examples", async () => {
  for (const dir of readdirSync(join(REPO, "examples"))) {
    const r = await pravo(join(REPO, "examples", dir), ["fmt", "--check"]);
    assert.equal(r.code, 0, `examples/${dir}: ${r.stdout}${r.stderr}`);
    assert.equal(r.stdout, "");
  }
});

const MESSY = `package demo
import rnd "pravo.dev/providers/hashicorp/random"
$random: rnd.#Provider

base: $random.#Resource.random_integer & {min:1,max:9,seed:"base"}
`;
const TIDY = `package demo

import rnd "pravo.dev/providers/hashicorp/random"

$random: rnd.#Provider

base: $random.#Resource.random_integer & {min: 1, max: 9, seed: "base"}
`;

Deno.test("pravo fmt rewrites the root's files that change, lists them, and keeps their mode", async () => {
  const root = await makeRoot({ "main.cue": MESSY, "ok.cue": "package demo\n\nx: 1\n" });
  await Deno.chmod(join(root, "main.cue"), 0o640);
  const r = await pravo(root, ["fmt"]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, "main.cue\n");
  assert.equal(await Deno.readTextFile(join(root, "main.cue")), TIDY);
  assert.equal((await Deno.stat(join(root, "main.cue"))).mode! & 0o777, 0o640);
  assert.deepEqual(
    [...Deno.readDirSync(root)].map((e) => e.name).sort(),
    ["main.cue", "ok.cue"],
    "no temporary file is left",
  );
  const again = await pravo(root, ["fmt"]);
  assert.equal(again.code, 0);
  assert.equal(again.stdout, "");
});

Deno.test("pravo fmt --check lists the files that would change, exits 3 and writes nothing", async () => {
  const root = await makeRoot({ "main.cue": MESSY, "ok.cue": "package demo\n\nx: 1\n" });
  const r = await pravo(root, ["fmt", "--check"]);
  assert.equal(r.code, 3);
  assert.equal(r.stdout, "main.cue\n");
  assert.equal(await Deno.readTextFile(join(root, "main.cue")), MESSY);
  const ok = await pravo(root, ["fmt", "--check", "ok.cue"]);
  assert.equal(ok.code, 0);
});

Deno.test("pravo fmt --diff prints the change as a unified diff", async () => {
  const root = await makeRoot({ "main.cue": "package demo\na:1\n" });
  const r = await pravo(root, ["fmt", "--check", "--diff"]);
  assert.equal(r.code, 3);
  assert.equal(
    r.stdout,
    "--- a/main.cue\n+++ b/main.cue\n@@ -1,2 +1,3 @@\n package demo\n-a:1\n+\n+a: 1\n",
  );
});

Deno.test("pravo fmt --json prints the files and whether each changes", async () => {
  const root = await makeRoot({ "main.cue": "package demo\na:1\n" });
  const r = await pravo(root, ["fmt", "--check", "--json"]);
  assert.equal(r.code, 3);
  assert.deepEqual(JSON.parse(r.stdout), {
    check: true,
    files: [{ changed: true, file: "main.cue" }],
    format_version: "1.0",
  });
});

Deno.test("pravo fmt reports a file that does not parse at its line and column, exits 3 and leaves it", async () => {
  const bad = "package demo\n\na: {\n\tb:1\n";
  const root = await makeRoot({ "bad.cue": bad, "main.cue": "package demo\nx:1\n" });
  const r = await pravo(root, ["fmt"]);
  assert.equal(r.code, 3);
  assert.match(r.stderr, /Error: Syntax error\n\n {2}on bad\.cue line 3, column 4:/);
  assert.equal(await Deno.readTextFile(join(root, "bad.cue")), bad);
  assert.equal(r.stdout, "main.cue\n", "the other files are formatted");
});

Deno.test("pravo fmt takes files and directories relative to the root (-C)", async () => {
  const root = await makeRoot({ "a.cue": "a:1\n" });
  await Deno.mkdir(join(root, "sub"));
  await Deno.writeTextFile(join(root, "sub", "b.cue"), "b:2\n");
  const cwd = await Deno.makeTempDir();
  const r = await pravo(cwd, ["-C", root, "fmt", "sub", "a.cue"]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, "sub/b.cue\na.cue\n");
  assert.equal(await Deno.readTextFile(join(root, "sub", "b.cue")), "b: 2\n");
  const missing = await pravo(root, ["fmt", "nope.cue"]);
  assert.equal(missing.code, 3);
  assert.match(missing.stderr, /No such file/);
});

Deno.test("pravo fmt refuses a symbolic link and does not copy what it points to", async () => {
  const outside = await makeRoot({ "secret.cue": "secret:1\n" });
  const root = await makeRoot({ "main.cue": "package demo\n\nx: 1\n" });
  await Deno.symlink(join(outside, "secret.cue"), join(root, "link.cue"));
  const r = await pravo(root, ["fmt"]);
  assert.equal(r.code, 3);
  assert.match(r.stderr, /A symbolic link is not formatted/);
  assert.ok((await Deno.lstat(join(root, "link.cue"))).isSymlink);
  assert.equal(await Deno.readTextFile(join(outside, "secret.cue")), "secret:1\n");
});

Deno.test("formatSource() is idempotent on the provider packages pravo ships and keeps their evaluation", async () => {
  const { PROVIDERS } = await import("../lib/providers/registry.ts");
  for (const p of PROVIDERS) {
    const src = providerPackage(p);
    const out = formatSource(src);
    assert.equal(formatSource(out), out, `${p.source}: formatting twice changes it`);
    const before = await evaluate(`x: {\n${src}\n}`);
    const after = await evaluate(`x: {\n${out}\n}`);
    assert.ok(before.ok, p.source);
    assert.deepEqual(after, before, `${p.source}: the evaluation changed`);
  }
});
