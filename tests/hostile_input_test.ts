/**
 * Inputs that once made pravo print "This is a bug in pravo" or a wrong
 * message: deep nesting, long operator chains, files that are not UTF-8, a
 * deep pravo.jsonc, an expression that exhausts cue-wasm; and a small
 * deterministic fuzz of a valid root through validate and plan.
 */

import assert from "node:assert/strict";
import { makeRoot, pravo, type RunResult, SEED } from "./_pravo.ts";
import { run } from "../main.ts";

function noBug(r: RunResult) {
  assert.doesNotMatch(r.stdout + r.stderr, /This is a bug in pravo|internal error|\n\s+at /);
}

Deno.test("1,000 nested braces, and 5,000 chained operators, are an invalid specification (exit 3) at the place, not a crash", async () => {
  const braces = `package demo\n\nx: ${"{a: ".repeat(1000)}1${"}".repeat(1000)}\n`;
  const root = await makeRoot({ "main.cue": braces });
  const r = await pravo(root, ["validate"]);
  assert.equal(r.code, 3, r.stderr);
  noBug(r);
  assert.match(r.stderr, /on main\.cue line 3, column 408:/);
  assert.match(r.stderr, /nests more than 100 levels deep/);
  await Deno.writeTextFile(`${root}/main.cue`, `package demo\n\nx: 1${" + 1".repeat(5000)}\n`);
  const c = await pravo(root, ["--json", "validate"]);
  assert.equal(c.code, 3);
  noBug(c);
  assert.equal(JSON.parse(c.stdout).diagnostics[0].range.line, 3);
  assert.match(c.stdout, /chains more than 1000 operators/);
});

Deno.test("a .cue file that is not UTF-8 is refused at its first bad byte (exit 3)", async () => {
  const bytes = new TextEncoder().encode(
    'package demo\n\nimport loc "pravo.dev/providers/hashicorp/local"\n\n$local: loc.#Provider\n\n' +
      'f: $local.#Resource.local_file & {filename: "cafX.txt", content: "x"}\n',
  );
  bytes[bytes.indexOf("X".charCodeAt(0))] = 0xe9; // "café" in Latin-1
  const root = await makeRoot({});
  await Deno.writeFile(`${root}/main.cue`, bytes);
  await Deno.writeTextFile(`${root}/ok.cue`, "package demo\n");
  for (const args of [["validate"], ["plan"]]) {
    const r = await pravo(root, args);
    assert.equal(r.code, 3, r.stderr);
    noBug(r);
    assert.match(r.stderr, /Error: File is not UTF-8/);
    assert.match(r.stderr, /on main\.cue line 7, column 49:/);
    assert.match(r.stderr, /the byte 0xE9 at line 7, column 49/);
  }
  await assert.rejects(Deno.stat(`${root}/caf\ufffd.txt`));
});

Deno.test("pravo.jsonc that is not UTF-8, or nests without end, is refused with its line and column", async () => {
  const root = await makeRoot({ "main.cue": SEED });
  await Deno.writeFile(
    `${root}/pravo.jsonc`,
    new Uint8Array([
      ...new TextEncoder().encode('{"state": {"root": "caf'),
      0xe9,
      0x22,
      0x7d,
      0x7d,
    ]),
  );
  const a = await pravo(root, ["plan"]);
  assert.equal(a.code, 1);
  noBug(a);
  assert.match(a.stderr, /pravo\.jsonc:1:24: the byte 0xE9 is not UTF-8/);
  await Deno.writeTextFile(
    `${root}/pravo.jsonc`,
    `{"x": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`,
  );
  const b = await pravo(root, ["plan"]);
  assert.equal(b.code, 1);
  noBug(b);
  assert.match(b.stderr, /pravo\.jsonc:1:38: the value nests more than 32 levels deep/);
});

Deno.test("an expression that cue-wasm cannot finish is a diagnostic (exit 3), and nothing but JSON reaches standard output", async () => {
  const root = await makeRoot({ "main.cue": SEED });
  assert.equal((await pravo(root, ["init"])).code, 0);
  const r = await pravo(root, [
    "--json",
    "state",
    "query",
    `${"[".repeat(5000)}1${"]".repeat(5000)}`,
  ]);
  assert.equal(r.code, 3, r.stderr);
  noBug(r);
  assert.equal(r.stdout, "");
  const err = JSON.parse(r.stderr);
  assert.equal(err.exit_code, 3);
  assert.equal(err.diagnostics[0].summary, "CUE could not finish the evaluation");
});

