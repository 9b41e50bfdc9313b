import assert from "node:assert/strict";
import {
  DocsSyntaxError,
  judge,
  lineDiff,
  parseInfo,
  parsePage,
  runBlock,
  type RunExample,
  trimOneNewline,
} from "./docs_examples.ts";

const PAGE = [
  "# pravo thing", // 1
  "", // 2
  "Work in an empty directory named `demo`. The root has one resource.", // 3
  "", // 4
  "```cue file=sub/main.cue", // 5
  "package demo", // 6
  "```", // 7
  "", // 8
  "```sh run", // 9
  "pravo init > /dev/null", // 10
  "```", // 11
  "", // 12
  "<!-- docs-env PRAVO_ACTOR=alice -->", // 13
  "", // 14
  "```sh run exit=64", // 15
  "pravo valdate", // 16
  "```", // 17
  "", // 18
  "Some prose between does not break the pair.", // 19
  "", // 20
  "````text out", // 21
  'Error: unknown command "valdate"', // 22
  "```", // 23
  "````", // 24
  "", // 25
  '```json title="client configuration"', // 26
  "{}", // 27
  "```", // 28
  "", // 29
  "```text out", // 30 follows a reader's block: an error, tested below
  "x", // 31
  "```", // 32
].join("\n");

Deno.test("parseInfo() reads the language, words and key=value attributes", () => {
  const info = parseInfo('sh run exit=5 title="a b" file=x.cue');
  assert.equal(info.lang, "sh");
  assert.deepEqual([...info.words], ["run"]);
  assert.deepEqual(info.attrs, { exit: "5", title: "a b", file: "x.cue" });
});

Deno.test("parsePage() reads the directory, files, runs, exit codes and outputs in order", () => {
  const page = parsePage(PAGE.split("\n").slice(0, 29).join("\n"));
  assert.equal(page.dir, "demo");
  assert.deepEqual(page.examples, [
    { kind: "file", line: 5, path: "sub/main.cue", content: "package demo\n" },
    {
      kind: "run",
      line: 9,
      script: "pravo init > /dev/null",
      exit: 0,
      timeoutSeconds: 120,
      env: {},
    },
    {
      kind: "run",
      line: 15,
      script: "pravo valdate",
      exit: 64,
      timeoutSeconds: 120,
      env: { PRAVO_ACTOR: "alice" },
      // the four-backtick fence keeps the ``` line inside the block
      expected: { text: 'Error: unknown command "valdate"\n```', line: 21 },
    },
  ]);
});

Deno.test("parsePage() refuses an output block that follows no run block", () => {
  assert.throws(() => parsePage(PAGE), (e: unknown) => {
    assert.ok(e instanceof DocsSyntaxError);
    assert.equal(e.line, 30);
    assert.match(e.message, /does not follow a ```sh run block/);
    return true;
  });
});

Deno.test("parsePage() refuses unclosed blocks, bad exit codes and escaping paths", () => {
  assert.throws(() => parsePage("text\n```sh run\nls\n"), /line 2: .*never closed/);
  assert.throws(() => parsePage("```sh run exit=x\nls\n```"), /exit=x is not an exit code/);
  assert.throws(() => parsePage("```cue file=../x.cue\na: 1\n```"), /relative path inside/);
  assert.throws(() => parsePage("```python run\n1\n```"), /only sh, bash and shell/);
  assert.throws(
    () => parsePage("Work in an empty directory named `a/b`."),
    /must be one plain name/,
  );
});

Deno.test("parsePage() accepts a page with no examples", () => {
  assert.deepEqual(parsePage("# Exit codes\n\n| 0 | ok |\n"), { examples: [] });
});

Deno.test("parsePage() strips the indentation of an indented fence", () => {
  const page = parsePage("1. Run:\n\n   ```sh run\n   echo hi\n   ```\n");
  assert.equal((page.examples[0] as RunExample).script, "echo hi");
});

Deno.test("trimOneNewline() removes one trailing newline only", () => {
  assert.equal(trimOneNewline("a\n\n"), "a\n");
  assert.equal(trimOneNewline("a"), "a");
});

Deno.test("lineDiff() marks missing lines with - and extra ones with +", () => {
  assert.equal(lineDiff("a\nb\nc", "a\nx\nc"), "  a\n- b\n+ x\n  c");
});

const run = (script: string, exit = 0, expected?: string): RunExample => ({
  kind: "run",
  line: 7,
  script,
  exit,
  timeoutSeconds: 10,
  env: {},
  ...(expected !== undefined ? { expected: { text: expected, line: 11 } } : {}),
});

Deno.test("judge() reports a wrong exit code and a different output with a diff", () => {
  const msg = judge("p.md", run("x", 0, "one\ntwo"), {
    code: 3,
    output: "one\nthree\n",
    timedOut: false,
  });
  assert.ok(msg);
  assert.match(msg, /p\.md:7: the block exited 3, and the page expects 0/);
  assert.match(msg, /differs from the text out block on line 11/);
  assert.ok(msg.includes("  one\n- two\n+ three"), msg);
  assert.equal(
    judge("p.md", run("x", 3, "one"), { code: 3, output: "one\n", timedOut: false }),
    undefined,
  );
});

Deno.test("runBlock() merges stderr into stdout, runs without -e and sets PRAVO_ACTOR", async () => {
  const cwd = await Deno.makeTempDir();
  try {
    const result = await runBlock(
      run('echo out; echo err >&2; false; echo "$PRAVO_ACTOR ${NO_COLOR-unset}"; exit 4'),
      { cwd, binDir: cwd },
    );
    assert.equal(result.code, 4);
    assert.equal(result.output, "out\nerr\ndocs unset\n");
    assert.equal(result.timedOut, false);
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});
