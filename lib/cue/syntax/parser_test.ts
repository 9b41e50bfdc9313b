import { strict as assert } from "node:assert";
import { parseFile } from "./parser.ts";
import { SyntaxError } from "./reader.ts";
import { MAX_NESTING } from "./scanner.ts";
import { MAX_OPERATORS } from "./expressions.ts";
import { newTopScope, type ParsedFile, type Ref, resolve, type Site } from "./sites.ts";

function parse(src: string, file = "f.cue"): ParsedFile {
  return parseFile(file, src, newTopScope());
}

/** Sites as `path@line:column` (label for sites without a static path). */
function sites(pf: ParsedFile): string[] {
  return pf.sites.map((s) => `${s.path ? s.path.join(".") : `<${s.label}>`}@${s.line}:${s.column}`);
}

function site(pf: ParsedFile, path: string): Site {
  const found = pf.sites.filter((s) => s.path?.join(".") === path);
  assert.equal(found.length, 1, `one site for ${path}, found ${found.length}`);
  return found[0];
}

/** A reference as `name.sel.sel@line:column`. */
function ref(r: Ref): string {
  return `${[r.name, ...r.selectors].join(".")}@${r.line}:${r.column}`;
}

/** What a reference resolves to: the declaring sites as `kind:path`, or "unresolved". */
function target(r: Ref): string {
  const d = resolve(r);
  if (!d) return "unresolved";
  return d.map((s) => `${s.kind}:${s.path ? s.path.join(".") : s.label}`).join("|");
}

function syntaxError(src: string, file = "f.cue"): SyntaxError {
  try {
    parse(src, file);
  } catch (e) {
    assert.ok(e instanceof SyntaxError, `expected a SyntaxError, got ${e}`);
    return e;
  }
  assert.fail(`parsing ${JSON.stringify(src)} did not fail`);
}

Deno.test("parseFile() reads the package clause and imports, single and grouped", () => {
  const src = [
    "// leading comment",
    "package demo",
    "",
    "import (",
    '\t"strings"',
    '\trnd "pravo.dev/providers/hashicorp/random"',
    '\t"example.com/x:y"',
    ")",
    'import "encoding/json"',
    "",
    "a: 1",
  ].join("\n");
  const pf = parse(src);
  assert.equal(pf.packageName, "demo");
  assert.equal(pf.packageLine, 2);
  assert.deepEqual(pf.imports, [
    { name: "strings", path: "strings", explicitAlias: false, line: 5, column: 2 },
    {
      name: "rnd",
      path: "pravo.dev/providers/hashicorp/random",
      explicitAlias: true,
      line: 6,
      column: 2,
    },
    { name: "y", path: "example.com/x:y", explicitAlias: false, line: 7, column: 2 },
    { name: "json", path: "encoding/json", explicitAlias: false, line: 9, column: 8 },
  ]);
  assert.equal(src.slice(pf.bodyOffset), "a: 1", "the body starts after the imports");
  assert.deepEqual(sites(pf), ["a@11:1"]);
});

Deno.test("parseFile() leaves the package name undefined in a file without a package clause", () => {
  const pf = parse("a: 1\n");
  assert.equal(pf.packageName, undefined);
  assert.equal(pf.bodyOffset, 0);
});

Deno.test("parseFile() gives every label of a: b: c: 1 a site with its path and position", () => {
  const pf = parse("x: 0\n\ta: b: c: 1\n");
  assert.deepEqual(sites(pf), ["x@1:1", "a@2:2", "a.b@2:5", "a.b.c@2:8"]);
  for (const s of pf.sites) {
    assert.equal(s.kind, "regular");
    assert.equal(s.nonRegular, false);
    assert.equal(s.file, "f.cue");
  }
});

Deno.test("parseFile() gives fields of a struct literal inside x & {...} the field's path", () => {
  const pf = parse(
    "base: $r.#Resource.random_integer & {\n\tmin: 1\n\tmax: other.min\n}\nother: {min: 2} & {}\n",
  );
  assert.deepEqual(sites(pf), [
    "base@1:1",
    "base.min@2:2",
    "base.max@3:2",
    "other@5:1",
    "other.min@5:9",
  ]);
  assert.deepEqual(site(pf, "base").refs.map(ref), ["$r.#Resource.random_integer@1:7"]);
  const max = site(pf, "base.max");
  assert.deepEqual(max.refs.map(ref), ["other.min@3:7"]);
  assert.deepEqual(max.refs.map(target), ["regular:other"]);
});

