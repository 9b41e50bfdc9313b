import { strict as assert } from "node:assert";
import { scan, ScanError, type Token } from "./scanner.ts";

/** Tokens as `kind:text@line:column`, the compact form the tests compare. */
function brief(tokens: Token[]): string[] {
  return tokens.map((t) => `${t.kind}:${t.text === "\n" ? "NL" : t.text}@${t.line}:${t.column}`);
}

/** Checks the tokens, written one string a line: `kind:text@line:column` separated by blanks. */
function assertTokens(tokens: Token[], want: string[]): void {
  assert.equal(brief(tokens).join(" "), want.join(" "));
}

function scanError(src: string): ScanError {
  try {
    scan(src);
  } catch (e) {
    assert.ok(e instanceof ScanError, `expected a ScanError, got ${e}`);
    return e;
  }
  assert.fail(`scan(${JSON.stringify(src)}) did not throw`);
}

/** The tokens of whole sources: [what scan() does, source, tokens a line of the source]. */
const TOKENS: [string, string, string[]][] = [
  [
    "gives identifiers, punctuation and numbers with line and column",
    "a: b.c & >=1\n#D: 0x1F + 2Ki",
    [
      "ident:a@1:1 punct::@1:2 ident:b@1:4 punct:.@1:5 ident:c@1:6 punct:&@1:8 punct:>=@1:10",
      "number:1@1:12 comma:NL@1:13",
      "ident:#D@2:1 punct::@2:3 number:0x1F@2:5 punct:+@2:10 number:2Ki@2:12 comma:NL@2:15",
      "eof:@2:15",
    ],
  ],
  [
    "inserts a comma at a new line only after a token that can end a value",
    "a: 1\nb: {\n\tc: [\n\t\t2,\n\t]\n}\nd: x &\n\ty\ne: _|_\nf: ...\n",
    [
      "ident:a@1:1 punct::@1:2 number:1@1:4 comma:NL@1:5", // after a number
      "ident:b@2:1 punct::@2:2 punct:{@2:4", // no comma after {
      "ident:c@3:2 punct::@3:3 punct:[@3:5", // nor after [
      "number:2@4:3 comma:,@4:4", // a written comma; none added after it
      "punct:]@5:2 comma:NL@5:3", // after ]
      "punct:}@6:1 comma:NL@6:2", // after }
      "ident:d@7:1 punct::@7:2 ident:x@7:4 punct:&@7:6", // none after an operator: the value goes on
      "ident:y@8:2 comma:NL@8:3",
      "ident:e@9:1 punct::@9:2 punct:_|_@9:4 comma:NL@9:7", // after _|_
      "ident:f@10:1 punct::@10:2 punct:...@10:4 comma:NL@10:7", // after ...
      "eof:@11:1",
    ],
  ],
  [
    "skips comments, and a comment before a new line keeps the comma",
    '// head\na: 1 // one\n// "not a string\nb: "x // not a comment"\n',
    [
      "ident:a@2:1 punct::@2:2 number:1@2:4 comma:NL@2:12", // at the new line after the comment
      'ident:b@4:1 punct::@4:2 string:"x // not a comment"@4:4 comma:NL@4:24',
      "eof:@5:1",
    ],
  ],
  [
    "keeps attributes whole, with nested parentheses and quoted text",
    'a: int @tag(n,type=int) @go(f(x), "a)b")\n',
    [
      'ident:a@1:1 punct::@1:2 ident:int@1:4 attr:@tag(n,type=int)@1:8 attr:@go(f(x), "a)b")@1:25',
      "comma:NL@1:41",
      "eof:@2:1",
    ],
  ],
];

for (const [what, src, want] of TOKENS) {
  Deno.test(`scan() ${what}`, () => assertTokens(scan(src), want));
}

Deno.test("scan() inserts a comma after a string and an attribute, and at the end of input", () => {
  assert.deepEqual(brief(scan('a: "x"\nb: int @tag(b)')).filter((t) => t.startsWith("comma")), [
    "comma:NL@1:7",
    "comma:NL@2:15",
  ]);
});

Deno.test("scan() reads a string's value, with escapes", () => {
  const [, , s] = scan(String.raw`a: "tab\there \"q\" back\\slash"`);
  assert.equal(s.kind, "string");
  assert.equal(s.value, 'tab\there "q" back\\slash');
  assert.equal(s.interpolations, undefined);
  const [, , b] = scan("a: 'bytes'");
  assert.equal(b.kind, "string");
  assert.equal(b.value, "bytes");
});