Deno.test("a fuzz of a valid root through validate and plan never ends in an internal error", async () => {
  const seed = `package demo

import rnd "pravo.dev/providers/hashicorp/random"
import "strings"

$random: rnd.#Provider

base: $random.#Resource.random_integer & {min: 1, max: 9, seed: "base"}
pw:   $random.#Resource.random_password & {length: base.result + 10, special: false}
name: strings.ToUpper("x\\(pw.length)") @tag(n)
list: [for i in [1, 2, 3] {i * 2}]
#Def: {a: int, b?: string}
x:    #Def & {a: 1}
outputs: {n: base.result, l: list}
other: {
	inner: $random.#Resource.random_pet & {length: 2, keepers: {k: "v"}}
	lifecycle: {prevent_destroy: true}
}
`;
  const atoms = [
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    ":",
    ",",
    "\n",
    '"',
    "\\(",
    "#",
    "$",
    "@tag(",
    "_|_",
    "...",
    "&",
    "|",
    "for",
    "if",
    "let",
    "in",
    "1e999",
    "0x",
    '"""',
    '#"',
    "/*",
    "\u00e9",
    "\u0000",
    "package",
    "import",
    "base.",
    ".result",
    "=~",
    "!",
    "?",
    "=",
    "len(",
    "or(",
    "null",
    "-",
    "99999999999999999999999",
    "lifecycle: {",
    "~",
  ];
  let s = 7;
  const rnd = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const root = await makeRoot({ "main.cue": "package demo\n" });
  const env = (n: string) => (n === "PRAVO_ACTOR" ? "fuzz" : Deno.env.get(n));
  const quiet = { stdout: () => {}, stderr: () => {}, isTerminal: false };
  assert.equal(await run(["-C", root, "init"], quiet, env), 0);
  for (let k = 0; k < 25; k++) {
    let src = seed;
    for (let o = 0; o < 1 + Math.floor(rnd() * 3); o++) {
      const at = Math.floor(rnd() * src.length);
      const op = rnd();
      if (op < 0.5) {
        src = src.slice(0, at) + atoms[Math.floor(rnd() * atoms.length)] + src.slice(at);
      } else if (op < 0.8) src = src.slice(0, at) + src.slice(at + 1 + Math.floor(rnd() * 20));
      else src = src.slice(0, at) + src.slice(at, at + Math.floor(rnd() * 40)) + src.slice(at);
    }
    await Deno.writeTextFile(`${root}/main.cue`, src);
    for (const argv of [["-C", root, "validate"], ["-C", root, "-t", "n=v", "plan"]]) {
      let out = "";
      const streams = {
        stdout: (t: string) => void (out += t),
        stderr: (t: string) => void (out += t),
        isTerminal: false,
      };
      const code = await run(argv, streams, env); // a throw here is an internal error
      assert.ok([0, 1, 2, 3, 64].includes(code), `case ${k} ${argv.at(-1)}: exit ${code}\n${out}`);
      assert.doesNotMatch(out, /bug in pravo/, `case ${k}:\n${src}`);
    }
  }
});

Deno.test("a plan file with a byte that is not UTF-8 is damaged (exit 7), with where", async () => {
  const root = await makeRoot({ "main.cue": SEED });
  assert.equal((await pravo(root, ["init"])).code, 0);
  assert.equal((await pravo(root, ["plan", "--out", "x.plan"])).code, 2);
  const bytes = await Deno.readFile(`${root}/x.plan`);
  // Inside the sealed body (base64): the file is text no more.
  const at = new TextDecoder().decode(bytes).indexOf('"sealed":"') + 20;
  assert.ok(at > 20);
  bytes[at] = 0xe9;
  await Deno.writeFile(`${root}/x.plan`, bytes);
  for (const args of [["show", "x.plan"], ["apply", "x.plan"]]) {
    const r = await pravo(root, args);
    assert.equal(r.code, 7, r.stderr);
    assert.match(
      r.stderr,
      /is damaged\n\nIt is not UTF-8 text: the byte 0xE9 at line 1, column \d+/,
    );
  }
});