Deno.test("parseFile() reads quoted, optional, definition, hidden, pattern and dynamic labels", () => {
  const pf = parse(
    '#D: {x: int}\n_h: 1\na?: 2\n"my-node": 3\n[string]: int\n(k): 5\n"\\(k)-x": 6\nk: "z"\n',
  );
  const summary = pf.sites.map((s) => [s.label, s.kind, s.path?.join(".") ?? null, s.nonRegular]);
  assert.deepEqual(summary, [
    ["#D", "definition", "#D", true],
    ["x", "regular", "#D.x", true],
    ["_h", "hidden", "_h", true],
    ["a", "regular", "a", false],
    ["my-node", "regular", "my-node", false],
    ["[", "pattern", null, true],
    ["(", "dynamic", null, true],
    ['"\\(k)-x"', "dynamic", null, true],
    ["k", "regular", "k", false],
  ]);
  assert.equal(site(pf, "a").optional, true);
  assert.equal(site(pf, "my-node").optional, false);
  // The references in a dynamic label count for its value.
  assert.deepEqual(pf.sites[6].refs.map(ref), ["k@6:2"]);
  assert.deepEqual(pf.sites[6].refs.map(target), ["regular:k"]);
});

Deno.test("parseFile() gives references with their selectors, positions and scope", () => {
  const src = [
    "a: b.c.d[0].e",
    'f: "\\(g.h) and \\(i)"',
    'j: strings.ToUpper("x") + k["q"]',
    "b: c: d: [{e: 1}]",
    "g: h: 1",
    "i: 2",
    "k: q: 3",
  ].join("\n");
  const pf = parse(src);
  assert.deepEqual(site(pf, "a").refs.map(ref), ["b.c.d@1:4"], "selectors stop at an index");
  assert.deepEqual(site(pf, "a").refs.map(target), ["regular:b"]);
  assert.deepEqual(site(pf, "f").refs.map(ref), ["g.h@2:7", "i@2:18"], "in interpolations");
  assert.deepEqual(site(pf, "j").refs.map(ref), ["strings.ToUpper@3:4", "k@3:27"]);
  assert.deepEqual(site(pf, "j").refs.map(target), ["unresolved", "regular:k"]);
  assert.deepEqual(
    [site(pf, "a"), site(pf, "f"), site(pf, "j")].flatMap((s) => s.refs.map((r) => r.indexed)),
    [true, undefined, undefined, undefined, true],
    "an index after the selectors is marked",
  );
});

Deno.test("parseFile() resolves a reference to the innermost scope that declares the name", () => {
  const pf = parse("x: 1\na: {\n\tx: 2\n\ty: x\n}\nz: x\n");
  assert.deepEqual(site(pf, "a.y").refs.map(target), ["regular:a.x"]);
  assert.deepEqual(site(pf, "z").refs.map(target), ["regular:x"]);
});

Deno.test("parseFile() shares the top scope between files of one package", () => {
  const top = newTopScope();
  parseFile("a.cue", "base: 1\n", top);
  const b = parseFile("b.cue", "other: base\n", top);
  const r = b.sites[0].refs[0];
  assert.deepEqual(resolve(r)!.map((s) => `${s.file}:${s.path!.join(".")}`), ["a.cue:base"]);
});