Deno.test("scan() gives the tokens of each interpolation, with their positions", () => {
  const tokens = scan('a: "x\\(b.c + 1)-\\(d)y"\nz: 2');
  const s = tokens[2];
  assert.equal(s.kind, "string");
  assert.equal(s.text, '"x\\(b.c + 1)-\\(d)y"');
  assert.equal(s.value, undefined, "a string with interpolations has no value");
  assert.equal(s.interpolations?.length, 2);
  assertTokens(s.interpolations![0], [
    "ident:b@1:8 punct:.@1:9 ident:c@1:10 punct:+@1:12 number:1@1:14",
  ]);
  assert.deepEqual(brief(s.interpolations![1]), ["ident:d@1:19"]);
  // Scanning goes on after the string at the right place.
  assertTokens(tokens.slice(3), [
    "comma:NL@1:23",
    "ident:z@2:1 punct::@2:2 number:2@2:4 comma:NL@2:5",
    "eof:@2:5",
  ]);
});

Deno.test("scan() reads an interpolation that holds parentheses and a string with a )", () => {
  const s = scan('a: "<\\(f((1)) + ")")>"')[2];
  assert.equal(s.kind, "string");
  assert.deepEqual(s.interpolations!.map((i) => i.map((t) => t.text)), [
    ["f", "(", "(", "1", ")", ")", "+", '")"'],
  ]);
});

Deno.test("scan() reads an interpolation inside an interpolation", () => {
  const s = scan('a: "x\\("q\\(z)") y"')[2];
  const inner = s.interpolations![0];
  assert.equal(inner.length, 1);
  assert.equal(inner[0].kind, "string");
  assert.deepEqual(inner[0].interpolations!.map((i) => brief(i)), [["ident:z@1:12"]]);
});

Deno.test('scan() reads raw #"..."# strings: quotes and \\( are text, \\#( interpolates', () => {
  const plain = scan('a: #"say "hi" \\(x)"# + 1')[2];
  assert.equal(plain.kind, "string");
  assert.equal(plain.text, '#"say "hi" \\(x)"#');
  assert.equal(plain.value, 'say "hi" \\(x)');
  const interp = scan('a: #"\\(raw) \\#(real)"#')[2];
  assert.deepEqual(interp.interpolations!.map((i) => brief(i)), [["ident:real@1:16"]]);
  const two = scan('a: ##"a "# b"##')[2];
  assert.equal(two.value, 'a "# b');
});

Deno.test('scan() reads """ multi-line strings: dedented value, positions after them', () => {
  const src = 'a: """\n\tline one\n\t  two "quoted"\n\t"""\nb: 1';
  const tokens = scan(src);
  const s = tokens[2];
  assert.equal(s.kind, "string");
  assert.equal(s.line, 1);
  assert.equal(s.column, 4);
  assert.equal(s.value, 'line one\n  two "quoted"');
  assertTokens(tokens.slice(3), [
    "comma:NL@4:5",
    "ident:b@5:1 punct::@5:2 number:1@5:4 comma:NL@5:5",
    "eof:@5:5",
  ]);
});

Deno.test("scan() reports an unterminated string at the string's start", () => {
  const one = scanError('x: 1\ny:   "never closed\nz: 2');
  assert.deepEqual([one.line, one.column], [2, 6]);
  assert.match(one.message, /unterminated string: a string that spans lines needs triple quotes/);
  const atEnd = scanError('x: 1\ny: "never closed');
  assert.deepEqual([atEnd.line, atEnd.column], [2, 4]);
  assert.match(atEnd.message, /unterminated string: it has no closing "/);
  const multi = scanError('x: 1\n\ty: """\n\tabc\n');
  assert.deepEqual([multi.line, multi.column], [2, 5]);
  assert.match(multi.message, /no closing """/);
  const raw = scanError('x: #"abc"');
  assert.deepEqual([raw.line, raw.column], [1, 4]);
  assert.match(raw.message, /no closing "#/);
});

Deno.test("scan() reports an unterminated interpolation, attribute and a stray character", () => {
  const interp = scanError('x: "a\\(b');
  assert.match(interp.message, /unterminated interpolation/);
  const attr = scanError("a: 1 @tag(x\nb: 2");
  assert.deepEqual([attr.line, attr.column], [1, 6]);
  assert.match(attr.message, /unterminated attribute/);
  const stray = scanError("a: 1\nb: 1 ~ 2");
  assert.deepEqual([stray.line, stray.column], [2, 6]);
  assert.equal(stray.message, 'illegal character "~"');
});