Deno.test("parseFile() reads comprehensions: clause variables are local, sources are references", () => {
  const src = [
    'a: {for k, v in src if v > 0 let w = v * 2 {"\\(k)": w}}',
    "src: {p: 1}",
    "l: [for x in src {x}]",
    "if true {c: 1}",
  ].join("\n");
  const pf = parse(src);
  assert.deepEqual(sites(pf), [
    "a@1:1",
    '<"\\(k)">@1:45',
    "src@2:1",
    "src.p@2:7",
    "l@3:1",
    "c@4:10",
  ]);
  const a = site(pf, "a");
  assert.deepEqual(a.refs.map(ref), ["src@1:17", "v@1:24", "v@1:38"]);
  assert.deepEqual(a.refs.map(target), ["regular:src", "for:v", "for:v"]);
  const dynamic = pf.sites[1];
  assert.equal(dynamic.kind, "dynamic");
  assert.equal(dynamic.nonRegular, true);
  assert.deepEqual(dynamic.refs.map((r) => `${ref(r)}=${target(r)}`).slice(-1), [
    "w@1:53=let:w",
  ]);
  const l = site(pf, "l");
  assert.deepEqual(l.refs.map((r) => `${ref(r)}=${target(r)}`), [
    "src@3:14=regular:src",
    "x@3:19=for:x",
  ]);
  assert.deepEqual(pf.topRefs, [], "if true has no references");
});

Deno.test("parseFile() records let declarations apart from the sites, and resolves to them", () => {
  const pf = parse("let L = strings.ToUpper(x)\na: L\nb: {\n\tlet y = 2\n\tz: y\n}\nx: 1\n");
  assert.deepEqual(pf.lets.map((l) => `${l.label}@${l.line}:${l.column}`), ["L@1:5", "y@4:6"]);
  assert.deepEqual(sites(pf), ["a@2:1", "b@3:1", "b.z@5:2", "x@7:1"], "lets are not sites");
  assert.deepEqual(site(pf, "a").refs.map(target), ["let:L"]);
  assert.deepEqual(site(pf, "b.z").refs.map(target), ["let:y"]);
  // A let's own references are on the let.
  assert.deepEqual(pf.lets[0].refs.map(ref), ["strings.ToUpper@1:9", "x@1:25"]);
  assert.equal(pf.lets[0].nonRegular, true);
});

Deno.test("parseFile() reads a field alias X=a: and resolves references to it", () => {
  const pf = parse("X=a: {b: 1}\nc: X.b\n");
  assert.deepEqual(sites(pf), ["a@1:3", "a@1:3", "a.b@1:7", "c@2:1"]);
  const c = site(pf, "c");
  assert.deepEqual(c.refs.map(ref), ["X.b@2:4"]);
  assert.deepEqual(c.refs.map(target), ["alias:a"]);
});

Deno.test("parseFile() puts @tag attributes on the site of the field that carries them", () => {
  const src = [
    "env: string @tag(env)",
    "n: {m: int | *3 @tag(n,type=int)}",
    "a: b: c: bool @tag(flag,type=bool) @go(x)",
    "d: {e: 1} @tag(notE)",
  ].join("\n");
  const pf = parse(src);
  const attrs = (p: string) => site(pf, p).attrs.map((a) => `${a.text}@${a.line}:${a.column}`);
  assert.deepEqual(attrs("env"), ["@tag(env)@1:13"]);
  assert.deepEqual(attrs("n"), []);
  assert.deepEqual(attrs("n.m"), ["@tag(n,type=int)@2:17"]);
  assert.deepEqual(attrs("a"), []);
  assert.deepEqual(attrs("a.b"), []);
  assert.deepEqual(attrs("a.b.c"), ["@tag(flag,type=bool)@3:15", "@go(x)@3:36"]);
  assert.deepEqual(attrs("d"), ["@tag(notE)@4:11"]);
  assert.deepEqual(attrs("d.e"), []);
});

Deno.test("parseFile() reports a missing comma with the line and column of what follows", () => {
  const same = syntaxError("a: 1\nb: 2 c: 3\n");
  assert.deepEqual([same.file, same.line, same.column], ["f.cue", 2, 6]);
  assert.equal(same.message, `missing ',' or new line before "c"`);
  const inStruct = syntaxError("a: {\n\tb: 1 c: 2\n}\n", "two.cue");
  assert.deepEqual([inStruct.file, inStruct.line, inStruct.column], ["two.cue", 2, 7]);
  const inList = syntaxError("a: [1, 2 3]\n");
  assert.deepEqual([inList.line, inList.column], [1, 10]);
  assert.match(inList.message, /missing ','/);
});

Deno.test("parseFile() reports an unclosed brace where it opens, and a stray one", () => {
  const unclosed = syntaxError("a: {\n\tb: 1\n");
  assert.deepEqual([unclosed.line, unclosed.column], [1, 4]);
  assert.match(unclosed.message, /a \{ has no closing \}: the file ends before it is closed/);
  const noNewline = syntaxError("x: 1\na: {\n\tb: {c: 1}");
  assert.deepEqual([noNewline.line, noNewline.column], [2, 4]);
  // The issue's case: a node's struct left open, and more fields after it.
  const node = syntaxError('x: {triggers: {n: "a"}\ny: 1\n');
  assert.deepEqual([node.line, node.column], [1, 4]);
  const stray = syntaxError("a: 1\n}\n");
  assert.deepEqual([stray.line, stray.column], [2, 1]);
  assert.match(stray.message, /unexpected \}/);
  const paren = syntaxError("a: (1 + 2\nb: 3\n");
  assert.deepEqual([paren.line, paren.column], [1, 4], "at the ( that is not closed");
});

Deno.test("parseFile() reports a value missing, a late package clause and scan errors", () => {
  const missing = syntaxError("a: }\n");
  assert.deepEqual([missing.line, missing.column], [1, 4]);
  assert.equal(missing.message, 'expected a value, found "}"');
  const late = syntaxError("a: 1\npackage x\n");
  assert.deepEqual([late.line, late.column], [2, 1]);
  assert.match(late.message, /"package" must come first/);
  const str = syntaxError('a: 1\nb: "open\n', "s.cue");
  assert.deepEqual([str.file, str.line, str.column], ["s.cue", 2, 4]);
  assert.match(str.message, /unterminated string/);
});

Deno.test('parseFile() reads a typed ellipsis in a list: [...{mode: "managed"}]', () => {
  const top = newTopScope();
  const pf = parseFile(
    "p.cue",
    'nodes: [...{mode: "managed"}]\nopen: [...]\nints: [1, 2, ...int]\n',
    top,
  );
  assert.deepEqual(pf.sites.map((s) => s.label), ["nodes", "mode", "open", "ints"]);
});

Deno.test("parseFile() reads 100 levels of nesting and refuses the 101st where it is passed", () => {
  const deep = (n: number, open: string, close: string) =>
    `x: ${open.repeat(n)}1${close.repeat(n)}\n`;
  for (const [open, close] of [["[", "]"], ["(", ")"], ["{a: ", "}"]]) {
    parse(deep(MAX_NESTING, open, close)); // no error
    const e = syntaxError(deep(1000, open, close));
    assert.match(e.message, /nests more than 100 levels deep here/);
    assert.equal(e.line, 1);
    assert.equal(e.column, 4 + open.length * MAX_NESTING + open.length, `${open}: ${e.column}`);
  }
  // Interpolations count too, in the parser and in the scanner.
  const strings = (n: number) => `x: ${'"\\('.repeat(n)}1${')"'.repeat(n)}\n`;
  parse(strings(MAX_NESTING));
  assert.match(syntaxError(strings(5000)).message, /interpolations nest more than 100 levels/);
  // 10,000 levels is no crash either.
  assert.match(syntaxError(deep(10_000, "{a: ", "}")).message, /nests more than 100/);
});

Deno.test("parseFile() refuses an expression that chains more than 1,000 operators", () => {
  parse(`x: 1${" + 1".repeat(MAX_OPERATORS)}\n`);
  const e = syntaxError(`x: 1${" + 1".repeat(5000)}\n`);
  assert.match(e.message, /chains more than 1000 operators/);
  assert.equal(e.column, 4 + " + 1".length * MAX_OPERATORS + 2);
});

Deno.test("parseFile() looks up a dynamic or pattern label's references in the struct's scope: a for variable, not a field of the same name outside", () => {
  const pf = parse(
    'k: "outer"\nx: {for k in ["a"] {"n-\\(k)": 1}}\ny: {for k, v in {a: 1} {(k): v}}\n',
  );
  const dynamic = pf.sites.filter((s) => s.kind === "dynamic");
  assert.equal(dynamic.length, 2);
  for (const d of dynamic) {
    const k = d.refs.find((r) => r.name === "k")!;
    const decl = resolve(k)!;
    assert.equal(decl.length, 1);
    assert.equal(decl[0].kind, "for", `${d.line}: the for variable`);
  }
});
